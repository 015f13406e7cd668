//! What a stream read starts from and the events it sends, and the line for a table without
//! a stream. The engine's shard readers (`dynoscope_engine::aws::stream`) send them.

use std::sync::Arc;

use super::error::EngineError;
use crate::stream::Change;

/// Where reading starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamStart {
    /// Changes made from now on: open shards from LATEST, closed ones skipped.
    Latest,
    /// Everything the stream holds (up to 24 h): every shard from TRIM_HORIZON.
    TrimHorizon,
    /// From TRIM_HORIZON, skipping records created before `cutoff_ms` (epoch milliseconds).
    Since { cutoff_ms: i64 },
}

impl StreamStart {
    pub fn describe(&self) -> String {
        match self {
            StreamStart::Latest => "LATEST".into(),
            StreamStart::TrimHorizon => "TRIM_HORIZON".into(),
            StreamStart::Since { cutoff_ms } => crate::stream::change_json::rfc3339(*cutoff_ms),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamOutcome {
    /// The caller cancelled.
    Cancelled,
    /// The stream was disabled and every shard has been read to its end.
    StreamDisabled,
    /// A recorded window (an incremental export) had every change delivered.
    Recorded,
}

#[derive(Debug, Clone)]
pub enum StreamEvent {
    /// The first shards have their iterators: from LATEST, every change made from now on
    /// will be delivered. Sent once, before any `Changes`.
    Ready { shards: usize },
    ShardOpened {
        shard_id: String,
        parent_shard_id: Option<String>,
    },
    /// One GetRecords page of a shard, in sequence order (records older than a `Since`
    /// cut-off left out).
    Changes {
        shard_id: Arc<str>,
        changes: Vec<Change>,
    },
    /// The shard was closed and has been read to its end; its children may start.
    ShardClosed { shard_id: String },
    /// Sent once instead of `Done`, after every shard task has stopped.
    Failed { error: EngineError },
    /// Sent once, after every shard task has stopped.
    Done { outcome: StreamOutcome },
}

/// The one line shown for a table without an enabled stream.
pub fn no_stream_message(table: &str) -> String {
    format!(
        "table '{table}' has no stream enabled, and dynoscope never enables one itself; to enable it run: aws dynamodb update-table --table-name {} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES",
        crate::text::shell::shell_word(table)
    )
}
