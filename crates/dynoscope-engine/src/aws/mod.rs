//! The only code that talks to AWS. An [`Engine`] is a cheap, cloneable handle: the TUI and
//! the headless subcommands share it and receive the same [`EngineEvent`]s.

pub mod attempts;
mod backend;
pub mod bulk;
pub mod churn;
pub mod clone_table;
pub mod cloudwatch;
pub mod connect;
pub mod convert;
mod describe;
pub mod endpoint;
mod engine_streams;
pub mod error;
pub mod export_start;
pub mod https;
pub mod insights;
pub mod json_lines;
#[cfg(any(test, feature = "test-engines"))]
mod memory_engine;
pub mod pattern_check;
pub use crate::model::engine::pattern_read;
pub use crate::model::engine::plan_read;
pub mod read;
pub mod response_cap;
pub mod seed;
pub mod seed_model;
pub mod stats;
pub mod stream;
pub mod table_export;
pub mod trace;
pub mod write;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use aws_sdk_dynamodb::Client;
use tokio::sync::mpsc;

pub use backend::Backend;
pub use connect::{connect, ConnectError, ConnectOptions, Connection};
pub use error::{EngineError, ErrorClass};
#[cfg(any(test, feature = "test-engines"))]
pub use memory_engine::MemoryEngine;
pub use read::reservation::SessionGuard;
pub use read::{
    Delivery, DoneOutcome, EngineEvent, Operation, Page, PartiqlStatement, ReadBudget, ReadCause,
    ReadHandle, ReadProgress, ReadSpec, SegmentStart,
};
pub use stats::ReadStats;

#[derive(Clone)]
pub struct Engine {
    pub(crate) client: Client,
    pub(crate) endpoint: String,
    next_request_id: Arc<AtomicU64>,
    /// DynamoDB Streams, configured like `client`: the explorer's live pane reads through it.
    pub(crate) streams: aws_sdk_dynamodbstreams::Client,
    /// The explorer's `--max-rcu`/`--rcu-per-second`: every read of the session is admitted
    /// by it too.
    session: Option<read::reservation::SessionGuard>,
}

impl Engine {
    /// The engine reads only: its client refuses every write operation before signing
    /// ([`write::read_only::ReadOnly`]); writes go through a [`write::Writer`].
    pub fn new(connection: &Connection) -> Self {
        let client = Client::from_conf(
            connection
                .client
                .config()
                .to_builder()
                .interceptor(write::read_only::ReadOnly)
                .build(),
        );
        Engine {
            client,
            endpoint: connection.endpoint.clone(),
            next_request_id: Arc::new(AtomicU64::new(1)),
            streams: connection.streams.clone(),
            session: None,
        }
    }

    /// Every read this engine starts is admitted by `session` as well as by its own guard.
    pub fn with_session_guard(mut self, session: Option<read::reservation::SessionGuard>) -> Self {
        self.session = session;
        self
    }

    pub fn session_guard(&self) -> Option<&read::reservation::SessionGuard> {
        self.session.as_ref()
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The underlying (read-only) client: for its own tests only. Reads go through
    /// `start_read`, under the guards; nothing outside the engine builds a request on it.
    #[cfg(test)]
    pub(crate) fn client(&self) -> &Client {
        &self.client
    }

    fn next_id(&self) -> u64 {
        self.next_request_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Starts a read; its events arrive on `tx`, ending with exactly one `Done` or `Failed`.
    pub fn start_read(&self, spec: ReadSpec, tx: mpsc::Sender<EngineEvent>) -> ReadHandle {
        self.start_read_with_id(self.next_id(), spec, tx)
    }

    /// Like `start_read`, with an id the caller chose (the explorer numbers its own requests
    /// so its pure `update` can tag them before they start).
    pub fn start_read_with_id(
        &self,
        id: u64,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        let source = read::SdkSource {
            client: self.client.clone(),
            endpoint: self.endpoint.clone(),
        };
        read::start_read(Arc::new(source), id, spec, self.session.clone(), tx)
    }
}

impl Backend for Engine {
    fn endpoint(&self) -> &str {
        &self.endpoint
    }

    fn start_read_with_id(
        &self,
        id: u64,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        Engine::start_read_with_id(self, id, spec, tx)
    }

    fn next_request_id(&self) -> u64 {
        self.next_id()
    }

    fn list_tables(
        &self,
    ) -> impl std::future::Future<Output = Result<Vec<String>, EngineError>> + Send {
        Engine::list_tables(self)
    }

    fn describe_table(
        &self,
        table: &str,
    ) -> impl std::future::Future<
        Output = Result<crate::model::design::schema::TableInfo, EngineError>,
    > + Send {
        Engine::describe_table(self, table)
    }

    fn stream_table(
        &self,
        table: &str,
    ) -> impl std::future::Future<Output = Result<stream::describe::StreamTable, EngineError>> + Send
    {
        Engine::stream_table(self, table)
    }

    fn start_stream(
        &self,
        target: &stream::describe::StreamTable,
        start: stream::StreamStart,
        tx: mpsc::Sender<stream::StreamEvent>,
    ) -> stream::StreamHandle {
        Engine::start_stream(self, target, start, tx)
    }
}
