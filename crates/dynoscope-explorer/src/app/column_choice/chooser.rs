//! The column chooser's state (`C`): every attribute of the loaded items of its scope with how
//! many items have it, shown or hidden, in the order the columns go; and a last entry that
//! goes back to the automatic columns. Nothing changes until Enter.

use std::collections::{HashMap, HashSet};

use super::{ColumnChoice, ColumnScope};
use crate::app::columns::ItemColumns;
use crate::model::design::collection::ItemStore;

/// Items whose attributes the chooser counts at most (the store decodes each one it reads).
pub const COUNT_SAMPLE: usize = 10_000;
/// Attributes the chooser lists at most, the most common first: what a choice can hold.
pub const MAX_ROWS: usize = super::file::MAX_NAMES;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChooserRow {
    pub name: String,
    /// Items of those counted that have the attribute.
    pub count: usize,
    pub shown: bool,
    /// A part column shows its values (it was named after it): hidden unless shown here.
    pub in_part: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnChooser {
    pub scope: ColumnScope,
    /// The columns always shown, first: the kind, the keys and the sort key's parts.
    pub pinned: Vec<String>,
    pub rows: Vec<ChooserRow>,
    /// On a row, or on `rows.len()`: the "automatic columns" entry.
    pub cursor: usize,
    /// Items counted, of `loaded` items of the scope.
    pub counted: usize,
    pub loaded: usize,
    /// Attributes seen past [`MAX_ROWS`], not listed.
    pub unlisted: usize,
}

impl ColumnChooser {
    /// The chooser over `store`'s items of `scope`, starting from the columns shown now
    /// (`columns`, which `choice` made if there is one): those first in their order, then
    /// every other attribute seen, hidden when the choice or a part column hides it, the most
    /// common first.
    pub fn new(
        scope: ColumnScope,
        store: &ItemStore,
        columns: &ItemColumns,
        choice: Option<&ColumnChoice>,
    ) -> ColumnChooser {
        let keys = store.group_keys();
        // Every key attribute is pinned: a multi-attribute index's are all key columns.
        let key_names = keys.names();
        let mut pinned = vec![columns.kind_header.clone()];
        pinned.extend(key_names.iter().cloned());
        pinned.extend(columns.part_names.iter().cloned());
        // The keys and the attribute that names the kind have their pinned columns; an
        // attribute a part column is named after is listed, hidden until shown.
        let mut skip: HashSet<String> = key_names.into_iter().collect();
        let kind = scope.kind.as_deref();
        let mut counts: HashMap<String, usize> = HashMap::new();
        let (mut counted, mut loaded) = (0, 0);
        let ids = store.collections().iter().flat_map(|c| c.items.iter());
        for &id in ids {
            if kind.is_some() && store.kind_of(id) != kind {
                continue;
            }
            loaded += 1;
            if counted == COUNT_SAMPLE {
                continue;
            }
            counted += 1;
            let item = store.item(id);
            if let Some(attribute) = store.kind_attribute(&item) {
                skip.insert(attribute.to_owned());
            }
            for (name, _) in item.iter() {
                *counts.entry(name.to_owned()).or_default() += 1;
            }
        }
        counts.retain(|name, _| !skip.contains(name));
        let hidden: HashSet<&str> = choice
            .map(|c| c.hidden.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let mut rows: Vec<ChooserRow> = columns
            .attrs
            .iter()
            .map(|name| ChooserRow {
                name: name.clone(),
                count: counts.get(name).copied().unwrap_or(0),
                shown: true,
                in_part: false,
            })
            .collect();
        let mut rest: Vec<(&String, &usize)> = counts
            .iter()
            .filter(|(name, _)| !columns.attrs.contains(name))
            .collect();
        rest.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        for (name, &count) in rest {
            let in_part = columns.left_out.contains(name);
            rows.push(ChooserRow {
                name: name.clone(),
                count,
                shown: !hidden.contains(name.as_str()) && !in_part,
                in_part,
            });
        }
        let unlisted = rows.len().saturating_sub(MAX_ROWS);
        rows.truncate(MAX_ROWS);
        ColumnChooser {
            scope,
            pinned,
            rows,
            cursor: 0,
            counted,
            loaded,
            unlisted,
        }
    }

    /// The choice Enter saves: every row in its order, the hidden ones among them.
    pub fn choice(&self) -> ColumnChoice {
        ColumnChoice {
            order: self.rows.iter().map(|r| r.name.clone()).collect(),
            hidden: self
                .rows
                .iter()
                .filter(|r| !r.shown)
                .map(|r| r.name.clone())
                .collect(),
        }
    }

    /// The cursor is on the "automatic columns" entry.
    pub fn on_reset(&self) -> bool {
        self.cursor >= self.rows.len()
    }

    /// Moves the row under the cursor one place up (`-1`) or down (`1`), the cursor with it.
    pub fn move_row(&mut self, delta: isize) {
        let Some(to) = self.cursor.checked_add_signed(delta) else {
            return;
        };
        if self.cursor < self.rows.len() && to < self.rows.len() {
            self.rows.swap(self.cursor, to);
            self.cursor = to;
        }
    }
}
