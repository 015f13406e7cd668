//! The reading tools: `query` (one item collection, typed as `dynoscope query` takes it) and
//! `partiql` (a SELECT run as the Query it means, as `dynoscope partiql` translates it), one
//! bounded page a call under the session's budget, with a cursor for the next.

use std::collections::BTreeMap;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use super::result::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::server::{engine_said, page_items, parameters, said, Cost, Refusal, Server};
use super::wording::agent_words;
use crate::aws::ReadSpec;
use crate::cli::args::{QueryArgs, ReadArgs, SortArgs};
use crate::cli::output::OutputFormat;
use crate::cli::read_cmd::query_specs;
use crate::cli::read_spec::key_columns;
use crate::model::engine::read_cause::ReadCause;
use crate::model::formats::json::to_safe_json;
use crate::model::item::value::AttrValue;
use crate::model::query::partiql::{
    advise, parse, refusal, translate, untranslated_reason, write_refusal, ErrorKind, ReadKind,
    Statement,
};
use crate::model::text::sanitize::sanitize;

/// One key value, or a list of them for a multi-attribute key, in key-schema order.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum KeyValues {
    One(String),
    Many(Vec<String>),
}

impl KeyValues {
    pub fn to_vec(&self) -> Vec<String> {
        match self {
            KeyValues::One(v) => vec![v.clone()],
            KeyValues::Many(list) => list.clone(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryParams {
    pub table: String,
    /// The partition key value of the item collection (typed by the key's attribute type:
    /// numbers as text, binary as base64); for an index whose partition key is several
    /// attributes, a list of values in key-schema order.
    pub pk: KeyValues,
    /// A GSI or LSI to query instead of the table; pk and the sort conditions are its keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// At most one sort-key range condition; sk_eq may come with one: on an index whose sort
    /// key is several attributes, sk_eq is a list of equalities on the first ones in key-schema
    /// order, and the range condition applies to the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sk_eq: Option<KeyValues>,
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

impl PartiqlParams {
    /// What a cursor of this call is tagged with: every argument but `limit` and `cursor`.
    pub fn scope(&self) -> String {
        format!("partiql {}", to_safe_json(self, false))
    }
}

impl QueryParams {
    /// What a cursor of this call is tagged with: the tool and every argument but `limit`
    /// and `cursor` (neither is serialized).
    pub fn scope(&self) -> String {
        format!("query {}", to_safe_json(self, false))
    }
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
    /// What was read: "table", or "export" and the export's folder (read at 0 RCU).
    pub source: String,
    pub cost: Cost,
}

/// The query tool's arguments as `dynoscope query`'s flags (at most one sort-key condition).
pub(super) fn query_args(p: &QueryParams) -> Result<QueryArgs, Refusal> {
    let items = page_items(p.limit)?;
    let sorts = [
        p.sk_lt.is_some(),
        p.sk_le.is_some(),
        p.sk_gt.is_some(),
        p.sk_ge.is_some(),
        p.sk_between.is_some(),
        p.sk_begins_with.is_some(),
    ];
    if sorts.iter().filter(|&&s| s).count() > 1 {
        return Err(
            "give at most one sort-key range condition (sk_lt, sk_le, sk_gt, sk_ge, sk_between or sk_begins_with); sk_eq lists the equalities before it".into(),
        );
    }
    Ok(QueryArgs {
        table: p.table.clone(),
        pk: p.pk.to_vec(),
        sort: SortArgs {
            sk_eq: p.sk_eq.as_ref().map(KeyValues::to_vec).unwrap_or_default(),
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
    })
}

impl Server {
    pub(super) async fn query_page(
        &self,
        p: &QueryParams,
        cancel: &CancellationToken,
    ) -> Result<ItemsResult, Refusal> {
        if let Some(export) = &self.inner.export {
            return self.export_query(export, p, cancel).await;
        }
        let (spec, key_names) = self.query_spec(p).await?;
        self.paged(spec, key_names, &p.scope(), p.limit, p.cursor.as_deref())
            .await
    }

    /// The query tool's read, validated against the table (DescribeTable) as `dynoscope
    /// query` validates it, and the key attributes its cursor continues after; sends nothing
    /// else. `query` runs it, `explain` shows it.
    pub(super) async fn query_spec(
        &self,
        p: &QueryParams,
    ) -> Result<(ReadSpec, Vec<String>), Refusal> {
        let args = query_args(p)?;
        let items = page_items(p.limit)?;
        let engine = &self.live("explain")?.engine;
        let mut specs = query_specs(engine, &args).await.map_err(said)?;
        let mut spec = specs.specs.pop().ok_or("no request was built")?;
        // The agent asked for this read, not a person at a prompt: the log says so.
        spec.cause = ReadCause::AgentCall;
        spec.limit = Some(items);
        // Always read, so the cursor comes from the items' keys (the request explain shows).
        spec.key_attributes = specs.key_names.clone();
        Ok((spec, specs.key_names))
    }

    async fn partiql_page(&self, p: &PartiqlParams) -> Result<ItemsResult, Refusal> {
        self.live("partiql")?;
        page_items(p.limit)?;
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
            .live("partiql")?
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
        // The agent asked for this read, not a person at a prompt: the log says so.
        spec.cause = ReadCause::AgentCall;
        spec.average_item_bytes = info.average_item_bytes(plan.index.as_deref());
        let scope = p.scope();
        let cursor = p.cursor.as_deref();
        match plan.queries.is_empty() {
            true => self.paged(spec, key_names, &scope, p.limit, cursor).await,
            false => {
                self.merged_page(&plan, spec, key_names, &scope, p.limit, cursor)
                    .await
            }
        }
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
        // What is sent is the SELECT spelled again from dynoscope's tokens, never the raw
        // text: a statement that is a SELECT only to dynoscope's lexer is refused here.
        let spec = ReadSpec::statement(
            table.unwrap_or_default(),
            &p.statement,
            parameters,
            ReadCause::AgentCall,
        )
        .map_err(|e| agent_words(&e.message))?;
        let mut page = self
            .statement_page(spec, &p.scope(), p.limit, p.cursor.as_deref())
            .await?;
        page.note = Some(match page.note {
            Some(note) => format!("{why}; it was sent as ExecuteStatement; {note}"),
            None => format!("{why}; it was sent as ExecuteStatement"),
        });
        Ok(page)
    }
}

#[tool_router(router = reads_router, vis = "pub(super)")]
impl Server {
    #[tool(
        description = "Query one item collection (a partition key value) of a table or index, one page at a time: typed sort-key condition, filter, projection, order. Validated as DynamoDB would before anything is sent; each page is read under the session's read budget and says what it cost. Pass the returned cursor for the next page."
    )]
    async fn query(
        &self,
        Parameters(p): Parameters<QueryParams>,
        cancel: CancellationToken,
    ) -> Result<Json<ItemsResult>, Refusal> {
        let result = self.for_call(&cancel).query_page(&p, &cancel).await;
        self.logged("query", &p, result)
    }

    #[tool(
        description = "Run a PartiQL SELECT as the Query it means, one page at a time. A statement that would scan the table is refused with its estimated cost and the index that would serve it, unless allow_scan is set; then the Scan runs under the read budget. Writes are refused. Pass the returned cursor for the next page."
    )]
    async fn partiql(
        &self,
        Parameters(p): Parameters<PartiqlParams>,
        cancel: CancellationToken,
    ) -> Result<Json<ItemsResult>, Refusal> {
        let result = self.for_call(&cancel).partiql_page(&p).await;
        self.logged("partiql", &p, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multi_attribute_key_is_given_as_lists_in_key_schema_order() {
        let p: QueryParams = serde_json::from_value(serde_json::json!({
            "table": "matches",
            "index": "TournamentRegionIndex",
            "pk": ["WINTER2024", "EU-WEST"],
            "sk_eq": ["SEMIFINALS"],
            "sk_begins_with": "UP"
        }))
        .unwrap();
        let args = query_args(&p).unwrap();
        assert_eq!(args.pk, ["WINTER2024", "EU-WEST"]);
        assert_eq!(args.sort.sk_eq, ["SEMIFINALS"]);
        assert_eq!(args.sort.sk_begins.as_deref(), Some("UP"));
        // One value is still a plain string.
        let p: QueryParams =
            serde_json::from_value(serde_json::json!({"table": "app", "pk": "USER#1"})).unwrap();
        assert_eq!(query_args(&p).unwrap().pk, ["USER#1"]);
    }
}
