//! A full export's `{"Item":{…}}` line read straight into an [`Item`] by the strict reading of
//! `model::formats::json::direct`, without the `serde_json::Value` tree in between: reading an export is
//! parsing and little else, and the tree doubled the allocations per attribute (half the time
//! of `hotkeys --export` went to malloc and free). The general reader in `dynamo_json.rs` stays
//! the definition: this one accepts only lines it reads exactly as that one does, and says
//! `None` for anything else (any error, a duplicate field, a second type descriptor), so the
//! caller asks the general reader, which gives the result or the error it always gave.

use serde::Deserialize;

use crate::formats::json::direct::DirectItem;
use crate::item::value::Item;

/// The item of a full export's line, or `None` when the general reader must decide.
pub(super) fn item_of_full_line(line: &str) -> Option<Item> {
    #[derive(Deserialize)]
    struct FullLine {
        #[serde(rename = "Item")]
        item: Option<DirectItem<false>>,
    }
    let parsed: FullLine = serde_json::from_str(line).ok()?;
    parsed.item.map(|i| i.0)
}
