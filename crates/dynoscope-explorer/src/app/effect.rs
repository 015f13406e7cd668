//! What `update` asks the terminal loop to do, grouped by concern: each group is applied by
//! the `tui` service that owns it (the engine's reads, the live streams, the exports, the
//! writer, the connector, the files, the timers, the terminal itself).

use super::msg::Timer;
use crate::app::state::{ConnectTarget, ExportRequest, HistoryEntry};
use crate::model::engine::stream::StreamStart;
use crate::model::engine::ReadSpec;
use crate::model::write::WritePlan;

#[derive(Debug, Clone)]
pub enum Effect {
    Tables(TableEffect),
    Read(ReadEffect),
    Live(LiveEffect),
    Metrics(MetricsEffect),
    Export(ExportEffect),
    Write(WriteEffect),
    Bulk(BulkEffect),
    Session(SessionEffect),
    Files(FileEffect),
    Timer(TimerEffect),
    Terminal(TerminalEffect),
}

/// The table list and descriptions.
#[derive(Debug, Clone)]
pub enum TableEffect {
    List,
    Describe(String),
}

/// Reads of items; `id` is chosen by `update`, so pages can be matched to their read.
#[derive(Debug, Clone)]
pub enum ReadEffect {
    Start {
        id: u64,
        spec: Box<ReadSpec>,
    },
    Cancel(u64),
    /// A read whose pages also go to the file of export `job` (a streaming export).
    Tee {
        job: u64,
        id: u64,
        spec: Box<ReadSpec>,
    },
    /// Check one access pattern (the palette's Ctrl-K) with `patterns check`'s own code, its
    /// samples and calls under the session's guard; answered by `Msg::PatternChecked`.
    /// Its pages come back as engine events tagged `id` (the request log, the session's
    /// cost), `ReadEffect::Cancel(id)` stops it, and `max_rcu` is its own bound (without the
    /// session's `--max-rcu`).
    CheckPattern {
        id: u64,
        info: Box<crate::model::design::schema::TableInfo>,
        pattern: Box<crate::model::design::access_pattern::AccessPattern>,
        calls: usize,
        max_rcu: Option<f64>,
    },
}

/// The live pane's stream.
#[derive(Debug, Clone)]
pub enum LiveEffect {
    /// Follow `table`'s stream from `from`; its news comes back as `Msg::Stream { id, .. }`.
    Start {
        id: u64,
        table: String,
        from: StreamStart,
    },
    /// Stop the stream `id` (its remaining news is dropped as stale).
    Stop(u64),
}

/// The metrics pane's CloudWatch batch and Contributor Insights.
#[derive(Debug, Clone)]
pub enum MetricsEffect {
    /// Every series of `table` and its `gsis` over the `since_secs` up to now, in one
    /// GetMetricData batch; answered by `Msg::Metrics { id, .. }`.
    Fetch {
        id: u64,
        table: String,
        gsis: Vec<String>,
        since_secs: u64,
        period: u32,
    },
    /// Contributor Insights of `table` and its `gsis` (status, mode, each enabled rule's top
    /// keys over the same window); never enables it. Answered by `Msg::Insights { id, .. }`.
    Insights {
        id: u64,
        table: String,
        gsis: Vec<String>,
        since_secs: u64,
        period: u32,
    },
}

/// Exports (issue 13).
#[derive(Debug, Clone)]
pub enum ExportEffect {
    /// The time, for a default file name; answered by `TimeMsg::Clock`.
    ReadClock,
    /// Write items to a temporary file beside `path`, renamed to `path` once complete.
    Start(Box<ExportRequest>),
    /// No more items for a streaming export: close the file and put it in place.
    Finish(u64),
    /// Stop an export and delete its temporary file.
    Cancel(u64),
}

/// Writes (issue 13).
#[derive(Debug, Clone)]
pub enum WriteEffect {
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on a private temporary file holding `text`;
    /// answered by `Msg::Write(WriteMsg::Edited)`.
    Edit { edit: u64, text: String },
    /// Send one plan through the writer (refused when writes are off); answered by
    /// `Msg::Write(WriteMsg::Written)`.
    Send { write: u64, plan: Box<WritePlan> },
}

/// The bulk dialog's runs (`B`) and undos (`U`), on a task of their own under the session's
/// write guard (`--max-wcu`, `--wcu-per-second`); their news comes back as `Msg::Bulk`.
#[derive(Debug, Clone)]
pub enum BulkEffect {
    /// Journal `items` under a new file in the journal directory (as `partiql` does), then
    /// write each one conditional on it being its before-image.
    Run {
        run: u64,
        info: Box<crate::model::design::schema::TableInfo>,
        items: Vec<crate::model::write::bulk::BulkItem>,
        header: Box<crate::model::write::bulk::journal::Header>,
        /// The table's `version_attribute`: each write is conditional on it (the items'
        /// after-images already increment it).
        version: Option<String>,
    },
    /// Put `items[todo]` back to their before-images, each only if it is still what the run
    /// wrote (as `dynoscope undo` does).
    Undo {
        run: u64,
        info: Box<crate::model::design::schema::TableInfo>,
        items: Vec<crate::model::write::bulk::BulkItem>,
        todo: Vec<usize>,
        version: Option<String>,
    },
    /// Stop run `run` before its next item (the one in flight ends and is journaled).
    Stop(u64),
}

/// The connection: another region or profile.
#[derive(Debug, Clone)]
pub enum SessionEffect {
    /// Make a new connection in the background.
    Connect {
        generation: u64,
        target: ConnectTarget,
    },
    /// Use the connection `Msg::Session(SessionMsg::Connected)` announced from now on; reads of the old one are
    /// cancelled.
    UseConnection(u64),
}

/// The local file system.
#[derive(Debug, Clone)]
pub enum FileEffect {
    /// Write one table's query history (at this endpoint) to the history file.
    SaveHistory {
        endpoint: String,
        table: String,
        entries: Vec<HistoryEntry>,
    },
    /// Complete a path to the directories it may name; answered by `Msg::Files(FileMsg::PathCompletions)`.
    CompletePath(String),
    /// Answered by `Msg::Files(FileMsg::ExportPathChecked)`.
    CheckExportPath { job: u64, path: String },
    /// Read the column choices file (once, at start); answered by
    /// `Msg::Files(FileMsg::ColumnsLoaded)`.
    LoadColumns,
    /// Replace `scope`'s column choice in the column choices file (`None`: forget it); a
    /// failure is answered by `Msg::Files(FileMsg::ColumnsNotSaved)`.
    SaveColumns {
        scope: crate::app::column_choice::ColumnScope,
        choice: Option<crate::app::column_choice::ColumnChoice>,
    },
}

/// Messages sent back later.
#[derive(Debug, Clone)]
pub enum TimerEffect {
    /// Send `Msg::Time(TimeMsg::Debounced(generation))` after `delay` unless another debounce replaces it.
    Debounce {
        generation: u64,
        delay: std::time::Duration,
    },
    /// Send `Msg::Time(TimeMsg::Timer(timer))` after `delay`.
    After {
        timer: Timer,
        delay: std::time::Duration,
    },
}

/// What only the loop that owns the terminal can do.
#[derive(Debug, Clone)]
pub enum TerminalEffect {
    /// Put text on the clipboard with OSC 52 (works over SSH).
    Copy(String),
    /// Leave the terminal and stop the process until it is continued (Ctrl-Z, as a shell
    /// would have it: in raw mode the key reaches the explorer instead of the terminal driver).
    Suspend,
    Quit,
}
