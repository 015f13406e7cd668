//! The local services: exports, the writer, the files (query history, column choices, path
//! completion and checks) and the timers.

use super::EffectRunner;
use crate::app::msg::{ExportEffect, FileEffect, FileMsg, Msg, TimeMsg, TimerEffect, WriteMsg};
use crate::aws::write::{WriteBackend, WriteFailure};
use crate::aws::{Backend, EngineError};
use crate::model::write::WritePlan;
use crate::tui::export::{check_path, complete_dirs};

impl<B: Backend, W: WriteBackend> EffectRunner<B, W> {
    pub(super) fn export(&mut self, effect: ExportEffect) {
        match effect {
            ExportEffect::ReadClock => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs());
                let _ = self.msg_tx.send(Msg::Time(TimeMsg::Clock(now)));
            }
            ExportEffect::Start(request) => self.exports.start(*request),
            ExportEffect::Finish(job) => self.exports.finish(job),
            ExportEffect::Cancel(job) => self.exports.cancel(job),
        }
    }

    /// Sends one plan through the writer; without one (writes off, or after a switch) the
    /// write is refused.
    pub(super) fn write(&mut self, write: u64, plan: WritePlan) {
        let tx = self.msg_tx.clone();
        match self.writer.clone() {
            Some(writer) => {
                tokio::spawn(async move {
                    let result = writer.write(plan).await;
                    let _ = tx.send(Msg::Write(WriteMsg::Written { write, result }));
                });
            }
            None => {
                let refused =
                    EngineError::bad_input("writes are off: start dynoscope with --allow-writes");
                let _ = tx.send(Msg::Write(WriteMsg::Written {
                    write,
                    result: Err(WriteFailure::refused(refused)),
                }));
            }
        }
    }

    pub(super) fn files(&mut self, effect: FileEffect) {
        let tx = self.msg_tx.clone();
        match effect {
            FileEffect::SaveHistory {
                endpoint,
                table,
                entries,
            } => {
                if let Some(writer) = &self.history {
                    writer.save(endpoint, table, entries);
                }
            }
            FileEffect::CompletePath(path) => {
                tokio::task::spawn_blocking(move || {
                    let dirs = complete_dirs(&path);
                    let _ = tx.send(Msg::Files(FileMsg::PathCompletions { path, dirs }));
                });
            }
            FileEffect::LoadColumns => {
                crate::tui::column_store::start_load(self.columns_file.clone(), tx)
            }
            FileEffect::SaveColumns { scope, choice } => match &self.columns {
                Some(writer) => writer.save(scope, choice),
                None => {
                    let line = "column choices are not saved: there is no state folder (set XDG_STATE_HOME or HOME); this one holds until dynoscope quits";
                    let _ = tx.send(Msg::Files(FileMsg::ColumnsNotSaved(line.into())));
                }
            },
            FileEffect::CheckExportPath { job, path } => {
                tokio::task::spawn_blocking(move || {
                    let result = check_path(&path);
                    let _ = tx.send(Msg::Files(FileMsg::ExportPathChecked { job, result }));
                });
            }
        }
    }

    pub(super) fn timer(&mut self, effect: TimerEffect) {
        match effect {
            TimerEffect::Debounce { generation, delay } => self.debouncer.poke(generation, delay),
            TimerEffect::After { timer, delay } => {
                let tx = self.msg_tx.clone();
                // Not cancelled: `update` ignores a timer whose generation has passed.
                tokio::spawn(async move {
                    tokio::time::sleep(delay).await;
                    let _ = tx.send(Msg::Time(TimeMsg::Timer(timer)));
                });
            }
        }
    }
}
