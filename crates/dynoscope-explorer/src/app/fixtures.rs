//! Test fixtures shared by `update` tests and UI snapshots: a demo-shaped table, its pages, and
//! a state at a fixed terminal size.

use crate::app::msg::{InputMsg, ReadEffect, TableEffect, TableMsg};
use std::time::Duration;

use crate::app::input::{Key, KeyCode, Modifiers};

use super::config::Config;
use super::keymap::Keymap;
use super::msg::Msg;
use super::state::State;
use crate::model::demo::demo_data;
use crate::model::engine::attempts::AttemptStats;
use crate::model::engine::{EngineEvent, Operation, Page};
pub use crate::model::fixtures::demo_info;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::Consumed;

pub const WIDTH: u16 = 100;
pub const HEIGHT: u16 = 30;

/// The demo items of a few users, products first as the generator emits them.
pub fn demo_items() -> Vec<Item> {
    demo_data::generate(6)
        .into_iter()
        .filter(|i| {
            let pk = i.get("PK").and_then(|v| v.as_s()).unwrap_or("");
            !pk.starts_with("PRODUCT#") || pk < "PRODUCT#p0003"
        })
        .collect()
}

pub fn page(request_id: u64, page: u32, items: Vec<Item>, more: bool) -> Msg {
    let count = items.len() as u64;
    let last = if more { items.last().cloned() } else { None };
    Msg::Engine(EngineEvent::Page(Page {
        request_id,
        operation: Operation::Scan,
        index: None,
        segment: 0,
        page,
        items,
        json_lines: None,
        sized_keys: None,
        count,
        scanned_count: count,
        consumed: Consumed {
            total: 2.5,
            table: 2.5,
            indexes: Default::default(),
            unreported_pages: 0,
        },
        sent_at: Duration::ZERO,
        latency: Duration::from_millis(12),
        attempts: AttemptStats {
            attempts: 1,
            throttles: 0,
            throttle_reason: None,
            reasons: Vec::new(),
        },
        resume: Some(match &last {
            Some(key) => crate::model::engine::SegmentStart::After(key.clone()),
            None => crate::model::engine::SegmentStart::Finished,
        }),
        last_evaluated_key: last,
        sent: None,
    }))
}

pub fn state() -> State {
    let mut state = State::new(
        Config::default(),
        Keymap::default(),
        "http://127.0.0.1:8000".into(),
        WIDTH,
        HEIGHT,
    );
    state.session.region = "us-east-1".into();
    state.session.profile = "default".into();
    state.session.profiles = vec!["default".into(), "prod".into(), "sandbox".into()];
    state
}

pub fn press(code: KeyCode) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(code, Modifiers::NONE)))
}

pub fn char(c: char) -> Msg {
    let modifiers = if c.is_ascii_uppercase() {
        Modifiers::SHIFT
    } else {
        Modifiers::NONE
    };
    Msg::Input(InputMsg::Key(Key::new(KeyCode::Char(c), modifiers)))
}

/// Applies messages in order and collects the effects `update` asked for.
pub fn send(s: &mut State, msgs: impl IntoIterator<Item = Msg>) -> Vec<super::msg::Effect> {
    msgs.into_iter()
        .flat_map(|m| super::update::update(s, m))
        .collect()
}

/// Table `app` opened and described; returns the id of its first read (a one-page Scan).
pub fn opened() -> (State, u64) {
    opened_with(demo_info())
}

/// `opened`, with the table described as `info`.
pub fn opened_with(info: crate::model::design::schema::TableInfo) -> (State, u64) {
    use super::msg::Effect;
    let mut s = state();
    let effects = super::update::start(&mut s, Some("app".into()));
    assert!(matches!(effects.as_slice(), [Effect::Tables(TableEffect::Describe(t))] if t == "app"));
    let effects = send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info),
        })],
    );
    let id = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => {
            assert_eq!(spec.operation, Operation::Scan);
            assert_eq!(spec.budget.max_pages, Some(1));
            *id
        }
        other => panic!("expected one StartRead, got {other:?}"),
    };
    (s, id)
}

/// `opened`, with the demo items loaded as one page (`more`: the scan has more pages).
pub fn loaded(more: bool) -> State {
    loaded_with(demo_info(), more)
}

/// `loaded`, with the table described as `info`.
pub fn loaded_with(info: crate::model::design::schema::TableInfo, more: bool) -> State {
    let (mut s, id) = opened_with(info);
    send(&mut s, [page(id, 1, demo_items(), more)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: crate::model::engine::DoneOutcome::Complete,
            elapsed: Duration::from_millis(20),
        })],
    );
    s
}

/// A table shaped like public single-table designs: five GSIs with long names (24 characters,
/// and one longer), a hash-only one, KEYS_ONLY and INCLUDE projections, and counts per index.
pub fn five_index_info() -> crate::model::design::schema::TableInfo {
    use crate::model::design::schema::{
        IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection,
    };
    let key = |name: &str| KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    };
    let index = |name: &str, pk: &str, sk: Option<&str>, projection: &str, items: i64| IndexInfo {
        name: name.into(),
        kind: IndexKind::Gsi,
        keys: KeySchema::simple(key(pk), sk.map(key)),
        projection: Projection {
            projection_type: projection.into(),
            non_key_attributes: if projection == "INCLUDE" {
                vec!["status".into(), "total".into()]
            } else {
                vec![]
            },
        },
        provisioned: None,
        item_count: Some(items),
        size_bytes: Some(items * 310),
    };
    let mut info = demo_info();
    info.indexes = vec![
        index("InvertedIndex", "SK", Some("PK"), "ALL", 420),
        index(
            "gsi4pk-gsi4sk-index",
            "gsi4pk",
            Some("gsi4sk"),
            "KEYS_ONLY",
            120,
        ),
        index(
            "GSI_1_ByTenantAndCreated",
            "GSI_1_PK",
            Some("GSI_1_SK"),
            "INCLUDE",
            300,
        ),
        index(
            "byStatusAndUpdatedAtIndexV2",
            "status",
            Some("updatedAt"),
            "ALL",
            1_000_000,
        ),
        index("ByEmail", "email", None, "KEYS_ONLY", 0),
    ];
    info
}

// Issue 52's `matches` table (the explorer's tests on a multi-attribute GSI).

use crate::model::design::schema::{IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType};
use crate::model::design::schema::{Projection, TableInfo};
use crate::model::item::value::AttrValue;

fn key_attr(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr::new(name, key_type)
}

/// `app` described as issue 52's `matches`: key matchId, the two multi-attribute GSIs.
pub fn matches_info() -> TableInfo {
    let index = |name: &str, keys: KeySchema| IndexInfo {
        name: name.into(),
        kind: IndexKind::Gsi,
        keys,
        projection: Projection {
            projection_type: "ALL".into(),
            non_key_attributes: vec![],
        },
        provisioned: None,
        item_count: Some(8),
        size_bytes: Some(8 * 120),
    };
    let mut info = crate::model::fixtures::demo_info();
    info.keys = KeySchema::simple(key_attr("matchId", KeyType::S), None);
    info.item_count = 8;
    info.size_bytes = 8 * 120;
    let s = |n: &str| key_attr(n, KeyType::S);
    info.indexes = vec![
        index(
            "TournamentRegionIndex",
            KeySchema::new(
                vec![s("tournamentId"), s("region")],
                vec![s("round"), s("bracket"), s("matchId")],
            )
            .unwrap(),
        ),
        index(
            "PlayerMatchHistoryIndex",
            KeySchema::new(vec![s("player1Id")], vec![s("matchDate"), s("round")]).unwrap(),
        ),
    ];
    info
}

fn game(id: &str, tournament: &str, region: &str, round: &str, bracket: &str) -> Item {
    let mut item = Item::new();
    for (name, value) in [
        ("matchId", id),
        ("tournamentId", tournament),
        ("region", region),
        ("round", round),
        ("bracket", bracket),
        ("player1Id", "p1"),
        ("matchDate", "2024-12-01"),
    ] {
        item.insert(name, AttrValue::S(value.into()));
    }
    item
}

/// Eight matches in six partitions, in no key's order (as a Scan returns them).
pub fn matches_items() -> Vec<Item> {
    vec![
        game("m1", "WINTER2024", "EU-WEST", "SEMIFINAL", "UPPER"),
        game("m2", "WINTER2024", "US-EAST", "FINAL", "UPPER"),
        game("m3", "WINTER2024", "EU-WEST", "FINAL", "UPPER"),
        game("m4", "WINTER2024", "EU-WEST", "SEMIFINAL", "LOWER"),
        game("m5", "SPRING2025", "EU-WEST", "FINAL", "UPPER"),
        game("m6", "WINTER2024", "EU-WEST", "SEMI", "UPPER"),
        game("m7", "SPRING2025", "AP-SOUTH", "FINAL", "UPPER"),
        game("m8", "WINTER2024", "AP-SOUTH", "QUARTER", "UPPER"),
    ]
}
