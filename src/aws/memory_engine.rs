//! A [`Backend`] over tables in memory: each read runs the real coordinator, segment tasks and
//! capacity guard against a [`MemorySource`], so tests of what sits above the engine need no
//! DynamoDB Local and can run under paused time.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc;

use super::backend::Backend;
use super::error::EngineError;
use super::read::memory::MemorySource;
use super::read::{start_read, EngineEvent, ReadHandle, ReadSpec, RequestId};
use crate::model::schema::TableInfo;

#[derive(Clone, Default)]
pub struct MemoryEngine {
    tables: Arc<BTreeMap<String, (TableInfo, Arc<MemorySource>)>>,
    next_id: Arc<AtomicU64>,
}

impl MemoryEngine {
    pub fn new() -> Self {
        MemoryEngine::default()
    }

    /// Adds a table; its name is `info.name`.
    pub fn with_table(mut self, info: TableInfo, source: MemorySource) -> Self {
        let mut tables = (*self.tables).clone();
        tables.insert(info.name.clone(), (info, Arc::new(source)));
        self.tables = Arc::new(tables);
        self
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
            Some((_, source)) => start_read(source.clone(), id, spec, tx),
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
}
