//! The server: its state (the engine under the session's budget, CloudWatch, the cursors'
//! key), what every tool shares (the cost a result carries, the log line of each call, a read
//! under the budget, one bounded page with its cursor), and the tool routers of `schema.rs`,
//! `reads.rs`, `explain.rs` and `report_tools.rs` put together, every tool annotated
//! read-only in one place. No tool writes: there is no write tool in any mode.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, ToolAnnotations};
use rmcp::{tool_handler, ServerHandler};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::budget::Budget;
use super::cursor::Cursors;
use super::explain::ExplainResult;
use super::page::{self, RequestCost, DEFAULT_PAGE_ITEMS, MAX_PAGE_ITEMS};
use super::reads::ItemsResult;
use super::reports::{DiagnoseResult, HotkeysResult, InsightsResult, MetricsResult};
use super::result::Json;
use super::schema::{DescribeResult, TablesResult};
use super::wording::agent_words;
use super::McpArgs;
use crate::aws::table_export::ExportBackend;
use crate::aws::{Backend, Connection, DoneOutcome, Engine, EngineError, ReadSpec};
use crate::cli::CliError;
use crate::model::formats::json::to_safe_json;
use crate::model::item::value::AttrValue;
use crate::model::query::partiql::parse_parameters_from;
use crate::model::traffic::capacity::format_units;

#[derive(Clone)]
pub struct Server {
    pub(super) inner: std::sync::Arc<Inner>,
    tool_router: ToolRouter<Self>,
    /// The call this copy serves ([`Server::for_call`]): its reads stop when it fires.
    call: CancellationToken,
}

pub(super) struct Inner {
    /// The table's side: absent when the server reads an export (`--export`), which it does
    /// without sending DynamoDB anything.
    pub live: Option<Live>,
    /// The export every read tool answers from, at 0 RCU, with `--export`.
    pub export: Option<ExportBackend>,
    /// The session's budget: the engine's session guard, and each read's own for the
    /// per-call cap.
    pub budget: Budget,
    pub cursors: Cursors,
}

pub(super) struct Live {
    pub engine: Engine,
    /// CloudWatch for diagnose, metrics and insights.
    pub conn: Connection,
}

/// Where the server reads.
pub enum Source {
    Table(Engine, Connection),
    Export(ExportBackend),
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

/// A tool error: one line.
pub(super) type Refusal = String;

pub(super) fn said(e: CliError) -> Refusal {
    agent_words(&e.message)
}

pub(super) fn engine_said(e: EngineError) -> Refusal {
    agent_words(&e.message)
}

pub(super) fn page_items(limit: Option<usize>) -> Result<usize, Refusal> {
    match limit {
        None => Ok(DEFAULT_PAGE_ITEMS),
        Some(n) if (1..=MAX_PAGE_ITEMS).contains(&n) => Ok(n),
        Some(n) => Err(format!(
            "limit '{n}' is out of range; use 1 to {MAX_PAGE_ITEMS} items per page, and the cursor for more"
        )),
    }
}

pub(super) fn parameters(values: Option<&[Value]>) -> Result<Vec<AttrValue>, Refusal> {
    match values {
        None => Ok(Vec::new()),
        Some(v) => parse_parameters_from(&to_safe_json(&v, false), "parameters")
            .map_err(|e| agent_words(&e.message)),
    }
}

/// Every tool is read-only, set here once for all of them: a tool cannot be added without it.
fn read_only(mut router: ToolRouter<Server>) -> ToolRouter<Server> {
    for route in router.map.values_mut() {
        route.attr.annotations = Some(
            ToolAnnotations::new()
                .read_only(true)
                .destructive(false)
                .idempotent(true)
                .open_world(true),
        );
    }
    router
}

impl Server {
    pub fn new(source: Source, args: &McpArgs) -> Self {
        let budget = Budget::new(args.max_rcu, args.max_rcu_per_call, args.rcu_per_second);
        let (live, export) = match source {
            // Every request of every call is admitted by the session's guard before it is sent.
            Source::Table(engine, conn) => (
                Some(Live {
                    engine: engine.with_session_guard(Some(budget.session_guard())),
                    conn,
                }),
                None,
            ),
            Source::Export(backend) => (None, Some(backend)),
        };
        Server {
            inner: std::sync::Arc::new(Inner {
                live,
                export,
                budget,
                cursors: Cursors::default(),
            }),
            tool_router: read_only(
                Self::schema_router()
                    + Self::reads_router()
                    + Self::explain_router()
                    + Self::reports_router(),
            ),
            call: CancellationToken::new(),
        }
    }

    /// The server for one tool call: every read it makes stops within a request's abort when
    /// `cancel` fires. rmcp cancels a request's token on the client's `notifications/cancelled`
    /// and leaves the call running, so the reads must watch it themselves.
    pub(super) fn for_call(&self, cancel: &CancellationToken) -> Server {
        Server {
            call: cancel.clone(),
            ..self.clone()
        }
    }

    /// The token of the call this copy serves.
    pub(super) fn call(&self) -> &CancellationToken {
        &self.call
    }

    /// The table's side, or the tool error of a server reading an export: `tool` needs the
    /// table itself.
    pub(super) fn live(&self, tool: &str) -> Result<&Live, Refusal> {
        match (&self.inner.live, &self.inner.export) {
            (Some(live), _) => Ok(live),
            (None, Some(export)) => Err(format!(
                "{tool} is not served from an export: this server reads {} (started with --export) and sends DynamoDB nothing; query and hotkeys read the export at 0 RCU, list_tables and describe_table show it. For {tool}, start another `dynoscope mcp` without --export, against the table",
                export.endpoint()
            )),
            (None, None) => Err(format!("{tool} has no table to read")),
        }
    }

    /// What a result says it was read from: "table", or "export" and where it is.
    pub(super) fn source(&self) -> String {
        match &self.inner.export {
            None => "table".into(),
            Some(export) => export.endpoint().to_string(),
        }
    }

    pub(super) fn cost(&self, requests: Vec<RequestCost>) -> Cost {
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
    pub(super) fn log<T: Serialize>(
        &self,
        tool: &str,
        args: &T,
        cost: Option<&Cost>,
        error: Option<&str>,
    ) {
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

    /// Runs `spec` under the per-call cap; the engine's session guard admits each request.
    /// Refused, sending nothing, once the session's budget is spent; a failed read is its
    /// error line.
    pub(super) async fn read(&self, mut spec: ReadSpec) -> Result<page::ReadOutcome, Refusal> {
        self.inner.budget.check()?;
        self.inner.budget.per_call(&mut spec);
        let mut outcome = page::run(&self.live("this read")?.engine, spec, &self.call).await;
        if let Some(e) = outcome.failure.take() {
            return Err(self.failed(e, outcome.requests));
        }
        self.refused_if_spent(outcome.requests.is_empty(), outcome.outcome)?;
        Ok(outcome)
    }

    /// A read the session guard stopped before it sent anything (another call spent the
    /// budget meanwhile) is the same refusal as one refused up front.
    pub(super) fn refused_if_spent(
        &self,
        sent_nothing: bool,
        outcome: Option<DoneOutcome>,
    ) -> Result<(), Refusal> {
        match sent_nothing
            && outcome == Some(DoneOutcome::BudgetReached)
            && self.inner.budget.spent()
        {
            true => Err(self.inner.budget.refusal()),
            false => Ok(()),
        }
    }

    /// A failed read's line, with what it cost before it failed.
    pub(super) fn failed(&self, e: EngineError, requests: Vec<RequestCost>) -> Refusal {
        let cost = self.cost(requests);
        format!(
            "{} (this call consumed {} RCU; the session {} of {})",
            engine_said(e),
            format_units(cost.call_rcu),
            format_units(cost.session_rcu),
            format_units(cost.budget_rcu)
        )
    }

    /// Logs the call's result or error and hands it back.
    pub(super) fn logged<A: Serialize, T: Serialize + HasCost>(
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
}

pub(super) trait HasCost {
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

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let export = "Read-only DynamoDB tools over an S3 export of a table, at 0 RCU: nothing is sent to DynamoDB. Start with describe_table (its key schema), then query an item collection by its partition key or count hot keys; every read goes through the export's files, so it takes time but costs no read capacity. Pages are bounded: follow the cursor only as far as you need.";
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("dynoscope", env!("CARGO_PKG_VERSION")))
            .with_instructions(if self.inner.export.is_some() { export } else {
                "Read-only DynamoDB tools with a read budget for the whole session. Start with list_tables and describe_table (free), then query an item collection by its partition key; use explain before a PartiQL statement you are unsure of. Every result carries its cost and the budget left; pages are bounded, so follow the cursor only as far as you need."
            })
    }
}
