//! Sends the demo's write load ([`crate::model::demo::churn::ChurnPlan`]) at a steady rate. Like
//! `seed`, it refuses any endpoint that is not on this machine.

use std::collections::HashMap;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::convert::{item_to_sdk, value_to_sdk};
use super::error::EngineError;
use super::seed::ensure_local;
use super::Connection;
use crate::aws::error::FromSdk;
use crate::model::demo::churn::WriteOp;

/// Writes in flight at once: enough for a few thousand a second against DynamoDB Local.
const IN_FLIGHT: usize = 16;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChurnReport {
    pub puts: u64,
    pub updates: u64,
    pub deletes: u64,
    pub elapsed: Duration,
}

impl ChurnReport {
    pub fn writes(&self) -> u64 {
        self.puts + self.updates + self.deletes
    }
}

/// Whether `table` exists at the connection's endpoint.
pub async fn table_exists(conn: &Connection, table: &str) -> Result<bool, EngineError> {
    match conn.client.describe_table().table_name(table).send().await {
        Ok(_) => Ok(true),
        Err(e)
            if e.as_service_error()
                .is_some_and(|s| s.is_resource_not_found_exception()) =>
        {
            Ok(false)
        }
        Err(e) => Err(EngineError::from_sdk(
            e,
            "DescribeTable",
            Some(table),
            &conn.endpoint,
        )),
    }
}

async fn send(conn: Connection, table: String, op: WriteOp) -> Result<(), EngineError> {
    let (t, endpoint) = (Some(table.as_str()), conn.endpoint.as_str());
    match op {
        WriteOp::Put { item } => {
            conn.client
                .put_item()
                .table_name(&table)
                .set_item(Some(item_to_sdk(&item)))
                .send()
                .await
                .map_err(|e| EngineError::from_sdk(e, "PutItem", t, endpoint))?;
        }
        WriteOp::Update { key, set } => {
            let mut names = HashMap::new();
            let mut values: HashMap<String, AttributeValue> = HashMap::new();
            let mut clauses = Vec::new();
            for (i, (name, value)) in set.iter().enumerate() {
                names.insert(format!("#a{i}"), name.clone());
                values.insert(format!(":v{i}"), value_to_sdk(value));
                clauses.push(format!("#a{i} = :v{i}"));
            }
            conn.client
                .update_item()
                .table_name(&table)
                .set_key(Some(item_to_sdk(&key)))
                .update_expression(format!("SET {}", clauses.join(", ")))
                .set_expression_attribute_names(Some(names))
                .set_expression_attribute_values(Some(values))
                .send()
                .await
                .map_err(|e| EngineError::from_sdk(e, "UpdateItem", t, endpoint))?;
        }
        WriteOp::Delete { key } => {
            conn.client
                .delete_item()
                .table_name(&table)
                .set_key(Some(item_to_sdk(&key)))
                .send()
                .await
                .map_err(|e| EngineError::from_sdk(e, "DeleteItem", t, endpoint))?;
        }
    }
    Ok(())
}

/// Sends `ops` to `table` at `rate` writes a second until `duration` has passed, `cancel`
/// fires or a write fails (after the SDK's retries). Write `i` is sent at `i / rate` seconds,
/// at most [`IN_FLIGHT`] at once; a slow endpoint lowers the rate rather than queueing.
pub async fn churn(
    conn: &Connection,
    table: &str,
    ops: impl Iterator<Item = WriteOp>,
    rate: f64,
    duration: Option<Duration>,
    cancel: CancellationToken,
) -> Result<ChurnReport, EngineError> {
    ensure_local(conn, "seed --churn")?;
    let started = Instant::now();
    let end = duration.map(|d| started + d);
    let mut report = ChurnReport::default();
    let mut in_flight = JoinSet::new();
    let mut failure = None;
    for (i, op) in ops.enumerate() {
        let due = started + Duration::from_secs_f64(i as f64 / rate);
        if end.is_some_and(|end| due >= end) {
            break;
        }
        tokio::select! {
            _ = cancel.cancelled() => break,
            _ = tokio::time::sleep_until(due) => {}
        }
        while in_flight.len() >= IN_FLIGHT {
            if let Some(Ok(Err(e))) = in_flight.join_next().await {
                failure.get_or_insert(e);
            }
        }
        if failure.is_some() {
            break;
        }
        match &op {
            WriteOp::Put { .. } => report.puts += 1,
            WriteOp::Update { .. } => report.updates += 1,
            WriteOp::Delete { .. } => report.deletes += 1,
        }
        in_flight.spawn(send(conn.clone(), table.to_string(), op));
    }
    while let Some(joined) = in_flight.join_next().await {
        if let Ok(Err(e)) = joined {
            failure.get_or_insert(e);
        }
    }
    report.elapsed = started.elapsed();
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}
