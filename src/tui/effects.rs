//! Performs what `update` asks for that needs the engine: list and describe tables, start and
//! cancel reads. Generic over the [`Backend`], so it is tested with the in-memory engine under
//! paused time; the terminal's own effects (copy, suspend, quit) go back to the loop.

use std::collections::HashMap;

use tokio::sync::mpsc;

use super::debounce::Debouncer;
use super::export::{check_path, complete_dirs, Exports};
use super::history_store::HistoryWriter;
use super::services::Connector;
use super::streams::{StreamNews, StreamTasks};
use crate::app::msg::{Effect, Msg};
use crate::aws::read::ReadHandle;
use crate::aws::write::{WriteBackend, WriteFailure, Writer};
use crate::aws::{Backend, EngineError, EngineEvent};

pub struct EffectRunner<B: Backend, W: WriteBackend = Writer> {
    engine: B,
    /// Only when writes are enabled: without it every write effect is refused.
    writer: Option<W>,
    engine_tx: mpsc::Sender<EngineEvent>,
    msg_tx: mpsc::UnboundedSender<Msg>,
    reads: HashMap<u64, ReadHandle>,
    debouncer: Debouncer,
    /// Writes query history to disk; `None` when history is off or there is nowhere to keep it.
    history: Option<HistoryWriter>,
    connector: Option<Connector<B>>,
    /// A new connection's engine, waiting for `Effect::UseConnection` of its generation.
    connected: std::sync::Arc<std::sync::Mutex<Option<(u64, B)>>>,
    /// The streams the live pane follows.
    streams: StreamTasks,
    exports: Exports,
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
            history: None,
            connector: None,
            connected: Default::default(),
            streams: StreamTasks::default(),
        }
    }

    /// Makes new connections with `connector` (`Effect::Connect`).
    pub fn with_connector(mut self, connector: Option<Connector<B>>) -> Self {
        self.connector = connector;
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

    /// Performs the engine's effects; returns the ones only the terminal loop can perform.
    pub fn apply(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut for_terminal = Vec::new();
        for effect in effects {
            match effect {
                Effect::ListTables => {
                    let (engine, tx) = (self.engine.clone(), self.msg_tx.clone());
                    tokio::spawn(async move {
                        let result = engine.list_tables().await.map_err(|e| e.message);
                        let _ = tx.send(Msg::Tables(result));
                    });
                }
                Effect::Describe(table) => {
                    let (engine, tx) = (self.engine.clone(), self.msg_tx.clone());
                    tokio::spawn(async move {
                        let result = engine.describe_table(&table).await.map_err(|e| e.message);
                        let _ = tx.send(Msg::Described { table, result });
                    });
                }
                Effect::StartRead { id, spec } => {
                    self.reads.retain(|_, h| !h.is_finished());
                    let handle = self
                        .engine
                        .start_read_with_id(id, *spec, self.engine_tx.clone());
                    self.reads.insert(id, handle);
                }
                Effect::Cancel(id) => {
                    if let Some(handle) = self.reads.get(&id) {
                        handle.cancel();
                    }
                }
                Effect::Debounce { generation, delay } => self.debouncer.poke(generation, delay),
                Effect::SaveHistory {
                    endpoint,
                    table,
                    entries,
                } => {
                    if let Some(writer) = &self.history {
                        writer.save(endpoint, table, entries);
                    }
                }
                Effect::Connect { generation, target } => self.connect(generation, target),
                Effect::UseConnection(generation) => self.use_connection(generation),
                Effect::Timer { timer, delay } => {
                    let tx = self.msg_tx.clone();
                    // Not cancelled: `update` ignores a timer whose generation has passed.
                    tokio::spawn(async move {
                        tokio::time::sleep(delay).await;
                        let _ = tx.send(Msg::Timer(timer));
                    });
                }
                Effect::StartStream { id, table, from } => {
                    self.streams.start(&self.engine, id, table, from)
                }
                Effect::StopStream(id) => self.streams.stop(id),
                Effect::ReadClock => {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs());
                    let _ = self.msg_tx.send(Msg::Clock(now));
                }
                Effect::CompletePath(path) => {
                    let tx = self.msg_tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let dirs = complete_dirs(&path);
                        let _ = tx.send(Msg::PathCompletions { path, dirs });
                    });
                }
                Effect::CheckExportPath { job, path } => {
                    let tx = self.msg_tx.clone();
                    tokio::task::spawn_blocking(move || {
                        let result = check_path(&path);
                        let _ = tx.send(Msg::ExportPathChecked { job, result });
                    });
                }
                Effect::StartExport(request) => self.exports.start(*request),
                Effect::TeeRead { job, id, spec } => {
                    self.reads.retain(|_, h| !h.is_finished());
                    let handle =
                        self.exports
                            .tee_read(&self.engine, job, id, *spec, self.engine_tx.clone());
                    self.reads.insert(id, handle);
                }
                Effect::FinishExport(job) => self.exports.finish(job),
                Effect::Write { write, plan } => {
                    let tx = self.msg_tx.clone();
                    match self.writer.clone() {
                        Some(writer) => {
                            tokio::spawn(async move {
                                let result = writer.write(*plan).await;
                                let _ = tx.send(Msg::Written { write, result });
                            });
                        }
                        None => {
                            let refused = EngineError::bad_input(
                                "writes are off: start dynoscope with --allow-writes",
                            );
                            let _ = tx.send(Msg::Written {
                                write,
                                result: Err(WriteFailure::refused(refused)),
                            });
                        }
                    }
                }
                Effect::CancelExport(job) => self.exports.cancel(job),
                Effect::Copy(_) | Effect::Suspend | Effect::Quit | Effect::Edit { .. } => {
                    for_terminal.push(effect)
                }
            }
        }
        for_terminal
    }

    fn connect(&mut self, generation: u64, target: crate::app::state::ConnectTarget) {
        let tx = self.msg_tx.clone();
        let Some(connector) = self.connector.clone() else {
            let _ = tx.send(Msg::Connected {
                generation,
                result: Err("switching needs a connection made by dynoscope itself".into()),
            });
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
            let _ = tx.send(Msg::Connected { generation, result });
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
    }

    /// Followed streams not yet stopped.
    pub fn running_streams(&self) -> usize {
        self.streams.running()
    }

    /// Cancels every read and stream and waits until their tasks have stopped: nothing keeps
    /// running.
    pub async fn shutdown(self) {
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

#[cfg(test)]
#[path = "effects_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "effects_write_tests.rs"]
mod write_tests;
