//! What an edit changes, attribute by attribute ([`AttributeEdit`]; what a stream record says
//! changed is `model::stream::Change`); and the three versions side by side when a concurrent
//! write got there first.

use super::condition::same_value;
use crate::item::value::{AttrValue, Item};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttributeEdit {
    Added(String, AttrValue),
    Removed(String, AttrValue),
    /// Old value, new value.
    Changed(String, AttrValue, AttrValue),
}

impl AttributeEdit {
    pub fn name(&self) -> &str {
        match self {
            AttributeEdit::Added(n, _)
            | AttributeEdit::Removed(n, _)
            | AttributeEdit::Changed(n, _, _) => n,
        }
    }
}

/// The attributes `new` adds, removes or changes against `old`, by name. Values are compared
/// as DynamoDB compares them: a reordered set or `1.0` for `1` is no change.
pub fn diff(old: &Item, new: &Item) -> Vec<AttributeEdit> {
    let mut changes = Vec::new();
    for (name, v) in old.iter() {
        match new.get(name) {
            None => changes.push(AttributeEdit::Removed(name.to_string(), v.clone())),
            Some(w) if !same_value(v, w) => changes.push(AttributeEdit::Changed(
                name.to_string(),
                v.clone(),
                w.clone(),
            )),
            Some(_) => {}
        }
    }
    for (name, w) in new.iter() {
        if old.get(name).is_none() {
            changes.push(AttributeEdit::Added(name.to_string(), w.clone()));
        }
    }
    changes.sort_by(|a, b| a.name().cmp(b.name()));
    changes
}

/// One attribute that differs between the loaded item, the one stored now and the user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreeWayRow {
    pub name: String,
    pub loaded: Option<AttrValue>,
    pub current: Option<AttrValue>,
    pub yours: Option<AttrValue>,
}

/// Every attribute on which the three versions do not all agree (`current` is `None` when
/// the item is gone).
pub fn three_way(loaded: &Item, current: Option<&Item>, yours: &Item) -> Vec<ThreeWayRow> {
    let empty = Item::new();
    let current_item = current.unwrap_or(&empty);
    let mut names: Vec<&str> = loaded
        .iter()
        .chain(current_item.iter())
        .chain(yours.iter())
        .map(|(n, _)| n)
        .collect();
    names.sort_unstable();
    names.dedup();
    let agree = |a: Option<&AttrValue>, b: Option<&AttrValue>| match (a, b) {
        (Some(x), Some(y)) => same_value(x, y),
        (None, None) => true,
        _ => false,
    };
    names
        .into_iter()
        .filter_map(|name| {
            let (l, c, y) = (loaded.get(name), current_item.get(name), yours.get(name));
            (!(agree(l, c) && agree(c, y))).then(|| ThreeWayRow {
                name: name.to_string(),
                loaded: l.cloned(),
                current: c.cloned(),
                yours: y.cloned(),
            })
        })
        .collect()
}

/// The user's changes (from `loaded` to `yours`) applied to the item as it is now: what
/// re-applying an edit after a conflict writes. Another writer's changes to attributes the
/// user did not touch survive; on the attributes both changed, the user's value wins. `None`
/// when `yours` is a delete.
pub fn rebase(loaded: Option<&Item>, yours: Option<&Item>, current: Option<&Item>) -> Option<Item> {
    let yours = yours?;
    let empty = Item::new();
    let mut attrs: Vec<(String, AttrValue)> = current.unwrap_or(&empty).clone().into_attrs();
    for change in diff(loaded.unwrap_or(&empty), yours) {
        match change {
            AttributeEdit::Added(name, v) | AttributeEdit::Changed(name, _, v) => {
                attrs.retain(|(n, _)| *n != name);
                attrs.push((name, v));
            }
            AttributeEdit::Removed(name, _) => attrs.retain(|(n, _)| *n != name),
        }
    }
    Some(Item::from_attrs(attrs))
}
