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
