//! What `update` consumes (`Msg`) and what it asks the terminal loop to do (`Effect`).

use crossterm::event::{KeyEvent, MouseEvent};

use crate::app::state::ExportRequest;
use crate::aws::stream::{StreamEvent, StreamStart};
use crate::aws::write::WriteResult;
use crate::aws::{EngineEvent, ReadSpec};
use crate::model::schema::TableInfo;
use crate::model::stream::ViewType;
use crate::model::write::WritePlan;

#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    Engine(EngineEvent),
    Tables(Result<Vec<String>, String>),
    Described {
        table: String,
        result: Result<TableInfo, String>,
    },
    /// A debounce timer for this builder generation ran out without a newer edit.
    Debounced(u64),
    /// Milliseconds since start, sent while a read runs so rates and ETAs move.
    Tick(u64),
    /// A timer `update` asked for ran out.
    Timer(Timer),
    /// A connection asked for with `Effect::Connect` is ready (its engine waits in the
    /// runner until `Effect::UseConnection`), or failed.
    Connected {
        generation: u64,
        result: Result<crate::app::state::ConnectionInfo, String>,
    },
    /// What the stream `Effect::StartStream { id, .. }` started sends back.
    Stream {
        id: u64,
        event: StreamMsg,
    },
    // Export (issue 13).
    /// Seconds since the Unix epoch, asked for with `Effect::ReadClock`.
    Clock(u64),
    /// Directories that complete `path` (each ending in `/`).
    PathCompletions {
        path: String,
        dirs: Vec<String>,
    },
    /// Whether the export's file exists already (`Ok(true)`), or why it cannot be written.
    ExportPathChecked {
        job: u64,
        result: Result<bool, String>,
    },
    ExportProgress {
        job: u64,
        items: u64,
        bytes: u64,
    },
    ExportDone {
        job: u64,
        result: Result<ExportSummary, String>,
    },
    // Writes (issue 13).
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

/// A finished export: the file is in place under its final name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    pub path: String,
    pub items: u64,
    pub bytes: u64,
    /// CSV: attributes the items carried that no column holds.
    pub left_out: Vec<String>,
}

/// Timers `update` sets with `Effect::Timer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timer {
    /// The `g` chord of this generation waited long enough for its second key.
    Chord(u64),
}

/// A followed stream's news, in order: `Found` or `Unavailable`, then the stream engine's
/// events ending with its one `Done` or `Failed`.
#[derive(Debug, Clone)]
pub enum StreamMsg {
    /// The table has a stream; reading it starts.
    Found {
        view_type: Option<ViewType>,
    },
    /// No stream to read: the table has none (the message names the `update-table` that would
    /// enable one) or could not be described.
    Unavailable(String),
    Event(StreamEvent),
}

#[derive(Debug, Clone)]
pub enum Effect {
    ListTables,
    Describe(String),
    /// `id` is chosen by `update`, so pages can be matched to the read they belong to.
    StartRead {
        id: u64,
        spec: Box<ReadSpec>,
    },
    Cancel(u64),
    /// Follow `table`'s stream from `from`; its news comes back as `Msg::Stream { id, .. }`.
    StartStream {
        id: u64,
        table: String,
        from: StreamStart,
    },
    /// Stop the stream `id` (its remaining news is dropped as stale).
    StopStream(u64),
    /// Put text on the clipboard with OSC 52 (works over SSH).
    Copy(String),
    /// Send `Msg::Debounced(generation)` after `delay` unless another debounce replaces it.
    Debounce {
        generation: u64,
        delay: std::time::Duration,
    },
    /// Make a new connection (another region or profile) in the background.
    Connect {
        generation: u64,
        target: crate::app::state::ConnectTarget,
    },
    /// Use the connection `Msg::Connected` announced from now on; reads of the old one are
    /// cancelled.
    UseConnection(u64),
    /// Write one table's query history (at this endpoint) to the history file.
    SaveHistory {
        endpoint: String,
        table: String,
        entries: Vec<crate::app::state::HistoryEntry>,
    },
    /// Send `Msg::Timer(timer)` after `delay`.
    Timer {
        timer: Timer,
        delay: std::time::Duration,
    },
    /// Leave the terminal and stop the process until it is continued (Ctrl-Z, as a shell
    /// would have it: in raw mode the key reaches the explorer instead of the terminal driver).
    Suspend,
    Quit,
    // Export (issue 13).
    ReadClock,
    /// Complete a path to the directories it may name; answered by `Msg::PathCompletions`.
    CompletePath(String),
    /// Answered by `Msg::ExportPathChecked`.
    CheckExportPath {
        job: u64,
        path: String,
    },
    /// Write items to a temporary file beside `path`, renamed to `path` once complete.
    StartExport(Box<ExportRequest>),
    /// A read whose pages also go to the file of export `job` (a streaming export).
    TeeRead {
        job: u64,
        id: u64,
        spec: Box<ReadSpec>,
    },
    /// No more items for a streaming export: close the file and put it in place.
    FinishExport(u64),
    /// Stop an export and delete its temporary file.
    CancelExport(u64),
    // Writes (issue 13).
    /// Hand the terminal to `$VISUAL`/`$EDITOR` on a private temporary file holding `text`;
    /// answered by `Msg::Edited`.
    Edit {
        edit: u64,
        text: String,
    },
    /// Send one plan through the writer (refused when writes are off); answered by
    /// `Msg::Written`.
    Write {
        write: u64,
        plan: Box<WritePlan>,
    },
}
