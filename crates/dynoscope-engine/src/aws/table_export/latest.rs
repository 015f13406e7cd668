//! What the table view shows of an incremental export: the newest image of every key written
//! in its window (a key whose last write deleted it is left out). These are items as they
//! stood at the window's end, but only those written in it: not the whole table, which the
//! title says.

use std::collections::HashMap;

use super::changes::read_changes_in_order;
use super::OpenedExport;
use crate::model::exports::table_export::IntegrityReport;
use crate::model::item::value::Item;

/// The newest image of each key, in the order each key was first written, and the files'
/// reports. Blocks (S3 reads): run it on a blocking thread.
pub(super) fn latest_images(
    export: &OpenedExport,
    keep_going: impl Fn() -> bool,
) -> (Vec<Item>, IntegrityReport) {
    let (changes, report) = read_changes_in_order(export, keep_going);
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut newest: Vec<Option<Item>> = Vec::new();
    for change in changes {
        let key = key_text(&change.keys);
        let image = change.new_image;
        match at.get(&key) {
            Some(&i) => newest[i] = image,
            None => {
                at.insert(key, newest.len());
                newest.push(image);
            }
        }
    }
    (newest.into_iter().flatten().collect(), report)
}

/// A key's attributes as one string, the same whatever order the change lists them in.
fn key_text(keys: &Item) -> String {
    let mut parts: Vec<String> = keys.iter().map(|(n, v)| format!("{n}={v:?}")).collect();
    parts.sort();
    parts.join("\u{0}")
}
