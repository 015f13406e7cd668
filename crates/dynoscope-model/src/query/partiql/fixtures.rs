//! The demo's shape: PK/SK, GSI1 (GSI1PK/GSI1SK, all attributes), LSI1 (numeric).

use crate::design::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo,
};

pub fn key(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr {
        name: name.into(),
        key_type,
    }
}

pub fn app() -> TableInfo {
    let index = |name: &str, kind, pk: KeyAttr, sk: KeyAttr| IndexInfo {
        name: name.into(),
        kind,
        keys: KeySchema::simple(pk, Some(sk)),
        projection: Projection {
            projection_type: "ALL".into(),
            non_key_attributes: Vec::new(),
        },
        provisioned: None,
        item_count: Some(300),
        size_bytes: Some(40_000),
    };
    TableInfo {
        name: "app".into(),
        status: "ACTIVE".into(),
        keys: KeySchema::simple(key("PK", KeyType::S), Some(key("SK", KeyType::S))),
        indexes: vec![
            index(
                "GSI1",
                IndexKind::Gsi,
                key("GSI1PK", KeyType::S),
                key("GSI1SK", KeyType::S),
            ),
            index(
                "LSI1",
                IndexKind::Lsi,
                key("PK", KeyType::S),
                key("total", KeyType::N),
            ),
        ],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: 420,
        size_bytes: 65_100,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

/// The demo's shape with the issue's `TournamentRegionIndex`: partition `tournamentId` +
/// `region`, sort `round` + `bracket`.
pub fn matches() -> TableInfo {
    let mut info = app();
    let keys = KeySchema::new(
        vec![key("tournamentId", KeyType::S), key("region", KeyType::S)],
        vec![key("round", KeyType::S), key("bracket", KeyType::S)],
    )
    .unwrap();
    info.indexes
        .push(IndexInfo::gsi_projecting_all("TournamentRegionIndex", keys));
    info
}
