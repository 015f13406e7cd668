//! Test fixtures of the domain itself, shared with the layers above (`app::fixtures` reuses
//! them) so there is one demo-shaped table, and model tests never name a higher layer.

use crate::demo::demo_data::stream_table_info;
use crate::design::schema::TableInfo;
use crate::item::value::{AttrValue, Item};

/// An item of string attributes: `string_item(&[("PK", "USER#1"), ("SK", "PROFILE")])`.
pub fn string_item(pairs: &[(&str, &str)]) -> Item {
    Item::from_attrs(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), AttrValue::S(v.to_string())))
            .collect(),
    )
}

/// The demo table `app` as DescribeTable reports it: `PK`/`SK` and one GSI, `GSI1`, with
/// counts and a TTL attribute, and no stream.
pub fn demo_info() -> TableInfo {
    let mut info = stream_table_info();
    info.indexes[0].item_count = Some(10);
    info.indexes[0].size_bytes = Some(1000);
    info.item_count = 420;
    info.size_bytes = 65_000;
    info.ttl_attribute = Some("expiresAt".into());
    info.stream = None;
    info
}

/// How many cases a property test runs: `default`, sized so the whole suite fits the CI's ten
/// minutes on two cores (docs/benchmarks.md §17.13), or proptest's own `PROPTEST_CASES` when it
/// is set, which a count written in the test would otherwise override: a deeper run is
/// `PROPTEST_CASES=20000 bash scripts/test.sh`.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(default)
}

/// Issue 52's shapes: `matches` keyed by `matchId`, with `TournamentRegionIndex` (partition
/// `tournamentId` + `region`, sort `round` + `bracket` + `matchId`), `StatusRegionIndex`
/// (partition `status` + `region`, sort `matchDate`) and `StatusPlayerIndex` (partition
/// `status` + `player1Id`, sort `matchDate`): a status enum first, spread or not by the next.
pub fn multi_attribute_info() -> TableInfo {
    use crate::design::schema::{IndexInfo, KeyAttr, KeySchema, KeyType};
    let s = |name: &str| KeyAttr::new(name, KeyType::S);
    let gsi = |name: &str, partition: &[&str], sort: &[&str]| {
        let keys = KeySchema::new(
            partition.iter().map(|n| s(n)).collect(),
            sort.iter().map(|n| s(n)).collect(),
        )
        .expect("a valid key schema");
        IndexInfo::gsi_projecting_all(name, keys)
    };
    let mut info = demo_info();
    info.name = "matches".into();
    info.keys = KeySchema::simple(s("matchId"), None);
    info.item_count = 60;
    info.indexes = vec![
        gsi(
            "TournamentRegionIndex",
            &["tournamentId", "region"],
            &["round", "bracket", "matchId"],
        ),
        gsi("StatusRegionIndex", &["status", "region"], &["matchDate"]),
        gsi(
            "StatusPlayerIndex",
            &["status", "player1Id"],
            &["matchDate"],
        ),
    ];
    info
}
