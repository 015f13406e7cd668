//! The schema tools: `list_tables` and `describe_table`. They read no items (0 RCU).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

use super::result::Json;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::server::{engine_said, Cost, Refusal, Server};
use crate::aws::Backend;
use crate::model::formats::json::to_safe_json;

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeParams {
    /// The table's name.
    pub table: String,
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
    /// What was described: "table", or "export" and the export's folder (its key schema as
    /// --key gave it or as inferred from its items; an export keeps no index definitions).
    pub source: String,
    pub cost: Cost,
}

#[tool_router(router = schema_router, vis = "pub(super)")]
impl Server {
    #[tool(
        description = "List the DynamoDB tables in this account and region. Reads no items (0 RCU)."
    )]
    async fn list_tables(
        &self,
        Parameters(p): Parameters<NoParams>,
    ) -> Result<Json<TablesResult>, Refusal> {
        let listed = match (&self.inner.export, &self.inner.live) {
            (Some(export), _) => export.list_tables().await,
            (None, Some(live)) => live.engine.list_tables().await,
            (None, None) => Ok(Vec::new()),
        };
        let result = match listed {
            Ok(names) => Ok(TablesResult {
                tables: names,
                cost: self.cost(Vec::new()),
            }),
            Err(e) => Err(engine_said(e)),
        };
        self.logged("list_tables", &p, result)
    }

    #[tool(
        description = "Describe a table: key schema, attribute types, GSIs and LSIs (keys, projection, size), billing mode, size, TTL and stream. Reads no items (0 RCU)."
    )]
    async fn describe_table(
        &self,
        Parameters(p): Parameters<DescribeParams>,
    ) -> Result<Json<DescribeResult>, Refusal> {
        let described = match &self.inner.export {
            Some(export) => self.export_table(export, &p.table).await,
            None => {
                self.live("describe_table")?
                    .engine
                    .describe_table(&p.table)
                    .await
            }
        };
        let result = match described {
            Ok(info) => Ok(DescribeResult {
                table: serde_json::from_str(&to_safe_json(&info, false)).unwrap_or(Value::Null),
                source: self.source(),
                cost: self.cost(Vec::new()),
            }),
            Err(e) => Err(engine_said(e)),
        };
        self.logged("describe_table", &p, result)
    }
}
