//! The report tools: `hotkeys` (a Scan under the per-call cap, counted by partition key) and
//! `diagnose`, `metrics`, `insights` (CloudWatch and Contributor Insights, 0 RCU). Their
//! parameters, results and counting are in `reports.rs`.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use super::result::Json;
use tokio_util::sync::CancellationToken;

use super::reports::{
    self, DiagnoseResult, HotkeysParams, HotkeysResult, InsightsResult, MetricsResult, ReportParams,
};
use super::server::{engine_said, said, Refusal, Server};
use crate::aws::DoneOutcome;
use crate::cli::read_spec::index_keys;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

impl Server {
    async fn hotkeys_report(&self, p: &HotkeysParams) -> Result<HotkeysResult, Refusal> {
        let (top, segments) = reports::check_hotkeys(p)?;
        let live = self.live("hotkeys")?;
        let info = live
            .engine
            .describe_table(&p.table)
            .await
            .map_err(engine_said)?;
        let keys = index_keys(&info, p.index.as_deref()).map_err(said)?;
        let partition: Vec<String> = keys.partition().iter().map(|k| k.name.clone()).collect();
        let partition_key = partition.join(" + ");
        self.inner.budget.check()?;
        let mut spec = reports::hotkeys_spec(&info, p, segments);
        self.inner.budget.per_call(&mut spec);
        let counted = reports::count(&live.engine, spec, &partition, self.call()).await;
        self.refused_if_spent(counted.requests.is_empty(), counted.outcome)?;
        if let Some(e) = counted.failure {
            return Err(self.failed(e, counted.requests));
        }
        let complete = counted.outcome == Some(DoneOutcome::Complete);
        let d = &counted.distribution;
        let context = reports::context(&info, p.index.as_deref(), &partition_key);
        let note = (!complete).then(|| {
            let s = self.inner.budget.standing();
            format!(
                "this call's share of the read budget (at most --max-rcu-per-call {} RCU; {} RCU left of --max-rcu {}) ended the Scan before the end of the {}: the counts cover the {} items read, a sample from the start of each segment, not the whole key space",
                format_units(s.per_call),
                format_units(s.left),
                format_units(s.max),
                if p.index.is_some() { "index" } else { "table" },
                d.total_items()
            )
        });
        Ok(HotkeysResult {
            table: info.name.clone(),
            index: p.index.clone(),
            partition_key: partition_key.clone(),
            complete,
            distinct_keys: d.distinct_keys(),
            total_items: d.total_items(),
            total_bytes: d.total_bytes(),
            top_one_percent_share: d.top_one_percent_share(),
            top: reports::as_value(&d.top(top)),
            shard_families: reports::as_value(&d.shard_families()),
            warnings: reports::as_value(&d.warnings(&context)),
            note,
            source: self.source(),
            cost: self.cost(counted.requests),
        })
    }

    async fn metrics_report(&self, p: &ReportParams) -> Result<MetricsResult, Refusal> {
        let window = crate::cli::metrics::window(p.since(), p.period()).map_err(said)?;
        let live = self.live("metrics")?;
        let (_, report) = crate::cli::metrics::gather(&live.conn, &live.engine, &p.table, window)
            .await
            .map_err(said)?;
        let report = report.map_err(feature_said)?;
        Ok(MetricsResult {
            report: reports::as_value(&report),
            cost: self.cost(Vec::new()),
        })
    }

    async fn insights_report(&self, p: &ReportParams) -> Result<InsightsResult, Refusal> {
        let window = crate::cli::metrics::window(p.since(), p.period()).map_err(said)?;
        let live = self.live("insights")?;
        let info = live
            .engine
            .describe_table(&p.table)
            .await
            .map_err(engine_said)?;
        let (found, notes) =
            crate::cli::insights::collect(&live.conn, &live.engine, &info, window).await;
        let notes: Vec<String> = notes.iter().map(|n| unnoted(n)).collect();
        if found.is_empty() && !notes.is_empty() {
            // Nothing fetched: an empty report would read as "no insights".
            return Err(notes.join("; "));
        }
        Ok(InsightsResult {
            table: info.name.clone(),
            targets: reports::as_value(&found),
            notes,
            cost: self.cost(Vec::new()),
        })
    }

    async fn diagnose_report(&self, p: &ReportParams) -> Result<DiagnoseResult, Refusal> {
        use crate::aws::cloudwatch::FeatureError;
        use crate::model::traffic::diagnose::{diagnose, Evidence, IndexFacts};
        let window = crate::cli::metrics::window(p.since(), p.period()).map_err(said)?;
        let live = self.live("diagnose")?;
        let (info, metrics) =
            crate::cli::metrics::gather(&live.conn, &live.engine, &p.table, window)
                .await
                .map_err(said)?;
        let mut notes = Vec::new();
        let metrics = match metrics {
            Ok(m) => Some(m),
            Err(FeatureError::Denied(d)) => {
                notes.push(unnoted(&d.line()));
                None
            }
            Err(FeatureError::Failed(why)) => {
                notes.push(format!("{why}; the verdicts go without the metrics"));
                None
            }
        };
        let (insights, more) =
            crate::cli::insights::collect(&live.conn, &live.engine, &info, window).await;
        notes.extend(more.iter().map(|n| unnoted(n)));
        let indexes = IndexFacts::of_gsis(&info);
        let verdicts = diagnose(&Evidence {
            table_size_bytes: info.size_bytes,
            indexes: &indexes,
            metrics: metrics.as_ref(),
            insights: &insights,
            sampled: &[],
        });
        Ok(DiagnoseResult {
            table: info.name.clone(),
            throttling_now: verdicts.iter().any(|v| v.throttling_now),
            verdicts: reports::as_value(&verdicts),
            notes,
            cost: self.cost(Vec::new()),
        })
    }
}

/// A CloudWatch call denied or failed, as the tool's error line.
fn feature_said(e: crate::aws::cloudwatch::FeatureError) -> Refusal {
    unnoted(&e.to_string())
}

/// The headless commands' "note: " lines, as an agent reads them: a sentence.
fn unnoted(line: &str) -> String {
    sanitize(line.strip_prefix("note: ").unwrap_or(line)).into_owned()
}

#[tool_router(router = reports_router, vis = "pub(super)")]
impl Server {
    #[tool(
        description = "Hot keys of a table or index: Scan it (under the session's read budget; the call stops at its share and says so) and count its items and bytes by partition key value: the hottest keys with their share, write-shard families, and warnings. A budget-stopped count is a sample of the start of the key space. Use describe_table first to see the table's size."
    )]
    async fn hotkeys(
        &self,
        Parameters(p): Parameters<HotkeysParams>,
        cancel: CancellationToken,
    ) -> Result<Json<HotkeysResult>, Refusal> {
        let result = match &self.inner.export {
            Some(export) => self.export_hotkeys(export, &p, &cancel).await,
            None => self.for_call(&cancel).hotkeys_report(&p).await,
        };
        self.logged("hotkeys", &p, result)
    }

    #[tool(
        description = "Diagnose a table: its CloudWatch metrics, Contributor Insights and description turned into verdicts (throttling by cause, hot keys, a GSI back-pressuring writes, on-demand limits), each with its evidence. Reads no items (0 RCU); CloudWatch's GetMetricData is billed per metric by AWS."
    )]
    async fn diagnose(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<DiagnoseResult>, Refusal> {
        let result = self.diagnose_report(&p).await;
        self.logged("diagnose", &p, result)
    }

    #[tool(
        description = "CloudWatch metrics of a table and each GSI over a window (default the last 3h at 60 s): consumed and provisioned capacity, throttle events by cause, latency and throttled requests per operation. Reads no items (0 RCU); one GetMetricData call per 500 series."
    )]
    async fn metrics(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<MetricsResult>, Refusal> {
        let result = self.metrics_report(&p).await;
        self.logged("metrics", &p, result)
    }

    #[tool(
        description = "Contributor Insights of a table and each GSI: on or off, its mode, and its rules' most accessed and most throttled keys with count and share. Never enables it (it is billed); when off, says the command that does. Reads no items (0 RCU)."
    )]
    async fn insights(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<InsightsResult>, Refusal> {
        let result = self.insights_report(&p).await;
        self.logged("insights", &p, result)
    }
}
