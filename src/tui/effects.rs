//! Performs what `update` asks for, each concern by its own service: the engine's (tables,
//! reads, live streams: `engine_effects.rs`), the local ones (exports, writes, files, timers:
//! `local_effects.rs`), the bulk dialog's runs (`bulk.rs`) and the connection (here). Generic over the [`Backend`], so it is
//! tested with the in-memory engine under paused time; the terminal's own effects (copy,
//! suspend, quit, the editor) go back to the loop.

use std::collections::HashMap;

use tokio::sync::mpsc;

pub use self::bulk::BulkRuns;
use super::debounce::Debouncer;
use super::export::Exports;
use super::history_store::HistoryWriter;
use super::services::{Connector, InsightsSource, MetricsSource};
use super::streams::{StreamNews, StreamTasks};
use crate::app::msg::{Effect, Msg, SessionEffect, SessionMsg, WriteEffect};
use crate::aws::read::ReadHandle;
use crate::aws::write::{WriteBackend, Writer};
use crate::aws::{Backend, EngineEvent};

pub struct EffectRunner<B: Backend, W: WriteBackend = Writer> {
    engine: B,
    /// Only when writes are enabled: without it every write effect is refused.
    writer: Option<W>,
    engine_tx: mpsc::Sender<EngineEvent>,
    msg_tx: mpsc::UnboundedSender<Msg>,
    reads: HashMap<u64, ReadHandle>,
    /// The palette's pattern checks (Ctrl-K) running: their cancel tokens and tasks.
    pub(super) checks: HashMap<
        u64,
        (
            tokio_util::sync::CancellationToken,
            tokio::task::JoinHandle<()>,
        ),
    >,
    debouncer: Debouncer,
    /// Writes query history to disk; `None` when history is off or there is nowhere to keep it.
    history: Option<HistoryWriter>,
    connector: Option<Connector<B>>,
    /// A new connection's engine, waiting for `|x| Effect::Session(SessionEffect::UseConnection(x))` of its generation.
    connected: std::sync::Arc<std::sync::Mutex<Option<(u64, B)>>>,
    /// The streams the live pane follows.
    streams: StreamTasks,
    exports: Exports,
    /// The metrics pane's CloudWatch batches.
    metrics: Option<MetricsSource>,
    /// The metrics pane's Contributor Insights.
    insights: Option<InsightsSource>,
    /// The bulk dialog's runs: the session's write guard, the journal directory, stop tokens.
    bulk: BulkRuns,
    /// The column choices file (`C`), and its writer; `None`: no state folder.
    pub(super) columns_file: Option<std::path::PathBuf>,
    pub(super) columns: Option<super::column_store::ColumnWriter>,
}

impl<B: Backend, W: WriteBackend> EffectRunner<B, W> {
    /// Engine events go to `engine_tx`, background results and debounce timers to `msg_tx`.
    pub fn new(
        engine: B,
        engine_tx: mpsc::Sender<EngineEvent>,
        msg_tx: mpsc::UnboundedSender<Msg>,
    ) -> Self {
        EffectRunner {
            engine,
            writer: None,
            engine_tx,
            debouncer: Debouncer::new(msg_tx.clone()),
            exports: Exports::new(msg_tx.clone()),
            msg_tx,
            reads: HashMap::new(),
            checks: HashMap::new(),
            history: None,
            connector: None,
            connected: Default::default(),
            streams: StreamTasks::default(),
            metrics: None,
            insights: None,
            bulk: BulkRuns::default(),
            columns_file: None,
            columns: None,
        }
    }

    /// Keeps the column choices in the file at `path`.
    pub fn with_columns_file(mut self, path: Option<std::path::PathBuf>) -> Self {
        self.columns = path
            .clone()
            .map(|p| super::column_store::ColumnWriter::start(p, self.msg_tx.clone()));
        self.columns_file = path;
        self
    }

    /// The bulk dialog's runs go under `runs`' write guard and journal directory.
    pub fn with_bulk(mut self, runs: BulkRuns) -> Self {
        self.bulk = runs;
        self
    }

    /// Makes new connections with `connector` (`Effect::Session(SessionEffect::Connect)`).
    pub fn with_connector(mut self, connector: Option<Connector<B>>) -> Self {
        self.connector = connector;
        self
    }

    /// The metrics pane asks CloudWatch through `source`.
    pub fn with_metrics(mut self, source: Option<MetricsSource>) -> Self {
        self.metrics = source;
        self
    }

    /// The metrics pane asks for Contributor Insights through `source`.
    pub fn with_insights(mut self, source: Option<InsightsSource>) -> Self {
        self.insights = source;
        self
    }

    /// Followed streams send their news to `tx` (a bounded channel the loop reads).
    pub fn with_streams(mut self, tx: mpsc::Sender<StreamNews>) -> Self {
        self.streams = StreamTasks::new(Some(tx));
        self
    }

    /// Saves query history to the file at `path`.
    pub fn with_history_file(mut self, path: Option<std::path::PathBuf>) -> Self {
        self.history = path.map(HistoryWriter::start);
        self
    }

    /// Writes go through `writer`; without one every write effect is refused.
    pub fn with_writer(mut self, writer: Option<W>) -> Self {
        self.writer = writer;
        self
    }

    /// Performs each effect with the service that owns its concern; returns the ones only the
    /// terminal loop can perform (the clipboard, suspending, quitting, the editor).
    pub fn apply(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut for_terminal = Vec::new();
        for effect in effects {
            match effect {
                Effect::Tables(e) => self.tables(e),
                Effect::Read(e) => self.read(e),
                Effect::Live(e) => self.live(e),
                Effect::Metrics(e) => self.metrics(e),
                Effect::Export(e) => self.export(e),
                Effect::Write(WriteEffect::Send { write, plan }) => self.write(write, *plan),
                Effect::Bulk(e) => self.bulk(e),
                Effect::Session(SessionEffect::Connect { generation, target }) => {
                    self.connect(generation, target)
                }
                Effect::Session(SessionEffect::UseConnection(generation)) => {
                    self.use_connection(generation)
                }
                Effect::Files(e) => self.files(e),
                Effect::Timer(e) => self.timer(e),
                Effect::Terminal(_) | Effect::Write(WriteEffect::Edit { .. }) => {
                    for_terminal.push(effect)
                }
            }
        }
        for_terminal
    }

    fn connect(&mut self, generation: u64, target: crate::app::state::ConnectTarget) {
        let tx = self.msg_tx.clone();
        let Some(connector) = self.connector.clone() else {
            let _ = tx.send(Msg::Session(SessionMsg::Connected {
                generation,
                result: Err("switching needs a connection made by dynoscope itself".into()),
            }));
            return;
        };
        let slot = self.connected.clone();
        tokio::spawn(async move {
            let result = match connector(target).await {
                Ok((engine, info)) => {
                    if let Ok(mut slot) = slot.lock() {
                        *slot = Some((generation, engine));
                    }
                    Ok(info)
                }
                Err(e) => Err(e),
            };
            let _ = tx.send(Msg::Session(SessionMsg::Connected { generation, result }));
        });
    }

    /// From now on reads go to the new connection; those of the old one are cancelled.
    fn use_connection(&mut self, generation: u64) {
        let engine = match self.connected.lock() {
            Ok(mut slot) => match slot.take() {
                Some((g, engine)) if g == generation => engine,
                other => {
                    *slot = other;
                    return;
                }
            },
            Err(_) => return,
        };
        for handle in self.reads.values() {
            handle.cancel();
        }
        self.engine = engine;
        // The writer was made for the old connection: writing on after a switch would send to
        // the region or account the user just left. Writes stay off until a restart.
        self.writer = None;
    }

    /// The engine effects go to now.
    pub fn engine(&self) -> &B {
        &self.engine
    }

    /// Reads started and not yet known to have stopped.
    pub fn running_reads(&self) -> usize {
        self.reads.values().filter(|h| !h.is_finished()).count()
            + self
                .checks
                .values()
                .filter(|(_, t)| !t.is_finished())
                .count()
    }

    /// Followed streams not yet stopped.
    pub fn running_streams(&self) -> usize {
        self.streams.running()
    }

    /// Cancels every read and stream and waits until their tasks have stopped: nothing keeps
    /// running.
    pub async fn shutdown(self) {
        // A bulk run stops before its next item; its journal continues it.
        self.bulk.stop_all();
        self.streams.shutdown().await;
        if let Some(history) = self.history {
            // The last query's history is on disk before the process ends.
            history.finish();
        }
        for handle in self.reads.values() {
            handle.cancel();
        }
        for (_, handle) in self.reads {
            handle.join().await;
        }
        // Unfinished exports remove their temporary files before the explorer exits.
        self.exports.shutdown().await;
    }
}

#[path = "bulk.rs"]
mod bulk;
#[path = "engine_effects.rs"]
mod engine_effects;
#[path = "local_effects.rs"]
mod local_effects;

#[cfg(test)]
#[path = "effects_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "effects_write_tests.rs"]
mod write_tests;

#[cfg(test)]
#[path = "bulk_flow_tests.rs"]
mod bulk_flow_tests;
