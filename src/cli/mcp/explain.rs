//! The `explain` tool: what a read would send and cost, sending nothing but DescribeTable.
//! It takes a PartiQL SELECT, or the query tool's own arguments, and answers with the exact
//! request bodies (the JSON the SDK sends, from the same builder the engine's read uses), the
//! aws-cli command that sends the same body, and the estimated cost.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use super::result::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cursor::Position;
use super::reads::QueryParams;
use super::server::{engine_said, parameters, Cost, Refusal, Server};
use super::wording::agent_words;
use crate::aws::read::{request_json, SegmentStart};
use crate::aws::{plan_read, ReadSpec};
use crate::cli::read_spec::key_columns;
use crate::model::design::schema::TableInfo;
use crate::model::query::partiql::{
    advise, explain, parse, scan_estimate, translate, write_refusal, Advice, Explained, ReadKind,
    Statement,
};
use crate::model::text::sanitize::sanitize;
use crate::model::text::shell::shell_word;
use crate::model::traffic::capacity::worst_case_read_units;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExplainParams {
    /// One PartiQL SELECT. Give either this or `query`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    /// One value per ? of the statement, plain JSON or DynamoDB JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Vec<Value>>,
    /// The arguments of a query tool call, exactly as it takes them (a cursor included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<QueryParams>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct ExplainResult {
    /// Query or Scan: what the call reads.
    pub reads: String,
    /// The plan in words: the index and key condition, or the Scan and its estimate, the index
    /// that would serve a scan-shaped statement, and (for a statement) the request in every
    /// dialect (PartiQL, boto3, JavaScript v3, aws-sdk-rust).
    pub explanation: String,
    /// The first request of the read (one per Query of a merge), exactly as the SDK sends it:
    /// the JSON body of the DynamoDB call. The budget's guards may lower its Limit.
    pub requests: Vec<Value>,
    /// aws-cli commands sending the same bodies, one a line.
    pub aws_cli: String,
    /// Read units the read should cost, at DescribeTable's average item size: one page of
    /// `limit` items per Query (default 50), or the whole table or index for a Scan.
    pub estimated_rcu: f64,
    /// The most a page of the read can cost (400 KB items, 1 MB a page); a call never spends
    /// more than the per-call cap.
    pub worst_case_rcu: f64,
    pub cost: Cost,
}

/// `aws dynamodb query --cli-input-json '…' --no-paginate`: the same body, one request.
fn aws_cli(spec: &ReadSpec, requests: &[Value]) -> String {
    let verb = match spec.operation {
        crate::aws::Operation::Query => "query",
        crate::aws::Operation::Scan => "scan",
        crate::aws::Operation::Statement => "execute-statement",
    };
    requests
        .iter()
        .map(|body| {
            format!(
                "aws dynamodb {verb} --cli-input-json {} --no-paginate",
                shell_word(&body.to_string())
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every segment's first request, with the Limit the read asks for before the guards (as the
/// engine's segment does: the page's items when nothing filters them, else the page size).
fn bodies(spec: &ReadSpec) -> Vec<Value> {
    let unfiltered = spec.filter.is_none() && spec.statement.is_none();
    let limit = match (spec.limit, unfiltered) {
        (Some(items), true) => Some(
            spec.page_size
                .map_or(items, |p| (p as usize).min(items))
                .clamp(1, i32::MAX as usize) as i32,
        ),
        _ => spec.page_size,
    };
    (0..spec.segment_count())
        .map(|segment| {
            let start = match spec.starts.get(segment as usize) {
                Some(SegmentStart::After(key)) => Some(key),
                _ => None,
            };
            request_json(spec, segment, limit, start)
        })
        .collect()
}

fn lines(text: &str) -> String {
    text.lines()
        .map(|l| sanitize(l).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One page per Query at the average item size, eventually consistent or twice that.
fn page_estimate(info: &TableInfo, spec: &ReadSpec, items: usize) -> f64 {
    let units = info.sample_units(spec.index.as_deref(), items as u64);
    let units = if spec.consistent { units * 2.0 } else { units };
    units * spec.segment_count() as f64
}

impl Server {
    async fn explain_call(&self, p: &ExplainParams) -> Result<ExplainResult, Refusal> {
        self.live("explain")?;
        match (&p.statement, &p.query) {
            (Some(statement), None) => self.explain_statement(statement, p).await,
            (None, Some(query)) if p.parameters.is_none() => self.explain_query(query).await,
            (None, Some(_)) => Err("parameters are for a statement's ?s; a query takes its values in query.values".into()),
            _ => Err("give either statement (a PartiQL SELECT) or query (the query tool's arguments), not both".into()),
        }
    }

    async fn explain_query(&self, p: &QueryParams) -> Result<ExplainResult, Refusal> {
        let (mut spec, _) = self.query_spec(p).await?;
        if let Some(cursor) = &p.cursor {
            match self.inner.cursors.decode(&p.scope(), cursor)? {
                Position::After(start) => spec.starts = vec![SegmentStart::After(start)],
                _ => {
                    return Err(
                        "cursor refused: it is not one the query tool gave for these arguments"
                            .into(),
                    )
                }
            }
        }
        let info = self
            .live("explain")?
            .engine
            .describe_table(&spec.table)
            .await
            .map_err(engine_said)?;
        let requests = bodies(&spec);
        let items = spec.limit.unwrap_or_default();
        let mut explanation = format!(
            "Query on {}: {}",
            spec.index
                .clone()
                .unwrap_or_else(|| format!("table '{}'", spec.table)),
            spec.key_condition.as_deref().unwrap_or_default()
        );
        if let Some(filter) = &spec.filter {
            explanation.push_str(&format!("\nFilterExpression {filter}: applied after the read, so every item the key condition matches is read and paid for"));
        }
        Ok(ExplainResult {
            reads: "Query".into(),
            explanation: lines(&explanation),
            aws_cli: aws_cli(&spec, &requests),
            estimated_rcu: page_estimate(&info, &spec, items),
            worst_case_rcu: worst_case_read_units(Some(items as i32), spec.consistent),
            requests,
            cost: self.cost(Vec::new()),
        })
    }

    async fn explain_statement(
        &self,
        statement: &str,
        p: &ExplainParams,
    ) -> Result<ExplainResult, Refusal> {
        let parameters = parameters(p.parameters.as_deref())?;
        let select = match parse(statement) {
            Ok(Statement::Write(verb)) => return Err(write_refusal(&verb)),
            Ok(Statement::Select(select)) => select,
            Err(e) => return Err(agent_words(&e.message)),
        };
        let info = self
            .live("explain")?
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
        let mut spec = plan_read(&plan);
        // The key attributes the partiql tool reads beside the projection.
        spec.key_attributes = key_columns(&info, plan.index.as_deref());
        let items = super::page::DEFAULT_PAGE_ITEMS;
        spec.limit = Some(items);
        let requests = bodies(&spec);
        let estimated_rcu = match plan.kind {
            ReadKind::Scan => scan_estimate(&plan, &info).0,
            ReadKind::Query => page_estimate(&info, &spec, items),
        };
        Ok(ExplainResult {
            reads: match plan.kind {
                ReadKind::Query => "Query",
                ReadKind::Scan => "Scan",
            }
            .into(),
            explanation: lines(&text),
            aws_cli: aws_cli(&spec, &requests),
            estimated_rcu,
            worst_case_rcu: worst_case_read_units(Some(items as i32), spec.consistent),
            requests,
            cost: self.cost(Vec::new()),
        })
    }
}

#[tool_router(router = explain_router, vis = "pub(super)")]
impl Server {
    #[tool(
        description = "Explain a read without sending it: a PartiQL SELECT (statement, parameters) or a query tool call's own arguments (query: {table, pk, sk_…, index, filter, …}). Says the Query or Scan it means, its estimated and worst-case cost, the index that serves a scan-shaped statement, the exact request body the SDK sends, and the aws-cli command sending the same. Sends only DescribeTable (0 RCU)."
    )]
    async fn explain(
        &self,
        Parameters(p): Parameters<ExplainParams>,
    ) -> Result<Json<ExplainResult>, Refusal> {
        let result = self.explain_call(&p).await;
        self.logged("explain", &p, result)
    }
}
