//! Performs what `update` asks for that needs the engine: list and describe tables, start and
//! cancel reads. Generic over the [`Backend`], so it is tested with the in-memory engine under
//! paused time; the terminal's own effects (copy, suspend, quit) go back to the loop.

use std::collections::HashMap;

use tokio::sync::mpsc;

use super::debounce::Debouncer;
use super::history_store::HistoryWriter;
use super::services::Connector;
use super::streams::{StreamNews, StreamTasks};
use crate::app::msg::{Effect, Msg};
use crate::aws::read::ReadHandle;
use crate::aws::{Backend, EngineEvent};

pub struct EffectRunner<B: Backend> {
    engine: B,
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
}

impl<B: Backend> EffectRunner<B> {
    /// Engine events go to `engine_tx`, background results and debounce timers to `msg_tx`.
    pub fn new(
        engine: B,
        engine_tx: mpsc::Sender<EngineEvent>,
        msg_tx: mpsc::UnboundedSender<Msg>,
    ) -> Self {
        EffectRunner {
            engine,
            engine_tx,
            debouncer: Debouncer::new(msg_tx.clone()),
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
                Effect::Copy(_) | Effect::Suspend | Effect::Quit => for_terminal.push(effect),
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
    }
}

#[cfg(test)]
#[path = "effects_tests.rs"]
mod tests;
