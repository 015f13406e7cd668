//! The demo single-table data set, generated deterministically (same items on every run and
//! machine), following the seed document's model:
//!
//! | entity     | PK                 | SK                          | GSI1PK                    | GSI1SK                 |
//! |------------|--------------------|-----------------------------|---------------------------|------------------------|
//! | user       | `USER#<id>`        | `PROFILE`                   |                           |                        |
//! | order      | `USER#<id>`        | `ORDER#<date>#<orderId>`    | `STATUS#<status>`         | `<date>#ORDER#<id>`    |
//! | order head | `ORDER#<orderId>`  | `#META`                     |                           |                        |
//! | line item  | `ORDER#<orderId>`  | `ITEM#<n>`                  |                           |                        |
//! | product    | `PRODUCT#<sku>`    | `PRODUCT`                   | `CATEGORY#<category>`     | `PRODUCT#<sku>`        |
//!
//! PENDING orders are write-sharded (`STATUS#PENDING#0`..`#9`), and user `celebrity` has many
//! times more orders than anyone else, so the triage views have a hot key to find. Orders also
//! carry `LSI1SK` (their total in cents, a number) for the numeric local index.

use crate::design::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo,
};
use crate::item::value::{AttrValue, Item};

/// The demo table's string keys as DescribeTable reports them, with no counts: `PK`/`SK` and
/// `GSI1` (all attributes projected), on demand, with a NEW_AND_OLD_IMAGES stream. What the
/// stream tools rank writes by, and what the long-run tests and benchmarks build on (`seed`
/// also creates the numeric `LSI1`, which none of them needs).
pub fn stream_table_info() -> TableInfo {
    let key = |name: &str| KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    };
    TableInfo {
        name: "app".into(),
        status: "ACTIVE".into(),
        keys: KeySchema::simple(key("PK"), Some(key("SK"))),
        indexes: vec![IndexInfo {
            name: "GSI1".into(),
            kind: IndexKind::Gsi,
            keys: KeySchema::simple(key("GSI1PK"), Some(key("GSI1SK"))),
            projection: Projection {
                projection_type: "ALL".into(),
                non_key_attributes: vec![],
            },
            provisioned: None,
            item_count: None,
            size_bytes: None,
        }],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: 0,
        size_bytes: 0,
        ttl_attribute: None,
        stream: Some("NEW_AND_OLD_IMAGES".into()),
        on_demand_max: None,
    }
}

pub const STATUSES: [&str; 4] = ["PENDING", "SHIPPED", "DELIVERED", "CANCELLED"];
pub const CATEGORIES: [&str; 6] = ["books", "garden", "games", "kitchen", "music", "tools"];
pub const PENDING_SHARDS: u32 = 10;
pub const CELEBRITY_ID: &str = "celebrity";
const PRODUCTS: u32 = 120;

/// SplitMix64: tiny, fast and stable, so the demo data never changes with a crate upgrade.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn s(v: impl Into<String>) -> AttrValue {
    AttrValue::S(v.into())
}

fn n(v: impl ToString) -> AttrValue {
    AttrValue::N(v.to_string())
}

/// A date between 2025-01-01 and 2026-11-28, as `YYYY-MM-DD`.
fn date(rng: &mut Rng) -> String {
    let day = rng.below(697);
    let (mut year, mut rest) = (2025, day);
    if rest >= 365 {
        year = 2026;
        rest -= 365;
    }
    const DAYS: [u64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let mut month = 0;
    while rest >= DAYS[month] {
        rest -= DAYS[month];
        month += 1;
    }
    format!("{year}-{:02}-{:02}", month + 1, rest + 1)
}

pub fn user_id(i: u32) -> String {
    format!("u{i:05}")
}

/// Every demo item for `users` ordinary users plus the celebrity (who gets `users * 3 / 2`
/// orders, at least 50).
pub fn generate(users: u32) -> Vec<Item> {
    DemoItems::new(users).collect()
}

/// The same items as `generate`, one order at a time, so a benchmark can feed a million items
/// page by page without holding them all, as DynamoDB would send them. (The celebrity alone
/// has hundreds of thousands of items at that size; buffering a whole user would hold them.)
pub struct DemoItems {
    rng: Rng,
    users: u32,
    /// Ordinary users are `0..users`; `users` itself stands for the celebrity.
    next_user: u32,
    order_seq: u32,
    started: bool,
    /// The user whose orders are being generated, and how many of them are still to come.
    user: String,
    orders_left: u32,
    /// Items generated but not yet returned: the products, one profile, or one order.
    buffer: std::collections::VecDeque<Item>,
}

impl DemoItems {
    pub fn new(users: u32) -> Self {
        DemoItems {
            rng: Rng(0x5EED_D1A0),
            users,
            next_user: 0,
            order_seq: 0,
            started: false,
            user: String::new(),
            orders_left: 0,
            buffer: std::collections::VecDeque::new(),
        }
    }

    fn products(&mut self) {
        let rng = &mut self.rng;
        for p in 0..PRODUCTS {
            let category = CATEGORIES[(p as usize) % CATEGORIES.len()];
            let sku = format!("p{p:04}");
            self.buffer.push_back(Item::from_attrs(vec![
                ("PK".into(), s(format!("PRODUCT#{sku}"))),
                ("SK".into(), s("PRODUCT")),
                ("GSI1PK".into(), s(format!("CATEGORY#{category}"))),
                ("GSI1SK".into(), s(format!("PRODUCT#{sku}"))),
                ("name".into(), s(format!("{category} thing {p}"))),
                ("category".into(), s(category)),
                (
                    "price".into(),
                    n(format!("{}.{:02}", 1 + rng.below(200), rng.below(100))),
                ),
            ]));
        }
    }

    /// Buffers the user's profile and decides how many orders follow it.
    fn profile(&mut self, id: String) {
        let rng = &mut self.rng;
        let celebrity = id == CELEBRITY_ID;
        self.buffer.push_back(Item::from_attrs(vec![
            ("PK".into(), s(format!("USER#{id}"))),
            ("SK".into(), s("PROFILE")),
            (
                "name".into(),
                s(if celebrity {
                    "Celebrity".to_string()
                } else {
                    format!("User {id}")
                }),
            ),
            ("email".into(), s(format!("{id}@example.com"))),
            (
                "tier".into(),
                s(["free", "plus", "pro"][rng.below(3) as usize]),
            ),
            ("createdAt".into(), s(date(rng))),
        ]));
        self.orders_left = if celebrity {
            (self.users * 3 / 2).max(50)
        } else {
            rng.below(6) as u32
        };
        self.user = id;
    }
}

impl Iterator for DemoItems {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.buffer.pop_front() {
                return Some(item);
            }
            if !self.started {
                self.started = true;
                self.products();
                continue;
            }
            if self.orders_left > 0 {
                self.orders_left -= 1;
                self.order_seq += 1;
                push_order(&mut self.buffer, &mut self.rng, &self.user, self.order_seq);
                continue;
            }
            if self.next_user > self.users {
                return None;
            }
            let id = if self.next_user == self.users {
                CELEBRITY_ID.to_string()
            } else {
                user_id(self.next_user)
            };
            self.next_user += 1;
            self.profile(id);
        }
    }
}

fn push_order(items: &mut std::collections::VecDeque<Item>, rng: &mut Rng, user: &str, seq: u32) {
    let order_id = format!("o{seq:06}");
    let day = date(rng);
    let status = STATUSES[rng.below(STATUSES.len() as u64) as usize];
    let gsi1pk = if status == "PENDING" {
        format!("STATUS#PENDING#{}", rng.below(u64::from(PENDING_SHARDS)))
    } else {
        format!("STATUS#{status}")
    };
    let lines = 1 + rng.below(4);
    let mut total_cents = 0u64;
    for line in 1..=lines {
        let cents = 100 + rng.below(9_900);
        let qty = 1 + rng.below(3);
        total_cents += cents * qty;
        items.push_back(Item::from_attrs(vec![
            ("PK".into(), s(format!("ORDER#{order_id}"))),
            ("SK".into(), s(format!("ITEM#{line}"))),
            (
                "productId".into(),
                s(format!("p{:04}", rng.below(u64::from(PRODUCTS)))),
            ),
            ("qty".into(), n(qty)),
            (
                "price".into(),
                n(format!("{}.{:02}", cents / 100, cents % 100)),
            ),
        ]));
    }
    let total = format!("{}.{:02}", total_cents / 100, total_cents % 100);
    items.push_back(Item::from_attrs(vec![
        ("PK".into(), s(format!("ORDER#{order_id}"))),
        ("SK".into(), s("#META")),
        ("userId".into(), s(user)),
        ("status".into(), s(status)),
        ("total".into(), n(&total)),
        ("orderedAt".into(), s(&day)),
    ]));
    items.push_back(Item::from_attrs(vec![
        ("PK".into(), s(format!("USER#{user}"))),
        ("SK".into(), s(format!("ORDER#{day}#{order_id}"))),
        ("GSI1PK".into(), s(gsi1pk)),
        ("GSI1SK".into(), s(format!("{day}#ORDER#{order_id}"))),
        ("LSI1SK".into(), n(total_cents)),
        // The key's parts again under their own names, as single-table designs usually keep
        // them: the explorer names the sort key's part columns after them.
        ("orderId".into(), s(&order_id)),
        ("date".into(), s(&day)),
        ("status".into(), s(status)),
        ("total".into(), n(total)),
        ("lines".into(), n(lines)),
    ]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn key(item: &Item) -> (String, String) {
        let get = |k| item.get(k).and_then(AttrValue::as_s).unwrap().to_string();
        (get("PK"), get("SK"))
    }

    #[test]
    fn deterministic_unique_keys_and_hot_spots() {
        let items = generate(100);
        assert_eq!(items, generate(100), "generation must be deterministic");
        let keys: HashSet<_> = items.iter().map(key).collect();
        assert_eq!(keys.len(), items.len(), "primary keys must be unique");
        let celebrity_orders = items
            .iter()
            .filter(|i| key(i).0 == "USER#celebrity" && key(i).1.starts_with("ORDER#"))
            .count();
        assert_eq!(celebrity_orders, 150);
        let shards: HashSet<_> = items
            .iter()
            .filter_map(|i| i.get("GSI1PK").and_then(AttrValue::as_s))
            .filter(|k| k.starts_with("STATUS#PENDING#"))
            .collect();
        assert_eq!(shards.len(), PENDING_SHARDS as usize);
        assert!(items.iter().any(|i| key(i).1 == "#META"));
    }

    #[test]
    fn dates_are_valid() {
        let mut rng = Rng(1);
        for _ in 0..2000 {
            let d = date(&mut rng);
            let parts: Vec<u32> = d.split('-').map(|p| p.parse().unwrap()).collect();
            assert!(
                (2025..=2026).contains(&parts[0])
                    && (1..=12).contains(&parts[1])
                    && (1..=31).contains(&parts[2]),
                "{d}"
            );
            assert!(d.as_str() <= "2026-11-30", "{d}");
        }
    }
}
