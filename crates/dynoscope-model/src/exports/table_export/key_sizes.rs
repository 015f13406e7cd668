//! What `hotkeys --export` takes from each item: its key text and DynamoDB size, for the table
//! or for an index read from the table's items. [`tally_of_item`] is the definition, from a
//! whole [`Item`]; the size-and-key pass (`dynamo_json_sizes.rs`) gives the same answer from a
//! line's text, or none, and then the caller reads the line fully and asks this.

use crate::item::item_size::{attribute_size, item_size};
use crate::item::value::Item;
use crate::traffic::distribution::key_text;

/// Which attributes a count reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizePlan {
    /// The attribute whose text is the key counted.
    pub key: String,
    /// Attributes an item must have to be counted at all: an index's keys (indexes are sparse).
    pub required: Vec<String>,
    /// The attributes whose sizes count (an index's projection); `None` for all of them.
    pub keep: Option<Vec<String>>,
}

impl SizePlan {
    /// The table's own items: every item, every attribute.
    pub fn table(key: &str) -> Self {
        SizePlan {
            key: key.to_string(),
            required: Vec::new(),
            keep: None,
        }
    }

    /// Whether attribute `name` is part of the item counted.
    pub fn keeps(&self, name: &str) -> bool {
        self.keep
            .as_ref()
            .is_none_or(|keep| keep.iter().any(|k| k == name))
    }
}

/// One item, as a count sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    /// Counted with this DynamoDB size; its key text was appended to the caller's buffer.
    Counted { bytes: usize },
    /// Not in the index read (it lacks one of the plan's required attributes).
    Skipped,
}

/// The definition: `item` as the index view keeps it, sized by `item_size`, keyed by
/// `key_text`. The key text is appended to `key_out`.
pub fn tally_of_item(item: &Item, plan: &SizePlan, key_out: &mut String) -> Tally {
    if !plan.required.iter().all(|k| item.get(k).is_some()) {
        return Tally::Skipped;
    }
    let bytes = match &plan.keep {
        None => item_size(item),
        Some(_) => item
            .iter()
            .filter(|(name, _)| plan.keeps(name))
            .map(|(name, value)| attribute_size(name, value))
            .sum(),
    };
    // The key of the item as the view keeps it.
    let empty = Item::new();
    let shown = if plan.keeps(&plan.key) { item } else { &empty };
    key_out.push_str(&key_text(shown, &plan.key));
    Tally::Counted { bytes }
}
