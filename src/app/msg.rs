//! What `update` consumes (`Msg`) and what it asks the terminal loop to do (`Effect`).

use crossterm::event::{KeyEvent, MouseEvent};

use crate::aws::stream::{StreamEvent, StreamStart};
use crate::aws::{EngineEvent, ReadSpec};
use crate::model::schema::TableInfo;
use crate::model::stream::ViewType;

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
}
