//! The tools. Each validates its arguments as the matching headless command does, reserves
//! its share of the session budget before sending a read, and answers with structured content
//! (an output schema each) that carries the call's cost; errors are tool errors (`isError`)
//! of one line an agent can act on. No tool writes: there is no write tool in any mode.

use std::collections::BTreeMap;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, Json, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::budget::{Reservation, SessionBudget};
use super::cursor::Cursors;
use super::page::{self, RequestCost, DEFAULT_PAGE_ITEMS, MAX_PAGE_ITEMS};
use super::reports::{
    self, DiagnoseResult, HotkeysParams, HotkeysResult, InsightsResult, MetricsResult, ReportParams,
};
use super::wording::agent_words;
use super::McpArgs;
use crate::aws::read::SegmentStart;
use crate::aws::{Connection, DoneOutcome, Engine, EngineError, ReadSpec};
use crate::cli::args::{QueryArgs, ReadArgs, SortArgs};
use crate::cli::output::OutputFormat;
use crate::cli::read_cmd::query_specs;
use crate::cli::read_spec::{index_keys, key_columns};
use crate::cli::CliError;
use crate::model::json::to_safe_json;
use crate::model::partiql::{
    advise, explain, parse, parse_parameters_from, refusal, translate, untranslated_reason,
    write_refusal, Advice, ErrorKind, Explained, ReadKind, Statement,
};
use crate::model::read_cause::ReadCause;
use crate::model::sanitize::sanitize;
use crate::model::value::AttrValue;

#[derive(Clone)]
pub struct Server {
    inner: std::sync::Arc<Inner>,
    tool_router: ToolRouter<Self>,
}

struct Inner {
    engine: Engine,
    /// CloudWatch for diagnose, metrics and insights.
    conn: Connection,
    budget: SessionBudget,
    cursors: Cursors,
    rcu_per_second: Option<f64>,
}

/// What a call cost and what the session has left.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cost {
    /// Every read request this call sent, in order.
    pub requests: Vec<RequestCost>,
    /// Read units this call consumed.
    pub call_rcu: f64,
    /// Read units the session has consumed, this call included.
    pub session_rcu: f64,
    /// The session's budget (--max-rcu) and what is left of it.
    pub budget_rcu: f64,
    pub budget_left_rcu: f64,
    /// The most one call may consume (--max-rcu-per-call).
    pub per_call_cap_rcu: f64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TablesResult {
    pub tables: Vec<String>,
    pub cost: Cost,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DescribeResult {
    /// Keys, attribute types, indexes (keys, projection, size), billing, size, TTL, stream.
    pub table: Value,
    pub cost: Cost,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ItemsResult {
    /// Query, Scan or ExecuteStatement.
    pub operation: String,
    pub table: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// The items as plain JSON: numbers exact (all 38 digits), binary as base64, sets as
    /// arrays, NULL as null.
    pub items: Vec<Value>,
    pub count: usize,
    /// Pass it back (with the same arguments) for the next page; absent when the read is
    /// complete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// Why the page ended: "complete", "page_full" (limit or byte cap), or "budget" (the
    /// call's share of the read budget is spent; the cursor continues it).
    pub stopped: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub cost: Cost,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainResult {
    /// Query or Scan: what the statement reads.
    pub reads: String,
    /// The plan, the estimated cost, the index that serves it, and the request in every
    /// dialect (aws-cli, PartiQL, boto3, JavaScript v3, aws-sdk-rust).
    pub explanation: String,
    pub cost: Cost,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    /// The table's name.
    pub table: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryParams {
    pub table: String,
    /// The partition key value of the item collection (typed by the key's attribute type:
    /// numbers as text, binary as base64).
    pub pk: String,
    /// A GSI or LSI to query instead of the table; pk and the sort conditions are its keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// At most one sort-key condition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_eq: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_lt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_le: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_gt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_ge: Option<String>,
    /// [low, high], inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_between: Option<[String; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_begins_with: Option<String>,
    /// Highest sort key first.
    #[serde(default)]
    pub descending: bool,
    /// FilterExpression (applied after the read: it does not lower the cost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// ProjectionExpression.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<String>,
    /// ExpressionAttributeNames, e.g. {"#s": "status"}.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<BTreeMap<String, String>>,
    /// ExpressionAttributeValues as plain JSON, e.g. {":s": "SHIPPED", ":n": 5}.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<serde_json::Map<String, Value>>,
    /// Strongly consistent (twice the cost; not on a GSI).
    #[serde(default)]
    pub consistent: bool,
    /// Items in this page (default 50, at most 500; a page also stops at 256 KB).
    #[serde(default, skip_serializing)]
    pub limit: Option<usize>,
    /// The cursor of the previous page.
    #[serde(default, skip_serializing)]
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PartiqlParams {
    /// One PartiQL SELECT, e.g. SELECT * FROM "app" WHERE PK = ?
    pub statement: String,
    /// One value per ?, plain JSON ("a", 5) or DynamoDB JSON ({"S": "a"}).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Vec<Value>>,
    /// Run a statement that scans (under the budget), or send one that cannot be translated
    /// as ExecuteStatement.
    #[serde(default)]
    pub allow_scan: bool,
    /// Items in this page (default 50, at most 500; a page also stops at 256 KB).
    #[serde(default, skip_serializing)]
    pub limit: Option<usize>,
    /// The cursor of the previous page.
    #[serde(default, skip_serializing)]
    pub cursor: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainParams {
    /// One PartiQL SELECT.
    pub statement: String,
    /// One value per ?, plain JSON or DynamoDB JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Vec<Value>>,
}

/// A tool error: one line.
type Refusal = String;

fn said(e: CliError) -> Refusal {
    agent_words(&e.message)
}

fn engine_said(e: EngineError) -> Refusal {
    agent_words(&e.message)
}

fn page_items(limit: Option<usize>) -> Result<usize, Refusal> {
    match limit {
        None => Ok(DEFAULT_PAGE_ITEMS),
        Some(n) if (1..=MAX_PAGE_ITEMS).contains(&n) => Ok(n),
        Some(n) => Err(format!(
            "limit '{n}' is out of range; use 1 to {MAX_PAGE_ITEMS} items per page, and the cursor for more"
        )),
    }
}

impl Server {
    pub fn new(engine: Engine, conn: Connection, args: &McpArgs) -> Self {
        Server {
            inner: std::sync::Arc::new(Inner {
                engine,
                conn,
                budget: SessionBudget::new(args.max_rcu, args.max_rcu_per_call),
                cursors: Cursors::default(),
                rcu_per_second: args.rcu_per_second,
            }),
            tool_router: Self::tool_router(),
        }
    }

    fn cost(&self, requests: Vec<RequestCost>) -> Cost {
        let standing = self.inner.budget.standing();
        Cost {
            call_rcu: requests.iter().map(|r| r.consumed_rcu).sum(),
            requests,
            session_rcu: standing.spent,
            budget_rcu: standing.max,
            budget_left_rcu: standing.left,
            per_call_cap_rcu: standing.per_call,
        }
    }

    /// Logs one call: the tool, its arguments, the requests it sent, what they cost, and the
    /// error line if it failed.
    fn log<T: Serialize>(&self, tool: &str, args: &T, cost: Option<&Cost>, error: Option<&str>) {
        let arguments = to_safe_json(args, false);
        let standing = self.inner.budget.standing();
        match (cost, error) {
            (_, Some(error)) => tracing::info!(
                tool,
                %arguments,
                session_rcu = standing.spent,
                error,
                "mcp call refused or failed"
            ),
            (Some(cost), None) => tracing::info!(
                tool,
                %arguments,
                requests = %to_safe_json(&cost.requests, false),
                call_rcu = cost.call_rcu,
                session_rcu = cost.session_rcu,
                budget_left_rcu = cost.budget_left_rcu,
                "mcp call"
            ),
            (None, None) => tracing::info!(tool, %arguments, "mcp call"),
        }
    }

    /// Runs `spec` under a reservation of the session budget, then settles it.
    async fn read(&self, mut spec: ReadSpec) -> Result<page::ReadOutcome, Refusal> {
        let reservation: Reservation = self.inner.budget.reserve(spec.consistent)?;
        spec.max_rcu = Some(reservation.guard_max);
        spec.rcu_per_second = self.inner.rcu_per_second;
        let outcome = page::run(&self.inner.engine, spec).await;
        self.inner.budget.settle(reservation, outcome.consumed);
        Ok(outcome)
    }

    /// A single-segment read, one page: from the cursor, cut to the caps, with the cursor for
    /// the next page.
    async fn paged(
        &self,
        mut spec: ReadSpec,
        key_names: Vec<String>,
        scope: &str,
        limit: Option<usize>,
        cursor: Option<&str>,
    ) -> Result<ItemsResult, Refusal> {
        let items = page_items(limit)?;
        if let Some(cursor) = cursor {
            let start = self.inner.cursors.decode(scope, cursor)?;
            spec.starts = vec![SegmentStart::After(start)];
        }
        spec.limit = Some(items);
        spec.key_attributes = key_names.clone();
        let (operation, table, index) = (
            spec.operation.as_str().to_string(),
            spec.table.clone(),
            spec.index.clone(),
        );
        let read = self.read(spec).await?;
        if let Some(e) = read.failure {
            return Err(self.failed(e, read.requests));
        }
        let (values, cut) = page::to_values(&read.items);
        let next = if cut {
            read.items
                .get(values.len().wrapping_sub(1))
                .map(|last| page::key_of(last, &key_names))
        } else {
            match read.resume {
                Some(SegmentStart::After(key)) => Some(key),
                Some(SegmentStart::Finished) => None,
                // A page cut short whose keys are unknown: continue after its last item.
                Some(SegmentStart::Beginning) | None => {
                    read.items.last().map(|last| page::key_of(last, &key_names))
                }
            }
        };
        let budget_stop = read.outcome == Some(DoneOutcome::BudgetReached);
        // A read the budget stopped before it delivered anything continues where it started.
        let next = match (next, budget_stop, cursor) {
            (None, true, Some(c)) if read.items.is_empty() => {
                Some(self.inner.cursors.decode(scope, c)?)
            }
            (next, _, _) => next,
        };
        let stopped = match (&next, budget_stop) {
            (None, _) => "complete",
            (Some(_), true) => "budget",
            (Some(_), false) => "page_full",
        };
        let note = budget_stop.then(|| {
            let s = self.inner.budget.standing();
            format!(
                "this call's share of the read budget was spent (per call at most --max-rcu-per-call {} RCU, {} RCU left in the session of --max-rcu {}); call again with the cursor to continue",
                crate::model::capacity::format_units(s.per_call),
                crate::model::capacity::format_units(s.left),
                crate::model::capacity::format_units(s.max)
            )
        });
        Ok(ItemsResult {
            operation,
            table,
            index,
            count: values.len(),
            items: values,
            cursor: next.map(|key| self.inner.cursors.encode(scope, &key)),
            stopped: stopped.to_string(),
            note,
            cost: self.cost(read.requests),
        })
    }

    /// A failed read's line, with what it cost before it failed.
    fn failed(&self, e: EngineError, requests: Vec<RequestCost>) -> Refusal {
        let cost = self.cost(requests);
        format!(
            "{} (this call consumed {} RCU; the session {} of {})",
            engine_said(e),
            crate::model::capacity::format_units(cost.call_rcu),
            crate::model::capacity::format_units(cost.session_rcu),
            crate::model::capacity::format_units(cost.budget_rcu)
        )
    }

    /// Logs the call's result or error and hands it back.
    fn logged<A: Serialize, T: Serialize + HasCost>(
        &self,
        tool: &str,
        args: &A,
        result: Result<T, Refusal>,
    ) -> Result<Json<T>, Refusal> {
        match &result {
            Ok(r) => self.log(tool, args, Some(r.cost()), None),
            Err(e) => self.log(tool, args, None, Some(e)),
        }
        result.map(Json)
    }

    async fn query_page(&self, p: &QueryParams) -> Result<ItemsResult, Refusal> {
        let items = page_items(p.limit)?;
        let sorts = [
            p.sk_eq.is_some(),
            p.sk_lt.is_some(),
            p.sk_le.is_some(),
            p.sk_gt.is_some(),
            p.sk_ge.is_some(),
            p.sk_between.is_some(),
            p.sk_begins_with.is_some(),
        ];
        if sorts.iter().filter(|&&s| s).count() > 1 {
            return Err(
                "give at most one sort-key condition (sk_eq, sk_lt, sk_le, sk_gt, sk_ge, sk_between or sk_begins_with)".into(),
            );
        }
        let args = QueryArgs {
            table: p.table.clone(),
            pk: Some(p.pk.clone()),
            sort: SortArgs {
                sk_eq: p.sk_eq.clone(),
                sk_lt: p.sk_lt.clone(),
                sk_le: p.sk_le.clone(),
                sk_gt: p.sk_gt.clone(),
                sk_ge: p.sk_ge.clone(),
                sk_between: p.sk_between.clone().map(Vec::from),
                sk_begins: p.sk_begins_with.clone(),
            },
            desc: p.descending,
            pk_shards: None,
            key_condition_expression: None,
            read: ReadArgs {
                index: p.index.clone(),
                limit: Some(items),
                consistent: p.consistent,
                filter: p.filter.clone(),
                projection: p.projection.clone(),
                names: p.names.as_ref().map(|n| to_safe_json(n, false)),
                values: p.values.as_ref().map(|v| to_safe_json(v, false)),
                expression_attribute_values: None,
                output: OutputFormat::Jsonl,
                columns: None,
                stats: false,
                page_size: None,
                max_rcu: None,
                rcu_per_second: None,
            },
        };
        let mut specs = query_specs(&self.inner.engine, &args).await.map_err(said)?;
        let mut spec = specs.specs.pop().ok_or("no request was built")?;
        // The agent asked for this read, not a person at a prompt: the log says so.
        spec.cause = ReadCause::AgentCall;
        let scope = format!("query {}", to_safe_json(p, false));
        self.paged(spec, specs.key_names, &scope, p.limit, p.cursor.as_deref())
            .await
    }

    async fn partiql_page(&self, p: &PartiqlParams) -> Result<ItemsResult, Refusal> {
        let items = page_items(p.limit)?;
        let parameters = parameters(p.parameters.as_deref())?;
        let select = match parse(&p.statement) {
            Ok(Statement::Write(verb)) => return Err(write_refusal(&verb)),
            Ok(Statement::Select(select)) => select,
            Err(e) if e.kind == ErrorKind::Unsupported => {
                return self.untranslated(p, parameters, &e.message, None).await
            }
            Err(e) => return Err(agent_words(&e.message)),
        };
        let info = self
            .inner
            .engine
            .describe_table(&select.table)
            .await
            .map_err(engine_said)?;
        let plan = match translate(&select, &parameters, &info) {
            Ok(plan) => plan,
            Err(e) if e.kind == ErrorKind::Unsupported => {
                return self
                    .untranslated(p, parameters, &e.message, Some(&select.table))
                    .await
            }
            Err(e) => return Err(agent_words(&e.message)),
        };
        if plan.kind == ReadKind::Scan && !p.allow_scan {
            let advice = advise(&select, &plan, &info, &[]);
            return Err(agent_words(&sanitize(&refusal(&plan, &info, &advice))));
        }
        let key_names = key_columns(&info, plan.index.as_deref());
        let mut spec = crate::aws::plan_read(&plan);
        if plan.queries.is_empty() {
            let scope = format!("partiql {}", to_safe_json(p, false));
            return self
                .paged(spec, key_names, &scope, p.limit, p.cursor.as_deref())
                .await;
        }
        // Several Queries merged in sort-key order (an IN or an OR of keys): one page of the
        // merge, each Query asked for that many items. No cursor: a narrower statement or a
        // larger limit reads more.
        if p.cursor.is_some() {
            return Err("this statement reads several Queries merged in sort-key order, which has no cursor; leave cursor out and raise limit, or narrow the statement to one key".into());
        }
        spec.limit = Some(items);
        let read = self.read(spec).await?;
        if let Some(e) = read.failure {
            return Err(self.failed(e, read.requests));
        }
        let mut merged = plan.merge(read.per_segment.clone());
        let more = merged.len() > items || read.finished.iter().any(|f| !f);
        merged.truncate(items);
        let (values, cut) = page::to_values(&merged);
        let budget_stop = read.outcome == Some(DoneOutcome::BudgetReached);
        Ok(ItemsResult {
            operation: "Query".into(),
            table: plan.table.clone(),
            index: plan.index.clone(),
            count: values.len(),
            items: values,
            cursor: None,
            stopped: match (more || cut, budget_stop) {
                (false, _) => "complete",
                (true, true) => "budget",
                (true, false) => "page_full",
            }
            .into(),
            note: (more || cut).then(|| {
                "more items match: this merge of several Queries has no cursor; raise limit or narrow the statement".to_string()
            }),
            cost: self.cost(read.requests),
        })
    }

    /// A SELECT dynoscope does not translate: sent as ExecuteStatement only with allow_scan.
    async fn untranslated(
        &self,
        p: &PartiqlParams,
        parameters: Vec<AttrValue>,
        reason: &str,
        table: Option<&str>,
    ) -> Result<ItemsResult, Refusal> {
        let why = untranslated_reason(reason);
        if !p.allow_scan {
            return Err(format!(
                "{why}, and it may read the whole table; set allow_scan: true to send it anyway (under the read budget)"
            ));
        }
        if p.cursor.is_some() {
            return Err("a statement sent as ExecuteStatement has no cursor here; leave cursor out and raise limit".into());
        }
        let items = page_items(p.limit)?;
        let mut spec = ReadSpec::statement(
            table.unwrap_or_default(),
            &p.statement,
            parameters,
            ReadCause::AgentCall,
        );
        spec.limit = Some(items);
        let read = self.read(spec).await?;
        if let Some(e) = read.failure {
            return Err(self.failed(e, read.requests));
        }
        let (values, cut) = page::to_values(&read.items);
        let more = cut || read.finished.iter().any(|f| !f);
        Ok(ItemsResult {
            operation: "ExecuteStatement".into(),
            table: table.unwrap_or_default().to_string(),
            index: None,
            count: values.len(),
            items: values,
            cursor: None,
            stopped: if more { "page_full" } else { "complete" }.into(),
            note: Some(format!("{why}; it was sent as ExecuteStatement")),
            cost: self.cost(read.requests),
        })
    }

    async fn explain_text(&self, p: &ExplainParams) -> Result<ExplainResult, Refusal> {
        let parameters = parameters(p.parameters.as_deref())?;
        let select = match parse(&p.statement) {
            Ok(Statement::Write(verb)) => return Err(write_refusal(&verb)),
            Ok(Statement::Select(select)) => select,
            Err(e) => return Err(agent_words(&e.message)),
        };
        let info = self
            .inner
            .engine
            .describe_table(&select.table)
            .await
            .map_err(engine_said)?;
        let plan = translate(&select, &parameters, &info).map_err(|e| agent_words(&e.message))?;
        let advice = match plan.kind {
            ReadKind::Scan => advise(&select, &plan, &info, &[]),
            ReadKind::Query => Advice::None,
        };
        let text = explain(&Explained {
            select: &select,
            parameters: &parameters,
            plan: &plan,
            info: &info,
            advice: &advice,
            limit: None,
        });
        Ok(ExplainResult {
            reads: match plan.kind {
                ReadKind::Query => "Query",
                ReadKind::Scan => "Scan",
            }
            .into(),
            explanation: text
                .lines()
                .map(|l| sanitize(l).into_owned())
                .collect::<Vec<_>>()
                .join("\n"),
            cost: self.cost(Vec::new()),
        })
    }
}

impl Server {
    async fn hotkeys_report(&self, p: &HotkeysParams) -> Result<HotkeysResult, Refusal> {
        let (top, segments) = reports::check_hotkeys(p)?;
        let info = self
            .inner
            .engine
            .describe_table(&p.table)
            .await
            .map_err(engine_said)?;
        let keys = index_keys(&info, p.index.as_deref()).map_err(said)?;
        let partition_key = keys.partition_key.name.clone();
        let reservation = self.inner.budget.reserve(false)?;
        let mut spec = reports::hotkeys_spec(&info, p, segments, reservation.guard_max);
        spec.rcu_per_second = self.inner.rcu_per_second;
        let counted = reports::count(&self.inner.engine, spec, &partition_key).await;
        self.inner.budget.settle(reservation, counted.consumed);
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
                crate::model::capacity::format_units(s.per_call),
                crate::model::capacity::format_units(s.left),
                crate::model::capacity::format_units(s.max),
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
            cost: self.cost(counted.requests),
        })
    }

    async fn metrics_report(&self, p: &ReportParams) -> Result<MetricsResult, Refusal> {
        let window = crate::cli::metrics::window(p.since(), p.period()).map_err(said)?;
        let (_, report) =
            crate::cli::metrics::gather(&self.inner.conn, &self.inner.engine, &p.table, window)
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
        let info = self
            .inner
            .engine
            .describe_table(&p.table)
            .await
            .map_err(engine_said)?;
        let (found, notes) =
            crate::cli::insights::collect(&self.inner.conn, &self.inner.engine, &info, window)
                .await;
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
        use crate::model::diagnose::{diagnose, Evidence, IndexFacts};
        let window = crate::cli::metrics::window(p.since(), p.period()).map_err(said)?;
        let (info, metrics) =
            crate::cli::metrics::gather(&self.inner.conn, &self.inner.engine, &p.table, window)
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
            crate::cli::insights::collect(&self.inner.conn, &self.inner.engine, &info, window)
                .await;
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

fn parameters(values: Option<&[Value]>) -> Result<Vec<AttrValue>, Refusal> {
    match values {
        None => Ok(Vec::new()),
        Some(v) => parse_parameters_from(&to_safe_json(&v, false), "parameters")
            .map_err(|e| agent_words(&e.message)),
    }
}

trait HasCost {
    fn cost(&self) -> &Cost;
}

macro_rules! has_cost {
    ($($t:ty),*) => {$(
        impl HasCost for $t {
            fn cost(&self) -> &Cost {
                &self.cost
            }
        }
    )*};
}
has_cost!(
    TablesResult,
    DescribeResult,
    ItemsResult,
    ExplainResult,
    HotkeysResult,
    DiagnoseResult,
    MetricsResult,
    InsightsResult
);

#[tool_router]
impl Server {
    #[tool(
        description = "List the DynamoDB tables in this account and region. Reads no items (0 RCU).",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn list_tables(
        &self,
        Parameters(p): Parameters<NoParams>,
    ) -> Result<Json<TablesResult>, Refusal> {
        let result = match self.inner.engine.list_tables().await {
            Ok(names) => Ok(TablesResult {
                tables: names,
                cost: self.cost(Vec::new()),
            }),
            Err(e) => Err(engine_said(e)),
        };
        self.logged("list_tables", &p, result)
    }

    #[tool(
        description = "Describe a table: key schema, attribute types, GSIs and LSIs (keys, projection, size), billing mode, size, TTL and stream. Reads no items (0 RCU).",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn describe_table(
        &self,
        Parameters(p): Parameters<DescribeParams>,
    ) -> Result<Json<DescribeResult>, Refusal> {
        let result = match self.inner.engine.describe_table(&p.table).await {
            Ok(info) => Ok(DescribeResult {
                table: serde_json::from_str(&to_safe_json(&info, false)).unwrap_or(Value::Null),
                cost: self.cost(Vec::new()),
            }),
            Err(e) => Err(engine_said(e)),
        };
        self.logged("describe_table", &p, result)
    }

    #[tool(
        description = "Query one item collection (a partition key value) of a table or index, one page at a time: typed sort-key condition, filter, projection, order. Validated as DynamoDB would before anything is sent; each page is read under the session's read budget and says what it cost. Pass the returned cursor for the next page.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn query(
        &self,
        Parameters(p): Parameters<QueryParams>,
    ) -> Result<Json<ItemsResult>, Refusal> {
        let result = self.query_page(&p).await;
        self.logged("query", &p, result)
    }

    #[tool(
        description = "Run a PartiQL SELECT as the Query it means, one page at a time. A statement that would scan the table is refused with its estimated cost and the index that would serve it, unless allow_scan is set; then the Scan runs under the read budget. Writes are refused. Pass the returned cursor for the next page.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn partiql(
        &self,
        Parameters(p): Parameters<PartiqlParams>,
    ) -> Result<Json<ItemsResult>, Refusal> {
        let result = self.partiql_page(&p).await;
        self.logged("partiql", &p, result)
    }

    #[tool(
        description = "Explain a PartiQL SELECT without reading it: the Query or Scan it means, its estimated cost, the index that serves a scan-shaped statement, and the exact request as an aws-cli command, PartiQL, boto3, JavaScript v3 and aws-sdk-rust. Sends only DescribeTable (0 RCU).",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn explain(
        &self,
        Parameters(p): Parameters<ExplainParams>,
    ) -> Result<Json<ExplainResult>, Refusal> {
        let result = self.explain_text(&p).await;
        self.logged("explain", &p, result)
    }

    #[tool(
        description = "Hot keys of a table or index: Scan it (under the session's read budget; the call stops at its share and says so) and count its items and bytes by partition key value: the hottest keys with their share, write-shard families, and warnings. A budget-stopped count is a sample of the start of the key space. Use describe_table first to see the table's size.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn hotkeys(
        &self,
        Parameters(p): Parameters<HotkeysParams>,
    ) -> Result<Json<HotkeysResult>, Refusal> {
        let result = self.hotkeys_report(&p).await;
        self.logged("hotkeys", &p, result)
    }

    #[tool(
        description = "Diagnose a table: its CloudWatch metrics, Contributor Insights and description turned into verdicts (throttling by cause, hot keys, a GSI back-pressuring writes, on-demand limits), each with its evidence. Reads no items (0 RCU); CloudWatch's GetMetricData is billed per metric by AWS.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn diagnose(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<DiagnoseResult>, Refusal> {
        let result = self.diagnose_report(&p).await;
        self.logged("diagnose", &p, result)
    }

    #[tool(
        description = "CloudWatch metrics of a table and each GSI over a window (default the last 3h at 60 s): consumed and provisioned capacity, throttle events by cause, latency and throttled requests per operation. Reads no items (0 RCU); one GetMetricData call per 500 series.",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn metrics(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<MetricsResult>, Refusal> {
        let result = self.metrics_report(&p).await;
        self.logged("metrics", &p, result)
    }

    #[tool(
        description = "Contributor Insights of a table and each GSI: on or off, its mode, and its rules' most accessed and most throttled keys with count and share. Never enables it (it is billed); when off, says the command that does. Reads no items (0 RCU).",
        annotations(
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn insights(
        &self,
        Parameters(p): Parameters<ReportParams>,
    ) -> Result<Json<InsightsResult>, Refusal> {
        let result = self.insights_report(&p).await;
        self.logged("insights", &p, result)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("dynoscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Read-only DynamoDB tools with a read budget for the whole session. Start with list_tables and describe_table (free), then query an item collection by its partition key; use explain before a PartiQL statement you are unsure of. Every result carries its cost and the budget left; pages are bounded, so follow the cursor only as far as you need.",
            )
    }
}
