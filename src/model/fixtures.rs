//! Test fixtures of the domain itself, shared with the layers above (`app::fixtures` reuses
//! them) so there is one demo-shaped table, and model tests never name a higher layer.

use crate::model::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType, Projection, TableInfo,
};

fn key(name: &str) -> KeyAttr {
    KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    }
}

/// The demo table `app` as DescribeTable reports it: `PK`/`SK` and one GSI, `GSI1`.
pub fn demo_info() -> TableInfo {
    TableInfo {
        name: "app".into(),
        status: "ACTIVE".into(),
        keys: KeySchema {
            partition_key: key("PK"),
            sort_key: Some(key("SK")),
        },
        indexes: vec![IndexInfo {
            name: "GSI1".into(),
            kind: IndexKind::Gsi,
            keys: KeySchema {
                partition_key: key("GSI1PK"),
                sort_key: Some(key("GSI1SK")),
            },
            projection: Projection {
                projection_type: "ALL".into(),
                non_key_attributes: vec![],
            },
            provisioned: None,
            item_count: Some(10),
            size_bytes: Some(1000),
        }],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: 420,
        size_bytes: 65_000,
        ttl_attribute: Some("expiresAt".into()),
        stream: None,
    }
}
