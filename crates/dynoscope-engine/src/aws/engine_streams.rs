//! The SDK engine's side of following a table's stream for the explorer: one DescribeTable for
//! the stream, then the stream engine ([`super::stream`]) over DynamoDB Streams, as `tail` reads
//! it.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::mpsc;

use super::error::EngineError;
use super::stream::describe::{stream_table_with, StreamTable};
use super::stream::{
    start_stream, SdkStreamSource, StreamCounters, StreamEvent, StreamHandle, StreamSpec,
    StreamStart,
};
use super::Engine;

/// Milliseconds since the Unix epoch, from the wall clock (when a read starts).
pub(super) fn wall_clock_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Engine {
    pub async fn stream_table(&self, table: &str) -> Result<StreamTable, EngineError> {
        stream_table_with(&self.client, &self.endpoint, table).await
    }

    pub fn start_stream(
        &self,
        target: &StreamTable,
        start: StreamStart,
        tx: mpsc::Sender<StreamEvent>,
    ) -> StreamHandle {
        let counters = Arc::new(StreamCounters::default());
        let source = Arc::new(SdkStreamSource::new(
            self.streams.clone(),
            self.endpoint.clone(),
            target.view_type,
            counters.clone(),
        ));
        let mut spec = StreamSpec::new(target.stream_arn.clone(), start, wall_clock_ms());
        spec.view_type = target.view_type;
        start_stream(source, spec, counters, tx)
    }
}
