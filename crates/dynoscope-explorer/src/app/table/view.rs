//! One view of an open table: the items a read loaded and how they are shown (cursors,
//! filter, columns, detail, marks), with the read that feeds them. A new read gets a new
//! `View` ([`View::next`]); the one left is kept for going back, as it was.

use super::{JsonMode, Marks, Pane, Related};
use crate::app::columns::ItemColumns;
use crate::app::state::{ListCursor, ReadState, ScanProgress};
use crate::model::design::collection::{DisplayOrder, ItemId, ItemStore};

#[derive(Debug, Clone)]
pub struct View {
    /// Reads go to this index (`None`: the table itself).
    pub index: Option<String>,
    pub store: Option<ItemStore>,
    pub read: Option<ReadState>,
    pub focus: Pane,
    pub collections: ListCursor,
    pub items: ListCursor,
    /// The items pane's part and attribute columns for the selected collection.
    pub columns: ItemColumns,
    /// Non-key columns scrolled off to the left in the items pane.
    pub column_offset: usize,
    pub detail_open: bool,
    /// Rows scrolled off the top of the item detail (wrapped rows when `detail_wrap`).
    pub detail_scroll: usize,
    /// Long lines wrap (`w` switches to scrolling them sideways).
    pub detail_wrap: bool,
    /// Columns scrolled off the left of the item detail when it does not wrap.
    pub detail_hscroll: usize,
    pub json_mode: JsonMode,
    /// Applied filter over loaded items (case-insensitive substring of keys, strings and the
    /// text of numbers).
    pub filter: String,
    /// Collections (by position) that match `filter`; `None` when there is no filter.
    pub filtered_collections: Option<Vec<usize>>,
    /// Items of the selected collection that match `filter`; `None` when there is no filter.
    pub filtered_items: Option<Vec<ItemId>>,
    /// Per-segment progress of the scan started from the launcher.
    pub progress: Option<ScanProgress>,
    /// Items read but not kept because the store reached `State::max_items`.
    pub dropped_items: u64,
    /// The selected item's related collections (`g r` opens the selected one).
    pub related: Related,
    /// The collections' order (`o`: first seen, key, items, bytes).
    pub ordering: DisplayOrder,
    /// Issue 13: marked items.
    pub marks: Marks,
}

impl Default for View {
    fn default() -> Self {
        View {
            index: None,
            store: None,
            read: None,
            focus: Pane::Collections,
            collections: ListCursor::default(),
            items: ListCursor::default(),
            columns: ItemColumns::default(),
            column_offset: 0,
            detail_open: false,
            detail_scroll: 0,
            detail_wrap: true,
            detail_hscroll: 0,
            json_mode: JsonMode::Plain,
            filter: String::new(),
            filtered_collections: None,
            filtered_items: None,
            progress: None,
            dropped_items: 0,
            related: Related::default(),
            ordering: DisplayOrder::default(),
            marks: Marks::default(),
        }
    }
}

impl View {
    /// The view a new read starts in: the same index, JSON spelling, wrapping and collection
    /// order; nothing loaded, nothing selected.
    pub fn next(&self) -> View {
        View {
            index: self.index.clone(),
            json_mode: self.json_mode,
            detail_wrap: self.detail_wrap,
            ordering: DisplayOrder::new(self.ordering.order()),
            ..View::default()
        }
    }

    pub fn collection_count(&self) -> usize {
        match (&self.filtered_collections, &self.store) {
            (Some(f), _) => f.len(),
            (None, Some(store)) => store.collections().len(),
            (None, None) => 0,
        }
    }

    /// Position in the store's collections of the n-th visible collection.
    pub fn collection_at(&self, n: usize) -> Option<usize> {
        match &self.filtered_collections {
            Some(f) => f.get(n).copied(),
            None => self.ordering.at(n, self.collection_count()),
        }
    }

    pub fn selected_collection(&self) -> Option<usize> {
        self.collection_at(self.collections.cursor)
    }

    pub fn item_count(&self) -> usize {
        if let Some(f) = &self.filtered_items {
            return f.len();
        }
        match (self.selected_collection(), &self.store) {
            (Some(c), Some(store)) => store.collections()[c].items.len(),
            _ => 0,
        }
    }

    pub fn item_at(&self, n: usize) -> Option<ItemId> {
        if let Some(f) = &self.filtered_items {
            return f.get(n).copied();
        }
        let store = self.store.as_ref()?;
        store.collections()[self.selected_collection()?]
            .items
            .get(n)
            .copied()
    }

    pub fn selected_item(&self) -> Option<ItemId> {
        self.item_at(self.items.cursor)
    }

    /// Every item the items pane lists: the selected collection's, or its filtered ones.
    pub fn listed_items(&self) -> Vec<ItemId> {
        (0..self.item_count())
            .filter_map(|n| self.item_at(n))
            .collect()
    }
}
