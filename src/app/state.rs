//! Everything the explorer shows, as plain data. `update` changes it; `ui` only reads it.

use std::collections::HashMap;

use crate::aws::{Operation, ReadProgress, ReadSpec};
use crate::model::collection::{ItemId, ItemStore};
use crate::model::schema::{KeySchema, TableInfo};

use super::builder::{Builder, HistoryEntry};
use super::config::Config;
use super::keymap::Keymap;
use super::request_log::RequestLog;
use super::scan_launcher::{DistributionView, ScanLauncher, ScanProgress};
use crate::model::access_pattern::AccessPattern;

/// Something fetched in the background.
#[derive(Debug, Clone, PartialEq)]
pub enum Loadable<T> {
    Loading,
    Loaded(T),
    Failed(String),
}

impl<T> Loadable<T> {
    pub fn loaded(&self) -> Option<&T> {
        match self {
            Loadable::Loaded(v) => Some(v),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Picker,
    Table,
}

/// A cursor in a scrolling list, with the first visible row. The offset is kept in state
/// (adjusted by `update` with the pane height) so drawing never has to mutate anything.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListCursor {
    pub cursor: usize,
    pub offset: usize,
}

impl ListCursor {
    /// Moves by `delta` rows within `len`, keeping the cursor inside a window of `height` rows.
    pub fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        let target = (self.cursor as isize).saturating_add(delta);
        self.cursor = target.clamp(0, len as isize - 1) as usize;
        self.keep_visible(len, height);
    }

    pub fn jump(&mut self, index: usize, len: usize, height: usize) {
        self.cursor = 0;
        self.offset = 0;
        self.move_by(index as isize, len, height);
    }

    pub fn keep_visible(&mut self, len: usize, height: usize) {
        let height = height.max(1);
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        self.cursor = self.cursor.min(len - 1);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + height {
            self.offset = self.cursor + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picker {
    pub tables: Option<Loadable<Vec<String>>>,
    pub filter: String,
    pub list: ListCursor,
    pub describes: HashMap<String, Loadable<TableInfo>>,
}

impl Picker {
    /// Tables matching the filter (case-insensitive substring), in ListTables order.
    pub fn visible(&self) -> Vec<&str> {
        let Some(Loadable::Loaded(tables)) = &self.tables else {
            return Vec::new();
        };
        let needle = self.filter.to_lowercase();
        tables
            .iter()
            .filter(|t| needle.is_empty() || t.to_lowercase().contains(&needle))
            .map(String::as_str)
            .collect()
    }

    pub fn highlighted(&self) -> Option<String> {
        self.visible().get(self.list.cursor).map(|s| s.to_string())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Collections,
    Items,
    Detail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    Plain,
    Dynamo,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ReadOutcome {
    Complete,
    /// `limit` items were loaded; `n` loads the next `limit`.
    LimitReached,
    /// The capacity budget stopped the read: it resumes only with a new budget.
    BudgetReached {
        spent: f64,
        budget: f64,
    },
    Cancelled,
    Failed(String),
}

/// The read feeding the item store: a Scan or a Query (all shards of a write-sharded one),
/// loaded page by page on demand.
#[derive(Debug, Clone)]
pub struct ReadState {
    pub id: u64,
    /// The read as it was started; continuing it sends this again from `progress`.
    pub spec: ReadSpec,
    pub running: bool,
    /// Keep loading until the end (`load_all`) instead of one page per request.
    pub continuous: bool,
    pub outcome: Option<ReadOutcome>,
    /// Where each segment continues, from the pages delivered so far.
    pub progress: ReadProgress,
    pub pages: u64,
    /// Capacity consumed by this read and the reads it continued.
    pub spent_rcu: f64,
}

impl ReadState {
    pub fn new(id: u64, spec: ReadSpec, spent_rcu: f64) -> Self {
        ReadState {
            id,
            progress: ReadProgress::new(&spec),
            spec,
            running: true,
            continuous: false,
            outcome: None,
            pages: 0,
            spent_rcu,
        }
    }

    pub fn has_more(&self) -> bool {
        self.progress.has_more()
    }

    pub fn operation(&self) -> Operation {
        self.spec.operation
    }
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
    /// Non-key columns scrolled off to the left in the items pane.
    pub column_offset: usize,
    pub detail_open: bool,
    pub detail_scroll: usize,
    pub json_mode: JsonMode,
    /// Applied filter over loaded items (case-insensitive substring of keys and strings).
    pub filter: String,
    /// Collections (by position) that match `filter`; `None` when there is no filter.
    pub filtered_collections: Option<Vec<usize>>,
    /// Items of the selected collection that match `filter`; `None` when there is no filter.
    pub filtered_items: Option<Vec<ItemId>>,
    pub filter_prompt: Option<Prompt>,
    pub pk_prompt: Option<Prompt>,
    /// Asks for a new capacity budget before a budgeted read resumes.
    pub budget_prompt: Option<Prompt>,
    pub builder: Option<Builder>,
    pub palette: Option<Palette>,
    pub launcher: Option<ScanLauncher>,
    /// Per-segment progress of the scan started from the launcher.
    pub progress: Option<ScanProgress>,
    pub distribution: Option<DistributionView>,
    /// Items read but not kept because the store reached `State::max_items`.
    pub dropped_items: u64,
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
            column_offset: 0,
            detail_open: false,
            detail_scroll: 0,
            json_mode: JsonMode::Plain,
            filter: String::new(),
            filtered_collections: None,
            filtered_items: None,
            filter_prompt: None,
            pk_prompt: None,
            budget_prompt: None,
            builder: None,
            palette: None,
            launcher: None,
            progress: None,
            distribution: None,
            dropped_items: 0,
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
            None => (n < self.collection_count()).then_some(n),
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
}

/// The access-pattern palette: the table's patterns, then a form for the chosen one's
/// parameters.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    /// Positions in `State::patterns` of this table's patterns.
    pub entries: Vec<usize>,
    pub list: ListCursor,
    pub form: Option<ParamForm>,
}

#[derive(Debug, Clone)]
pub struct ParamForm {
    pub pattern: usize,
    pub params: Vec<(String, ratatui_textarea::TextArea<'static>)>,
    pub focus: usize,
    pub error: Option<String>,
    pub completion: Vec<String>,
    pub selected: usize,
}

/// A transient line in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

#[derive(Debug, Clone)]
pub struct State {
    pub screen: Screen,
    pub picker: Picker,
    pub table: Option<TableView>,
    pub log: RequestLog,
    pub keymap: Keymap,
    pub config: Config,
    pub endpoint: String,
    pub show_help: bool,
    pub notice: Option<Notice>,
    /// Terminal size, for the layout `update` needs (page sizes, keeping cursors visible).
    pub width: u16,
    pub height: u16,
    pub next_request_id: u64,
    /// Milliseconds since the explorer started, from `Msg::Tick`; rates and ETAs use it.
    pub clock_ms: u64,
    /// Items the explorer keeps at most (`--max-items`, the config's `max_items`, or sized to
    /// available memory).
    pub max_items: usize,
    /// Query history per table, newest last.
    pub history: HashMap<String, Vec<HistoryEntry>>,
    pub patterns: Vec<AccessPattern>,
    pub quit: bool,
}

impl State {
    pub fn new(config: Config, keymap: Keymap, endpoint: String, width: u16, height: u16) -> Self {
        State {
            screen: Screen::Picker,
            picker: Picker::default(),
            table: None,
            log: RequestLog::default(),
            keymap,
            config,
            endpoint,
            show_help: false,
            notice: None,
            width,
            height,
            next_request_id: 1,
            clock_ms: 0,
            max_items: usize::MAX,
            history: HashMap::new(),
            patterns: Vec::new(),
            quit: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_stays_in_window_and_range() {
        let mut c = ListCursor::default();
        c.move_by(5, 10, 3);
        assert_eq!((c.cursor, c.offset), (5, 3));
        c.move_by(100, 10, 3);
        assert_eq!((c.cursor, c.offset), (9, 7));
        c.move_by(-8, 10, 3);
        assert_eq!((c.cursor, c.offset), (1, 1));
        c.move_by(-5, 10, 3);
        assert_eq!((c.cursor, c.offset), (0, 0));
        c.move_by(1, 0, 3);
        assert_eq!(c, ListCursor::default());
        let mut shrink = ListCursor {
            cursor: 8,
            offset: 6,
        };
        shrink.keep_visible(4, 3);
        assert_eq!((shrink.cursor, shrink.offset), (3, 1));
    }
}
