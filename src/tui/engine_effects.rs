//! The engine's services: the table list and descriptions, reads (plain and tee'd into a
//! streaming export), and the live pane's streams.

use super::EffectRunner;
use crate::app::msg::{LiveEffect, MetricsEffect, Msg, ReadEffect, TableEffect, TableMsg};
use crate::aws::cloudwatch::FeatureError;
use crate::aws::pattern_check::reader::Tap;
use crate::aws::pattern_check::{check_pattern, OnBehalf};
use crate::aws::write::WriteBackend;
use crate::aws::Backend;
use crate::model::traffic::metrics::Window;
use crate::tui::services::WindowSource;

impl<B: Backend, W: WriteBackend> EffectRunner<B, W> {
    pub(super) fn tables(&mut self, effect: TableEffect) {
        let (engine, tx) = (self.engine.clone(), self.msg_tx.clone());
        match effect {
            TableEffect::List => {
                tokio::spawn(async move {
                    let result = engine.list_tables().await.map_err(|e| e.message);
                    let _ = tx.send(Msg::Tables(TableMsg::Listed(result)));
                });
            }
            TableEffect::Describe(table) => {
                tokio::spawn(async move {
                    let result = engine.describe_table(&table).await.map_err(|e| e.message);
                    let _ = tx.send(Msg::Tables(TableMsg::Described { table, result }));
                });
            }
        }
    }

    pub(super) fn read(&mut self, effect: ReadEffect) {
        match effect {
            ReadEffect::Start { id, spec } => {
                self.reads.retain(|_, h| !h.is_finished());
                let handle = self
                    .engine
                    .start_read_with_id(id, *spec, self.engine_tx.clone());
                self.reads.insert(id, handle);
            }
            ReadEffect::Cancel(id) => {
                if let Some(handle) = self.reads.get(&id) {
                    handle.cancel();
                }
                if let Some((stop, _)) = self.checks.get(&id) {
                    stop.cancel();
                }
            }
            ReadEffect::Tee { job, id, spec } => {
                self.reads.retain(|_, h| !h.is_finished());
                let handle =
                    self.exports
                        .tee_read(&self.engine, job, id, *spec, self.engine_tx.clone());
                self.reads.insert(id, handle);
            }
            ReadEffect::CheckPattern {
                id,
                info,
                pattern,
                calls,
                max_rcu,
            } => {
                // `patterns check`'s own code, through the session's engine and its guard,
                // under its own bound; its pages are copied to the engine channel as request
                // `id`, so the request log and the session's cost count them.
                self.checks.retain(|_, (_, task)| !task.is_finished());
                let (engine, tx) = (self.engine.clone(), self.msg_tx.clone());
                let cancel = tokio_util::sync::CancellationToken::new();
                let on_behalf = OnBehalf {
                    max_rcu,
                    cancel: cancel.clone(),
                    tap: Some(Tap {
                        id,
                        tx: self.engine_tx.clone(),
                    }),
                };
                let task = tokio::spawn(async move {
                    let checked = check_pattern(&engine, &info, &pattern, calls, on_behalf).await;
                    let _ = tx.send(Msg::PatternChecked {
                        table: info.name.clone(),
                        pattern: pattern.name.clone(),
                        result: checked.report.map(Box::new).map_err(|e| e.message),
                        spent_rcu: checked.spent_rcu,
                        stopped: checked.stopped,
                    });
                });
                self.checks.insert(id, (cancel, task));
            }
        }
    }

    pub(super) fn live(&mut self, effect: LiveEffect) {
        match effect {
            LiveEffect::Start { id, table, from } => {
                self.streams.start(&self.engine, id, table, from)
            }
            LiveEffect::Stop(id) => self.streams.stop(id),
        }
    }

    /// One GetMetricData batch, or Contributor Insights, over the `since_secs` up to now, off
    /// the terminal thread; the answer comes back as `Msg::Metrics`/`Msg::Insights` with its id.
    pub(super) fn metrics(&mut self, effect: MetricsEffect) {
        let tx = self.msg_tx.clone();
        match effect {
            MetricsEffect::Fetch {
                id,
                table,
                gsis,
                since_secs,
                period,
            } => {
                let source = self.metrics.clone();
                tokio::spawn(async move {
                    let asked = Asked {
                        table,
                        gsis,
                        since_secs,
                        period,
                    };
                    let result = asked
                        .of(source, "no CloudWatch client in this session", |why| {
                            Err(FeatureError::Failed(why))
                        })
                        .await;
                    let _ = tx.send(Msg::Metrics { id, result });
                });
            }
            MetricsEffect::Insights {
                id,
                table,
                gsis,
                since_secs,
                period,
            } => {
                let source = self.insights.clone();
                tokio::spawn(async move {
                    let asked = Asked {
                        table,
                        gsis,
                        since_secs,
                        period,
                    };
                    let (found, problems) = asked
                        .of(
                            source,
                            "no Contributor Insights client in this session",
                            |why| (Vec::new(), vec![FeatureError::Failed(why)]),
                        )
                        .await;
                    let _ = tx.send(Msg::Insights {
                        id,
                        found,
                        problems,
                    });
                });
            }
        }
    }
}

/// What a metrics effect asks about: a table and its GSIs over the last `since_secs`.
struct Asked {
    table: String,
    gsis: Vec<String>,
    since_secs: u64,
    period: u32,
}

impl Asked {
    /// `source`'s answer; without a source (`missing` says so) or a window, `unanswered`
    /// turns why into the answer.
    async fn of<T>(
        self,
        source: Option<WindowSource<T>>,
        missing: &str,
        unanswered: impl FnOnce(String) -> T,
    ) -> T {
        match (source, window(self.since_secs, self.period)) {
            (None, _) => unanswered(missing.to_string()),
            (_, Err(why)) => unanswered(why),
            (Some(source), Ok(window)) => source(self.table, self.gsis, window).await,
        }
    }
}

/// The `since_secs` up to now.
fn window(since_secs: u64, period: u32) -> Result<Window, String> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Window::ending(now, since_secs, period)
}
