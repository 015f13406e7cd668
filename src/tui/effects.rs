//! Performs what `update` asks for that needs the engine: list and describe tables, start and
//! cancel reads. Generic over the [`Backend`], so it is tested with the in-memory engine under
//! paused time; the terminal's own effects (copy, suspend, quit) go back to the loop.

use std::collections::HashMap;

use tokio::sync::mpsc;

use super::debounce::Debouncer;
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
            streams: StreamTasks::default(),
        }
    }

    /// Followed streams send their news to `tx` (a bounded channel the loop reads).
    pub fn with_streams(mut self, tx: mpsc::Sender<StreamNews>) -> Self {
        self.streams = StreamTasks::new(Some(tx));
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
                Effect::StartStream { id, table, from } => {
                    self.streams.start(&self.engine, id, table, from)
                }
                Effect::StopStream(id) => self.streams.stop(id),
                Effect::Copy(_) | Effect::Suspend | Effect::Quit => for_terminal.push(effect),
            }
        }
        for_terminal
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
