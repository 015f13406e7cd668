//! Columns chosen by hand (`C`), as an override of the automatic ones (`app::columns`): per
//! endpoint, table, index and, where the listed items are all of one decoded kind, per kind.
//! Remembered in the state folder (`columns.json`, written by `tui::column_store`); this module
//! is pure: the choices in memory, which one applies to what is listed, and how it changes the
//! automatic columns.
//!
//! A choice is an order and a hidden set, not a fixed list: the attributes it orders come first
//! in its order, the ones it hides are left out, and an attribute it never saw (a new one, or
//! one only other collections have) keeps its automatic place after them. So a choice made on
//! one collection reads sensibly on every other one of the table.

pub mod chooser;
pub mod file;
pub mod keys;

use std::collections::{HashMap, HashSet};

use crate::app::columns::{ItemColumns, ATTRIBUTE_SAMPLE};
use crate::app::state::View;

pub use chooser::{ChooserRow, ColumnChooser};

/// Whose columns a choice is: one endpoint's table or index, and one entity kind or all.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ColumnScope {
    pub endpoint: String,
    pub table: String,
    /// `None`: the table itself.
    pub index: Option<String>,
    /// `None`: every kind (the choice of a collection of several kinds, or of none).
    pub kind: Option<String>,
}

/// The attribute columns in the order chosen, and the ones hidden.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ColumnChoice {
    /// Attributes in the order they are shown, the hidden ones among them where they were.
    pub order: Vec<String>,
    pub hidden: Vec<String>,
}

/// Every choice made, as read from the state folder and changed since.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ColumnChoices {
    pub book: HashMap<ColumnScope, ColumnChoice>,
    /// The file was read (or there is none): until then every table has automatic columns.
    pub loaded: bool,
}

impl ColumnChoices {
    /// The choice for `scope`: its kind's own, else the one made for every kind.
    pub fn for_scope(&self, scope: &ColumnScope) -> Option<&ColumnChoice> {
        self.book.get(scope).or_else(|| {
            scope.kind.as_ref()?;
            self.book.get(&ColumnScope {
                kind: None,
                ..scope.clone()
            })
        })
    }
}

/// The scope of what `view` lists in table `table` at `endpoint`: its kind when every item
/// the columns are chosen from has that one decoded kind, else every kind.
pub fn view_scope(endpoint: &str, table: &str, view: &View) -> ColumnScope {
    ColumnScope {
        endpoint: endpoint.to_owned(),
        table: table.to_owned(),
        index: view.index.clone(),
        kind: shared_kind(view),
    }
}

/// The one kind of the first [`ATTRIBUTE_SAMPLE`] items listed, if they share one.
fn shared_kind(view: &View) -> Option<String> {
    let store = view.store.as_ref()?;
    let mut shared: Option<&str> = None;
    for n in 0..view.item_count().min(ATTRIBUTE_SAMPLE) {
        let kind = store.kind_of(view.item_at(n)?)?;
        match shared {
            Some(seen) if seen != kind => return None,
            _ => shared = Some(kind),
        }
    }
    shared.map(str::to_owned)
}

/// The automatic `columns` with `choice` over them (see the module's note). The attributes a
/// part column stands for (`left_out`) show only where the choice shows them; `hidden` counts
/// the automatic columns the choice hides.
pub fn apply(columns: &mut ItemColumns, choice: &ColumnChoice) {
    let hidden: HashSet<&str> = choice.hidden.iter().map(String::as_str).collect();
    let ordered: HashSet<&str> = choice.order.iter().map(String::as_str).collect();
    let present: HashSet<&str> = columns
        .attrs
        .iter()
        .chain(&columns.left_out)
        .map(String::as_str)
        .collect();
    let mut attrs: Vec<String> = Vec::with_capacity(columns.attrs.len());
    let mut seen: HashSet<&str> = HashSet::new();
    for name in &choice.order {
        let name = name.as_str();
        if present.contains(name) && !hidden.contains(name) && seen.insert(name) {
            attrs.push(name.to_owned());
        }
    }
    for name in &columns.attrs {
        if !ordered.contains(name.as_str()) && !hidden.contains(name.as_str()) {
            attrs.push(name.clone());
        }
    }
    // What a part column shows is not counted: hiding it hides nothing the pane had.
    columns.hidden = columns
        .attrs
        .iter()
        .filter(|n| hidden.contains(n.as_str()))
        .count();
    columns.attrs = attrs;
}

#[cfg(test)]
#[path = "column_choice_tests.rs"]
mod tests;
