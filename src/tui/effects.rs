//! Performs what `update` asks for that needs the engine: list and describe tables, start and
//! cancel reads. Generic over the [`Backend`], so it is tested with the in-memory engine under
//! paused time; the terminal's own effects (copy, suspend, quit) go back to the loop.

use std::collections::HashMap;

use tokio::sync::mpsc;

use super::debounce::Debouncer;
use super::export::{check_path, complete_dirs, Exports};
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
        }
    }

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
                                result: Err(WriteFailure::Failed(refused)),
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

    /// Reads started and not yet known to have stopped.
    pub fn running_reads(&self) -> usize {
        self.reads.values().filter(|h| !h.is_finished()).count()
    }

    /// Cancels every read and waits until its tasks have stopped: nothing keeps running.
    pub async fn shutdown(self) {
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
