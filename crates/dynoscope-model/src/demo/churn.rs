//! The demo's write load (`seed --churn`): a deterministic sequence of writes to the demo
//! table's keys, shaped like the traffic the live view is for:
//!
//! - most writes touch one of many users' profiles (updates spread over many keys);
//! - one hot tenant, `USER#celebrity`, takes about a quarter of all writes (its profile, its
//!   new orders, and shipping or deleting them);
//! - new orders enter the write-sharded status key `STATUS#PENDING#0`..`#9` of GSI1, and
//!   shipping one moves it to the unsharded `STATUS#SHIPPED` (a hot GSI key);
//! - a few orders are deleted again.
//!
//! Pure: the caller sends the writes and paces them.

use std::collections::VecDeque;

use crate::demo::demo_data::{user_id, CELEBRITY_ID, PENDING_SHARDS};
use crate::item::value::{AttrValue, Item};

/// One write to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteOp {
    Put {
        item: Item,
    },
    /// UpdateItem that SETs these attributes (creating the item if it is missing).
    Update {
        key: Item,
        set: Vec<(String, AttrValue)>,
    },
    Delete {
        key: Item,
    },
}

impl WriteOp {
    pub fn kind(&self) -> &'static str {
        match self {
            WriteOp::Put { .. } => "put",
            WriteOp::Update { .. } => "update",
            WriteOp::Delete { .. } => "delete",
        }
    }
}

/// Orders the plan remembers to ship or delete later; older ones are forgotten.
const RECENT_ORDERS: usize = 1000;

#[derive(Debug, Clone)]
struct Order {
    pk: String,
    sk: String,
}

/// An endless, deterministic sequence of [`WriteOp`]s over the keys of `demo_data` with
/// `users` users.
#[derive(Debug, Clone)]
pub struct ChurnPlan {
    state: u64,
    users: u32,
    seq: u64,
    recent: VecDeque<Order>,
}

fn s(v: impl Into<String>) -> AttrValue {
    AttrValue::S(v.into())
}

fn n(v: impl ToString) -> AttrValue {
    AttrValue::N(v.to_string())
}

fn key(pk: &str, sk: &str) -> Item {
    Item::from_attrs(vec![("PK".into(), s(pk)), ("SK".into(), s(sk))])
}

impl ChurnPlan {
    pub fn new(users: u32, seed: u64) -> Self {
        ChurnPlan {
            state: seed,
            users: users.max(1),
            seq: 0,
            recent: VecDeque::new(),
        }
    }

    /// SplitMix64, like the demo data's generator.
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    fn touch_profile(&self, user: &str) -> WriteOp {
        WriteOp::Update {
            key: key(&format!("USER#{user}"), "PROFILE"),
            set: vec![
                ("lastSeen".into(), n(self.seq)),
                ("sessions".into(), n(self.seq % 97 + 1)),
            ],
        }
    }

    fn new_order(&mut self, user: &str) -> WriteOp {
        let order = format!("c{:08}", self.seq);
        let day = format!("2026-12-{:02}", self.seq % 28 + 1);
        let shard = self.below(u64::from(PENDING_SHARDS));
        let cents = 100 + self.below(20_000);
        let pk = format!("USER#{user}");
        let sk = format!("ORDER#{day}#{order}");
        self.recent.push_back(Order {
            pk: pk.clone(),
            sk: sk.clone(),
        });
        if self.recent.len() > RECENT_ORDERS {
            self.recent.pop_front();
        }
        WriteOp::Put {
            item: Item::from_attrs(vec![
                ("PK".into(), s(pk)),
                ("SK".into(), s(sk)),
                ("GSI1PK".into(), s(format!("STATUS#PENDING#{shard}"))),
                ("GSI1SK".into(), s(format!("{day}#ORDER#{order}"))),
                ("LSI1SK".into(), n(cents)),
                ("status".into(), s("PENDING")),
                (
                    "total".into(),
                    n(format!("{}.{:02}", cents / 100, cents % 100)),
                ),
                ("lines".into(), n(1 + cents % 4)),
            ]),
        }
    }

    fn random_user(&mut self) -> String {
        user_id(self.below(u64::from(self.users)) as u32)
    }
}

impl Iterator for ChurnPlan {
    type Item = WriteOp;

    fn next(&mut self) -> Option<WriteOp> {
        self.seq += 1;
        let roll = self.below(100);
        let op = match roll {
            0..=44 => {
                let user = self.random_user();
                self.touch_profile(&user)
            }
            45..=54 => self.touch_profile(CELEBRITY_ID),
            55..=64 => self.new_order(CELEBRITY_ID),
            65..=84 => {
                let user = self.random_user();
                self.new_order(&user)
            }
            _ if self.recent.is_empty() => {
                let user = self.random_user();
                self.new_order(&user)
            }
            85..=94 => {
                let at = self.below(self.recent.len() as u64) as usize;
                let order = &self.recent[at];
                WriteOp::Update {
                    key: key(&order.pk, &order.sk),
                    set: vec![
                        ("status".into(), s("SHIPPED")),
                        ("GSI1PK".into(), s("STATUS#SHIPPED")),
                    ],
                }
            }
            _ => {
                let at = self.below(self.recent.len() as u64) as usize;
                let order = self.recent.remove(at).expect("in range");
                WriteOp::Delete {
                    key: key(&order.pk, &order.sk),
                }
            }
        };
        Some(op)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn pk(op: &WriteOp) -> String {
        let item = match op {
            WriteOp::Put { item } => item,
            WriteOp::Update { key, .. } | WriteOp::Delete { key } => key,
        };
        item.get("PK")
            .and_then(AttrValue::as_s)
            .unwrap()
            .to_string()
    }

    #[test]
    fn the_mix_has_a_hot_tenant_a_spread_and_the_sharded_status_key() {
        let ops: Vec<WriteOp> = ChurnPlan::new(2000, 7).take(10_000).collect();
        assert_eq!(
            ops,
            ChurnPlan::new(2000, 7).take(10_000).collect::<Vec<_>>()
        );
        let mut by_pk: HashMap<String, usize> = HashMap::new();
        for op in &ops {
            *by_pk.entry(pk(op)).or_default() += 1;
        }
        let hot = by_pk["USER#celebrity"];
        assert!(
            (2_100..2_600).contains(&hot),
            "celebrity took {hot} of 10,000"
        );
        assert!(by_pk.len() > 1500, "spread over {} keys", by_pk.len());
        let second = by_pk
            .iter()
            .filter(|(k, _)| *k != "USER#celebrity")
            .map(|(_, n)| *n)
            .max()
            .unwrap();
        assert!(second < 30, "no other key is hot ({second})");
        let shards: std::collections::HashSet<String> = ops
            .iter()
            .filter_map(|op| match op {
                WriteOp::Put { item } => item
                    .get("GSI1PK")
                    .and_then(AttrValue::as_s)
                    .map(String::from),
                _ => None,
            })
            .collect();
        assert_eq!(shards.len(), PENDING_SHARDS as usize, "{shards:?}");
        let kinds = |k: &str| ops.iter().filter(|op| op.kind() == k).count();
        assert!(kinds("put") > 2500 && kinds("update") > 5000 && kinds("delete") > 300);
        let shipped = ops.iter().filter(|op| matches!(op, WriteOp::Update { set, .. } if set.iter().any(|(k, _)| k == "GSI1PK"))).count();
        assert!(shipped > 800, "{shipped}");
    }
}
