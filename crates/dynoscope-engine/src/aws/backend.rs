//! What the explorer and the headless commands need from DynamoDB, behind one small trait: the
//! SDK engine ([`super::Engine`]) implements it for real, and `MemoryEngine` for tests
//! of the effect runner, the drain loop and whole explorer flows under paused time.

use std::future::Future;

use tokio::sync::mpsc;

use super::error::EngineError;
use super::read::{EngineEvent, ReadHandle, ReadSpec, RequestId};
use super::stream::describe::StreamTable;
use super::stream::{StreamEvent, StreamHandle, StreamStart};
use crate::model::design::schema::TableInfo;

pub trait Backend: Clone + Send + Sync + 'static {
    /// As shown in titles and messages.
    fn endpoint(&self) -> &str;

    /// Starts a read tagged `id`; its events arrive on `tx`, ending with exactly one `Done` or
    /// `Failed`.
    fn start_read_with_id(
        &self,
        id: RequestId,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle;

    /// A fresh request id for callers that do not number their own.
    fn next_request_id(&self) -> RequestId;

    /// Starts a read with the next request id.
    fn start_read(&self, spec: ReadSpec, tx: mpsc::Sender<EngineEvent>) -> ReadHandle {
        self.start_read_with_id(self.next_request_id(), spec, tx)
    }

    /// Every table name.
    fn list_tables(&self) -> impl Future<Output = Result<Vec<String>, EngineError>> + Send;

    fn describe_table(
        &self,
        table: &str,
    ) -> impl Future<Output = Result<TableInfo, EngineError>> + Send;

    /// The table's stream (ARN and view type) with the table's description. A table without
    /// an enabled stream is a bad-input error whose message is
    /// [`super::stream::describe::no_stream_message`]: dynoscope never enables one.
    fn stream_table(
        &self,
        table: &str,
    ) -> impl Future<Output = Result<StreamTable, EngineError>> + Send;

    /// Starts reading `target`'s stream from `start`; its events arrive on `tx`, ending with
    /// exactly one `Done` or `Failed`.
    fn start_stream(
        &self,
        target: &StreamTable,
        start: StreamStart,
        tx: mpsc::Sender<StreamEvent>,
    ) -> StreamHandle;
}
