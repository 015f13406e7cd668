//! One open table: its description, the loaded items, the view over them and the one dialog
//! open ([`super::Modal`]).

use super::{
    ExportJob, ListCursor, LiveView, Loadable, Marks, ReadState, Related, ScanProgress, Visited,
};
use crate::app::columns::ItemColumns;
use crate::model::collection::{DisplayOrder, ItemId, ItemStore};
use crate::model::part_names::KindPartNames;
use crate::model::relations::KeyKnowledge;
use crate::model::schema::{KeySchema, TableInfo};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Collections,
    Items,
    /// The related collections listed above the item detail.
    Related,
    Detail,
    /// The request log (Enter shows a request as sent).
    Log,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    Plain,
    Dynamo,
}

/// A one-line text prompt (filter, partition key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    /// Why the last submission was refused, shown under the prompt.
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
pub struct TableView {
    pub name: String,
    pub info: Loadable<TableInfo>,
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
    /// The one dialog open over the table, if any.
    pub modal: Option<super::Modal>,
    /// Per-segment progress of the scan started from the launcher.
    pub progress: Option<ScanProgress>,
    /// The live pane (`W`): the table's writes from its stream.
    pub live: Option<LiveView>,
    /// Items read but not kept because the store reached `State::max_items`.
    pub dropped_items: u64,
    /// The selected item's related collections (`g r` opens the selected one).
    pub related: Related,
    /// What every page read in this table taught about its collections, for `related`.
    pub knowledge: KeyKnowledge,
    /// Each kind's key-part names, learnt from the most items of it any read held.
    pub part_names: KindPartNames,
    /// Views left for another collection, newest last (Backspace returns).
    pub visited: Visited,
    /// The collections' order (`o`: first seen, key, items, bytes).
    pub ordering: DisplayOrder,
    /// Issue 13: marked items, the export dialog and the export under way.
    pub marks: Marks,
    pub export_job: Option<ExportJob>,
    /// What `U` can undo (the write under way is `Modal::Write`).
    pub undo: Vec<super::UndoEntry>,
}

impl TableView {
    pub fn new(name: String, info: Loadable<TableInfo>) -> Self {
        TableView {
            name,
            info,
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
            modal: None,
            progress: None,
            live: None,
            dropped_items: 0,
            related: Related::default(),
            knowledge: KeyKnowledge::default(),
            part_names: KindPartNames::default(),
            visited: Visited::default(),
            ordering: DisplayOrder::default(),
            marks: Marks::default(),
            export_job: None,
            undo: Vec::new(),
        }
    }

    /// Keys of whatever reads go to: the table or the chosen index.
    pub fn read_keys(&self) -> Option<&KeySchema> {
        self.info.loaded()?.keys_for(self.index.as_deref())
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
