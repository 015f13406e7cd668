//! A [`Backend`] over tables in memory: each read runs the real coordinator, segment tasks and
//! capacity guard against a [`MemorySource`], and each stream the real stream coordinator and
//! shard readers against a [`MemoryStream`] the test scripts, so tests of what sits above the
//! engine need no DynamoDB Local and can run under paused time.
//!
//! Compiled for tests only: `cfg(test)` in the crate, and the `test-engines` feature that
//! the test suite turns on for `tests/` (a release build has none of it).

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;

use super::backend::Backend;
use super::error::EngineError;
use super::read::memory::MemorySource;
use super::read::{start_read, EngineEvent, ReadHandle, ReadSpec, RequestId};
use super::stream::describe::{no_stream_message, StreamTable};
use super::stream::memory::MemoryStream;
use super::stream::StreamStart;
use super::stream::{start_stream, StreamCounters, StreamEvent, StreamHandle, StreamSpec};
use crate::model::design::schema::TableInfo;
use crate::model::stream::ViewType;

#[derive(Clone, Default)]
pub struct MemoryEngine {
    tables: Arc<BTreeMap<String, (TableInfo, Arc<MemorySource>)>>,
    /// Streams by table name; a table has one when its `TableInfo::stream` says so too.
    streams: Arc<BTreeMap<String, Arc<MemoryStream>>>,
    next_id: Arc<AtomicU64>,
    /// As [`super::Engine::with_session_guard`]'s.
    session: Option<super::SessionGuard>,
}

/// The ARN a memory stream goes by.
fn stream_arn(table: &str) -> String {
    format!("memory:stream/{table}")
}

impl MemoryEngine {
    pub fn new() -> Self {
        MemoryEngine::default()
    }

    /// Every read is admitted by `session` as well as by its own guard.
    pub fn with_session_guard(mut self, session: Option<super::SessionGuard>) -> Self {
        self.session = session;
        self
    }

    /// Adds a table; its name is `info.name`.
    pub fn with_table(mut self, info: TableInfo, source: MemorySource) -> Self {
        let mut tables = (*self.tables).clone();
        tables.insert(info.name.clone(), (info, Arc::new(source)));
        self.tables = Arc::new(tables);
        self
    }

    /// Gives `table` a stream (its `TableInfo::stream` must name the view type, as
    /// DescribeTable would).
    pub fn with_stream(mut self, table: &str, stream: MemoryStream) -> Self {
        let mut streams = (*self.streams).clone();
        streams.insert(table.to_string(), Arc::new(stream));
        self.streams = Arc::new(streams);
        self
    }

    /// The stream of `table`, to write to it while the explorer follows it.
    pub fn stream(&self, table: &str) -> Option<Arc<MemoryStream>> {
        self.streams.get(table).cloned()
    }

    /// The source behind `table`, to ask what was sent to it.
    pub fn source(&self, table: &str) -> Option<Arc<MemorySource>> {
        self.tables.get(table).map(|(_, s)| s.clone())
    }

    fn not_found(table: &str) -> EngineError {
        EngineError::bad_input(format!("table '{table}' not found in memory"))
    }
}

impl Backend for MemoryEngine {
    fn endpoint(&self) -> &str {
        "memory"
    }

    fn start_read_with_id(
        &self,
        id: RequestId,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        match self.tables.get(&spec.table) {
            Some((_, source)) => start_read(source.clone(), id, spec, self.session.clone(), tx),
            // A read of no table fails as DynamoDB's would: one final event.
            None => ReadHandle::failed(id, Self::not_found(&spec.table), tx),
        }
    }

    fn next_request_id(&self) -> RequestId {
        self.next_id.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn list_tables(&self) -> impl Future<Output = Result<Vec<String>, EngineError>> + Send {
        let names = self.tables.keys().cloned().collect();
        async move { Ok(names) }
    }

    fn describe_table(
        &self,
        table: &str,
    ) -> impl Future<Output = Result<TableInfo, EngineError>> + Send {
        let found = self
            .tables
            .get(table)
            .map(|(info, _)| info.clone())
            .ok_or_else(|| Self::not_found(table));
        async move { found }
    }

    fn stream_table(
        &self,
        table: &str,
    ) -> impl Future<Output = Result<StreamTable, EngineError>> + Send {
        let found = match self.tables.get(table) {
            None => Err(Self::not_found(table)),
            Some((info, _)) => match (&info.stream, self.streams.contains_key(table)) {
                (Some(view), true) => Ok(StreamTable {
                    info: info.clone(),
                    stream_arn: stream_arn(table),
                    view_type: ViewType::parse(view),
                    timeline: Default::default(),
                }),
                _ => Err(EngineError::bad_input(no_stream_message(table))),
            },
        };
        async move { found }
    }

    fn start_stream(
        &self,
        target: &StreamTable,
        start: StreamStart,
        tx: mpsc::Sender<StreamEvent>,
    ) -> StreamHandle {
        let stream = self
            .streams
            .iter()
            .find(|(table, _)| stream_arn(table) == target.stream_arn)
            .map(|(_, s)| s.clone());
        let Some(stream) = stream else {
            let error = EngineError::bad_input(format!(
                "stream '{}' not found in memory",
                target.stream_arn
            ));
            return StreamHandle::failed(error, tx);
        };
        let mut spec = StreamSpec::new(target.stream_arn.clone(), start, 0);
        spec.view_type = target.view_type;
        start_stream(stream, spec, Arc::new(StreamCounters::default()), tx)
    }
}
