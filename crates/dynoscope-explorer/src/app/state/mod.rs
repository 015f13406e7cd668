//! Everything the explorer shows, as plain data. `update` changes it; `ui` only reads it.

mod cover;
mod cursor;
mod distribution;
mod explain;
mod index_chooser;
mod layer;
mod log_pane;
mod modal;
mod overlay;
mod palette;
mod pattern_checks;
mod picker;
mod read;
mod scan;
mod scan_progress;
mod session;
mod table_read;

// The writes' state (one item's and bulk) lives with their keys in `app::writes`.
pub use crate::app::writes::{
    explorer_statement, resume_command, BulkChoice, BulkDialog, BulkEnded, BulkField, BulkProgress,
    BulkRecord, BulkRun, BulkStage, UndoEntry, WriteFlow, WriteStage,
};
pub use cover::CoverPane;
pub use cursor::ListCursor;
pub use distribution::{DistributionView, DISTRIBUTION_TOP_KEYS};
pub use explain::aws_cli;
// The export's dialog and job live with its keys in `app::export`.
pub use crate::app::export::*;
pub use index_chooser::{IndexChoice, IndexChooser};
pub use layer::Layer;
// The live pane's state lives with its keys in `app::live`; the binary and the drawing name it
// from here with the rest of what the explorer shows.
pub use crate::app::live::{
    detail_line_count, no_diff_reason, view_note, ChangeDetail, Follow, Frozen, LiveStatus,
    LiveSummary, LiveView, LIVE_TOP_KEYS,
};
pub use log_pane::LogPane;
// The metrics pane's state lives with its keys in `app::metrics`.
pub use crate::app::metrics::{
    InsightsKey, InsightsSection, MetricsPane, MetricsStatus, PANE_PERIOD_SECS, PANE_REFRESH,
    PANE_SINCE_SECS,
};
pub use modal::Modal;
pub use overlay::Overlay;
pub use palette::{Palette, PaletteEntry, PaletteRow, PaletteScope, ParamForm};
pub use pattern_checks::{PatternCheck, PatternChecks};
pub use picker::Picker;
// The query form's state lives with its keys in `app::query_form`; the dialog enum and the
// binary name it from here with the rest of what the explorer shows.
pub use crate::app::query_form::{
    check_partiql, explain_area, Completion, Field, FieldError, HistoryEntry, KeySample,
    LoadedKeys, PartiqlCheck, PartiqlForm, PartiqlReady, PreparedQuery, QueryForm, QueryMemory,
    RawInputs, DIALECT_TABS, HISTORY_PER_TABLE, LOADED_KEYS_LIMIT, SORT_OPS,
};
pub use read::{ReadOrigin, ReadOutcome, ReadState, EXPLORER_PAGE_SIZE};
pub use scan::*;
pub use scan_progress::{ScanProgress, SegmentProgress};
pub use session::{ConnectTarget, ConnectionInfo, Session, SwitchKind, Switcher, SWITCHER_ROWS};
// The table view's state (the open table, its view, marks, related collections, the views kept
// for going back, the `g` chord) lives in `app::table`; the binary, the dialogs and the drawing
// name it from here with the rest of what the explorer shows.
pub use crate::app::table::{
    Chords, CursorsBefore, JsonMode, Marks, OpenTable, Pane, PendingChord, Prompt, Related, View,
    Visited, CHORD_TIMEOUT, MAX_VISITED,
};

use super::config::Config;
use super::keymap::Keymap;
use super::request_log::RequestLog;
use crate::model::design::access_pattern::AccessPattern;

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

/// How much derived view data a message made stale, least first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stale {
    #[default]
    Fresh,
    /// The items pane's columns.
    Columns,
    /// The selected collection's matching items, then the columns.
    Items,
    /// The matching collections, then the items and the columns.
    All,
}

/// Derived view data a message asked to refresh; `update` refreshes it once, after the
/// message.
#[derive(Debug, Clone, Default)]
pub struct Refresh {
    pub stale: Stale,
    /// Put the cursor back on this collection (by position in the store).
    pub follow: Option<usize>,
    /// Keep every cursor on screen.
    pub keep_visible: bool,
}

impl Refresh {
    pub fn ask(&mut self, stale: Stale) {
        self.stale = self.stale.max(stale);
    }
}

/// A transient line in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

/// The explorer session's read guard, and its bulk writes' guard, as given on the command
/// line.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SessionBudget {
    pub max_rcu: Option<f64>,
    pub rcu_per_second: Option<f64>,
    /// `--max-wcu`: the write units the session's bulk runs and undos spend at most, in all.
    pub max_wcu: Option<f64>,
    /// `--wcu-per-second`: their rate, and the preview's time estimate.
    pub wcu_per_second: Option<f64>,
}

impl SessionBudget {
    /// Read units the budget still allows after `spent`; `None` without `--max-rcu`.
    pub fn left(&self, spent: f64) -> Option<f64> {
        self.max_rcu.map(|max| (max - spent).max(0.0))
    }
}

#[derive(Debug, Clone)]
pub struct State {
    pub screen: Screen,
    pub picker: Picker,
    pub table: Option<OpenTable>,
    pub log: RequestLog,
    pub keymap: Keymap,
    pub config: Config,
    pub endpoint: String,
    /// The help, the request as sent or the switcher, over everything (at most one).
    pub overlay: Option<Overlay>,
    pub notice: Option<Notice>,
    /// Terminal size, for the layout `update` needs (page sizes, keeping cursors visible).
    pub width: u16,
    pub height: u16,
    pub next_request_id: u64,
    /// Milliseconds since the explorer started, from `TimeMsg::Tick` (sent while a read runs). Scan
    /// rates do not use it: they come from the engine's own clock.
    pub clock_ms: u64,
    /// Items the explorer keeps at most (`--max-items`, the config's `max_items`, or sized to
    /// available memory).
    pub max_items: usize,
    /// What the query form and the palette keep between openings: history, key samples, the
    /// completion order, the palette's pattern checks.
    pub queries: QueryMemory,
    pub patterns: Vec<AccessPattern>,
    /// `--live`: open the live pane once the table is described.
    pub open_live: bool,
    pub quit: bool,
    /// `g` waiting for its second key (`g r` follows a relation).
    pub chord: Chords,
    /// The request log's height and selected row.
    pub log_pane: LogPane,
    /// Region and profile, and switching them (`R`, `A`).
    pub session: Session,
    /// The explorer's `--max-rcu`/`--rcu-per-second`: the engine admits every read of the
    /// session against them; the state says so before a priced sample would pass the budget.
    pub session_budget: SessionBudget,
    /// A writer exists (`--allow-writes` or the config): the write keys work.
    pub writes_enabled: bool,
    /// Derived view data this message made stale (see `table::derived`).
    pub refresh: Refresh,
    /// What the palette ran this session, the latest first: listed first next time. Kept in
    /// memory only.
    pub recent: Vec<PaletteEntry>,
    /// Columns chosen with `C`, per endpoint, table, index and kind (`app::column_choice`).
    pub column_choices: crate::app::column_choice::ColumnChoices,
}

impl State {
    /// The open table's current view.
    pub fn view(&self) -> Option<&View> {
        self.table.as_ref().map(|t| &t.view)
    }

    /// The open table's description, once DescribeTable has answered (a copy: callers go on
    /// to borrow the table mutably).
    pub fn table_info(&self) -> Option<crate::model::design::schema::TableInfo> {
        self.table.as_ref()?.info.loaded().cloned()
    }

    pub fn view_mut(&mut self) -> Option<&mut View> {
        self.table.as_mut().map(|t| &mut t.view)
    }

    pub fn new(config: Config, keymap: Keymap, endpoint: String, width: u16, height: u16) -> Self {
        State {
            screen: Screen::Picker,
            picker: Picker::default(),
            table: None,
            log: RequestLog::default(),
            keymap,
            config,
            endpoint,
            overlay: None,
            notice: None,
            width,
            height,
            next_request_id: 1,
            clock_ms: 0,
            max_items: usize::MAX,
            queries: QueryMemory::default(),
            patterns: Vec::new(),
            open_live: false,
            quit: false,
            chord: Chords::default(),
            log_pane: LogPane::default(),
            session: Session::default(),
            session_budget: SessionBudget::default(),
            writes_enabled: false,
            refresh: Refresh::default(),
            recent: Vec::new(),
            column_choices: Default::default(),
        }
    }
}
