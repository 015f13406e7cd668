//! Test fixtures for the live pane: demo-shaped stream changes, a mix with a hot collection
//! and a hot GSI key, and the explorer with the pane open on a stream that is being read.

use crate::app::msg::{LiveEffect, TimeMsg};
use std::sync::Arc;

use crate::app::input::KeyCode;

use crate::app::fixtures::{char, loaded, press, send};
use crate::app::msg::{Effect, Msg, StreamMsg};
use crate::app::state::{LiveView, State};
use crate::model::engine::stream::StreamEvent;
use crate::model::item::value::{AttrValue, Item};
use crate::model::stream::{Change, ChangeEvent, ViewType};

/// 2026-11-30T19:18:00Z.
pub const CREATED_MS: i64 = 1_796_066_280_000;

fn item(pk: &str, sk: &str, attrs: &[(&str, &str)]) -> Item {
    let mut all = vec![
        ("PK".to_string(), AttrValue::S(pk.into())),
        ("SK".to_string(), AttrValue::S(sk.into())),
    ];
    all.extend(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), AttrValue::S(v.to_string()))),
    );
    Item::from_attrs(all)
}

/// A change to `PK=pk, SK=sk` as a NEW_AND_OLD_IMAGES stream shows it.
pub fn change(
    event: ChangeEvent,
    pk: &str,
    sk: &str,
    old: Option<&[(&str, &str)]>,
    new: Option<&[(&str, &str)]>,
) -> Change {
    Change {
        event,
        keys: item(pk, sk, &[]),
        old_image: old.map(|a| item(pk, sk, a)),
        new_image: new.map(|a| item(pk, sk, a)),
        sequence_number: "000000000000000000001".into(),
        created_at_ms: Some(CREATED_MS),
        size_bytes: 120,
        view: Some(ViewType::NewAndOldImages),
        ttl_delete: false,
    }
}

/// The same change as a KEYS_ONLY stream shows it: keys, no images.
pub fn keys_only(mut c: Change) -> Change {
    c.old_image = None;
    c.new_image = None;
    c.view = Some(ViewType::KeysOnly);
    c
}

/// The `n`-th write of a mix: two in five to `USER#celebrity` (an order shipped: its GSI key
/// moves from a PENDING shard to the unsharded `STATUS#SHIPPED`), the rest profile updates
/// spread over many users, and every tenth of those a new user.
pub fn mix(n: u64) -> Change {
    let mut c = if n % 5 < 2 {
        let order = format!("ORDER#2026-11-30#o{:05}", n);
        let pending = format!("STATUS#PENDING#{}", n % 10);
        change(
            ChangeEvent::Modify,
            "USER#celebrity",
            &order,
            Some(&[("GSI1PK", &pending), ("GSI1SK", "x"), ("status", "PENDING")]),
            Some(&[
                ("GSI1PK", "STATUS#SHIPPED"),
                ("GSI1SK", "x"),
                ("status", "SHIPPED"),
            ]),
        )
    } else if n % 10 == 4 {
        let pk = format!("USER#u{:05}", 1000 + n);
        change(
            ChangeEvent::Insert,
            &pk,
            "PROFILE",
            None,
            Some(&[("name", "New User"), ("plan", "free")]),
        )
    } else {
        // As the demo's load touches a profile: its last sequence number and session count.
        let pk = format!("USER#u{:05}", n % 97);
        let (before, after) = ((n + 900).to_string(), (n + 1000).to_string());
        change(
            ChangeEvent::Modify,
            &pk,
            "PROFILE",
            Some(&[("lastSeen", &before), ("plan", "free")]),
            Some(&[("lastSeen", &after), ("plan", "free")]),
        )
    };
    c.sequence_number = format!("{:021}", 1000 + n);
    c
}

pub fn changes_msg(id: u64, changes: Vec<Change>) -> Msg {
    Msg::Stream {
        id,
        event: StreamMsg::Event(StreamEvent::Changes {
            shard_id: Arc::from("shard-0001"),
            changes,
        }),
    }
}

/// The demo table loaded, `W` pressed at clock 1,000 ms, and the stream found (with `view`)
/// and read from one shard. Returns the stream's id.
pub fn live_opened(view: ViewType) -> (State, u64) {
    let mut s = loaded(false);
    send(&mut s, [Msg::Time(TimeMsg::Tick(1_000))]);
    let effects = send(&mut s, [char('W')]);
    let id = match effects.as_slice() {
        [Effect::Live(LiveEffect::Start { id, table, .. })] if table == "app" => *id,
        other => panic!("expected one StartStream, got {other:?}"),
    };
    send(
        &mut s,
        [
            Msg::Stream {
                id,
                event: StreamMsg::Found {
                    view_type: Some(view),
                    timeline: Default::default(),
                },
            },
            Msg::Stream {
                id,
                event: StreamMsg::Event(StreamEvent::ShardOpened {
                    shard_id: "shard-0001".into(),
                    parent_shard_id: None,
                }),
            },
            Msg::Stream {
                id,
                event: StreamMsg::Event(StreamEvent::Ready { shards: 1 }),
            },
        ],
    );
    (s, id)
}

/// `per_second` changes of the mix each second for `seconds` seconds from the clock's now,
/// with a tick after each second (the loop ticks while the pane is open).
pub fn feed_mix(s: &mut State, id: u64, per_second: u64, seconds: u64) {
    let start = s.clock_ms;
    for second in 0..seconds {
        let first = (start / 1000 + second) * per_second;
        let batch = (first..first + per_second).map(mix).collect();
        send(s, [changes_msg(id, batch)]);
        send(s, [Msg::Time(TimeMsg::Tick(start + (second + 1) * 1000))]);
    }
}

pub fn live(s: &State) -> &LiveView {
    s.table
        .as_ref()
        .and_then(|v| v.live())
        .expect("the live pane is open")
}

pub fn down(s: &mut State, n: usize) {
    send(s, (0..n).map(|_| press(KeyCode::Down)));
}
