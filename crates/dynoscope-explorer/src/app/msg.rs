//! What `update` consumes (`Msg`) and what it asks the terminal loop to do (`Effect`,
//! grouped by concern in `app::effect`).

use crate::app::input::{Key, Mouse};

use crate::model::design::schema::TableInfo;
use crate::model::engine::stream::StreamEvent;
use crate::model::engine::write::WriteResult;
use crate::model::engine::EngineEvent;
use crate::model::engine::FeatureError;
use crate::model::stream::{Timeline, ViewType};

/// What `update` consumes, grouped by concern (the terminal's input, the engine's read
/// events, the table list, the live stream, the exports, the writes, the session, the files,
/// the clock and timers).
#[derive(Debug, Clone)]
pub enum Msg {
    Input(InputMsg),
    /// A read's pages and end, from the engine.
    Engine(EngineEvent),
    Tables(TableMsg),
    /// What the stream `LiveEffect::Start { id, .. }` started sends back.
    Stream {
        id: u64,
        event: StreamMsg,
    },
    /// What `MetricsEffect::Fetch { id, .. }` brought back.
    Metrics {
        id: u64,
        result: Result<crate::model::traffic::metrics::report::MetricsReport, FeatureError>,
    },
    /// What `MetricsEffect::Insights { id, .. }` brought back: the targets described, and
    /// each call denied or failed on the way (each costs only its part).
    Insights {
        id: u64,
        found: Vec<crate::model::traffic::insights::TargetInsights>,
        problems: Vec<FeatureError>,
    },
    /// What `ReadEffect::CheckPattern` found for `pattern` of `table`.
    PatternChecked {
        table: String,
        pattern: String,
        result: Result<Box<crate::model::design::pattern_check::PatternReport>, String>,
        /// What every request of the check consumed, samples and calls, whole or cut short.
        spent_rcu: f64,
        /// Esc stopped it.
        stopped: bool,
    },
    Export(ExportMsg),
    Write(WriteMsg),
    Bulk(BulkMsg),
    Session(SessionMsg),
    Files(FileMsg),
    Time(TimeMsg),
}

/// The terminal's events.
#[derive(Debug, Clone)]
pub enum InputMsg {
    Key(Key),
    Mouse(Mouse),
    Paste(String),
    Resize(u16, u16),
}

/// The table list and descriptions.
// A description comes once per table opened: boxing it would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum TableMsg {
    Listed(Result<Vec<String>, String>),
    Described {
        table: String,
        result: Result<TableInfo, String>,
    },
}

/// Exports under way (issue 13).
#[derive(Debug, Clone)]
pub enum ExportMsg {
    Progress {
        job: u64,
        items: u64,
        bytes: u64,
    },
    Done {
        job: u64,
        result: Result<ExportSummary, String>,
    },
}

/// Writes (issue 13).
#[derive(Debug, Clone)]
pub enum WriteMsg {
    /// The editor closed: the file's text, or why there is none.
    Edited {
        edit: u64,
        result: Result<String, String>,
    },
    Written {
        write: u64,
        result: WriteResult,
    },
}

/// A bulk run's (or undo's) news, in order: `Started` (a run's journal is on disk), then
/// `Item` and `Progress` as items end, then one `Done`.
#[derive(Debug, Clone)]
pub enum BulkMsg {
    Started {
        run: u64,
        journal: String,
    },
    Progress {
        run: u64,
        progress: crate::app::state::BulkProgress,
    },
    /// Items (by index into the effect's `items`) that ended, in order. The runner sends them
    /// in batches of at most a tenth of a second, so a run of thousands of items over a large
    /// loaded table re-filters the view a few times a second, not once an item.
    Items {
        run: u64,
        outcomes: Vec<(usize, BulkOutcome)>,
    },
    Done {
        run: u64,
        progress: crate::app::state::BulkProgress,
        ended: crate::app::state::BulkEnded,
    },
}

/// How one item of a bulk run ended (an unchanged item sends nothing).
#[derive(Debug, Clone, PartialEq)]
pub enum BulkOutcome {
    Written,
    /// It changed since it was read and was left alone: as it is now (`None`: gone).
    Conflict(Option<crate::model::item::value::Item>),
    Failed(String),
}

/// The connection.
#[derive(Debug, Clone)]
pub enum SessionMsg {
    /// A connection asked for with `SessionEffect::Connect` is ready (its engine waits in the
    /// runner until `SessionEffect::UseConnection`), or failed.
    Connected {
        generation: u64,
        result: Result<crate::app::state::ConnectionInfo, String>,
    },
}

/// Answers from the local file system.
#[derive(Debug, Clone)]
pub enum FileMsg {
    /// Directories that complete `path` (each ending in `/`).
    PathCompletions { path: String, dirs: Vec<String> },
    /// Whether the export's file exists already (`Ok(true)`), or why it cannot be written.
    ExportPathChecked {
        job: u64,
        result: Result<bool, String>,
    },
    /// The column choices file's choices, or the one warning line saying why it was not read.
    ColumnsLoaded(
        Result<
            std::collections::HashMap<
                crate::app::column_choice::ColumnScope,
                crate::app::column_choice::ColumnChoice,
            >,
            String,
        >,
    ),
    /// A column choice was not written: why, in one line.
    ColumnsNotSaved(String),
}

/// The clock and the timers `update` asked for.
#[derive(Debug, Clone)]
pub enum TimeMsg {
    /// A debounce timer for this builder generation ran out without a newer edit.
    Debounced(u64),
    /// Milliseconds since start, sent while a read runs so rates and ETAs move.
    Tick(u64),
    /// A timer `update` asked for ran out.
    Timer(Timer),
    /// Seconds since the Unix epoch, asked for with `ExportEffect::ReadClock`.
    Clock(u64),
}

/// A finished export: the file is in place under its final name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    pub path: String,
    pub items: u64,
    pub bytes: u64,
    /// CSV: attributes the items carried that no column holds.
    pub left_out: Vec<String>,
}

/// Timers `update` sets with `TimerEffect::After`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timer {
    /// The `g` chord of this generation waited long enough for its second key.
    Chord(u64),
    /// The open metrics pane of this generation asks CloudWatch again.
    MetricsRefresh(u64),
}

/// A followed stream's news, in order: `Found` or `Unavailable`, then the stream engine's
/// events ending with its one `Done` or `Failed`.
#[derive(Debug, Clone)]
pub enum StreamMsg {
    /// The table has a stream (or the source a recorded window of changes); reading starts.
    Found {
        view_type: Option<ViewType>,
        timeline: Timeline,
    },
    /// No stream to read: the table has none (the message names the `update-table` that would
    /// enable one) or could not be described.
    Unavailable(String),
    Event(StreamEvent),
}

pub use super::effect::*;
