//! Creates and loads the demo table. The only code in dynoscope that writes, and it refuses any
//! endpoint that is not on this machine.

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, PutRequest, ScalarAttributeType, TableStatus,
    TimeToLiveSpecification, WriteRequest,
};
use futures::stream::{self, TryStreamExt};

use super::convert::item_to_sdk;
use super::error::EngineError;
use super::Connection;
use crate::model::value::Item;

const BATCH: usize = 25;
const PARALLEL_BATCHES: usize = 8;
const MAX_UNPROCESSED_ROUNDS: u32 = 20;

/// Refuses to write unless the endpoint is local (localhost, 127.0.0.0/8, ::1).
pub fn ensure_local(conn: &Connection, command: &str) -> Result<(), EngineError> {
    if conn.is_local {
        Ok(())
    } else {
        Err(EngineError::bad_input(format!(
            "'{command}' only writes to a local endpoint, not '{}'; pass --endpoint-url http://localhost:8000 (DynamoDB Local)",
            conn.endpoint
        )))
    }
}

/// Creates `table` with the demo schema (PK/SK, GSI1, numeric LSI1) and loads `items`.
pub async fn seed(conn: &Connection, table: &str, items: Vec<Item>) -> Result<usize, EngineError> {
    ensure_local(conn, "seed")?;
    let client = &conn.client;
    let endpoint = conn.endpoint.as_str();
    if client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .is_ok()
    {
        return Err(EngineError::bad_input(format!(
            "table '{table}' already exists at {endpoint}; pass another --table name"
        )));
    }
    let key = |name: &str, kt: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kt)
            .build()
    };
    let def = |name: &str, t: ScalarAttributeType| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(t)
            .build()
    };
    let build = |e: aws_sdk_dynamodb::error::BuildError| EngineError::service(e.to_string());
    client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest)
        .attribute_definitions(def("PK", ScalarAttributeType::S).map_err(build)?)
        .attribute_definitions(def("SK", ScalarAttributeType::S).map_err(build)?)
        .attribute_definitions(def("GSI1PK", ScalarAttributeType::S).map_err(build)?)
        .attribute_definitions(def("GSI1SK", ScalarAttributeType::S).map_err(build)?)
        .attribute_definitions(def("LSI1SK", ScalarAttributeType::N).map_err(build)?)
        .key_schema(key("PK", KeyType::Hash).map_err(build)?)
        .key_schema(key("SK", KeyType::Range).map_err(build)?)
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key("GSI1PK", KeyType::Hash).map_err(build)?)
                .key_schema(key("GSI1SK", KeyType::Range).map_err(build)?)
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .map_err(build)?,
        )
        .local_secondary_indexes(
            LocalSecondaryIndex::builder()
                .index_name("LSI1")
                .key_schema(key("PK", KeyType::Hash).map_err(build)?)
                .key_schema(key("LSI1SK", KeyType::Range).map_err(build)?)
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::Include)
                        .non_key_attributes("status")
                        .non_key_attributes("total")
                        .build(),
                )
                .build()
                .map_err(build)?,
        )
        // A stream of every change with both images, for `tail` and `hotkeys --writes`.
        .stream_specification(
            aws_sdk_dynamodb::types::StreamSpecification::builder()
                .stream_enabled(true)
                .stream_view_type(aws_sdk_dynamodb::types::StreamViewType::NewAndOldImages)
                .build()
                .map_err(build)?,
        )
        .send()
        .await
        .map_err(|e| EngineError::from_sdk(e, "CreateTable", None, endpoint))?;
    wait_active(conn, table).await?;
    // TTL makes `describe` show something real; DynamoDB Local may not support it, which is fine.
    if let Ok(spec) = TimeToLiveSpecification::builder()
        .attribute_name("expiresAt")
        .enabled(true)
        .build()
    {
        let _ = client
            .update_time_to_live()
            .table_name(table)
            .time_to_live_specification(spec)
            .send()
            .await;
    }
    let total = items.len();
    let chunks: Vec<Vec<Item>> = items.chunks(BATCH).map(<[Item]>::to_vec).collect();
    stream::iter(chunks.into_iter().map(Ok))
        .try_for_each_concurrent(PARALLEL_BATCHES, |chunk| write_batch(conn, table, chunk))
        .await?;
    Ok(total)
}

async fn wait_active(conn: &Connection, table: &str) -> Result<(), EngineError> {
    for _ in 0..600 {
        let out = conn
            .client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| EngineError::from_sdk(e, "DescribeTable", Some(table), &conn.endpoint))?;
        if out.table.and_then(|t| t.table_status) == Some(TableStatus::Active) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(EngineError::service(format!(
        "table '{table}' did not become ACTIVE within a minute"
    )))
}

/// Writes one batch, resending `UnprocessedItems` with backoff until none are left.
async fn write_batch(conn: &Connection, table: &str, chunk: Vec<Item>) -> Result<(), EngineError> {
    let mut pending: Vec<WriteRequest> = chunk
        .iter()
        .map(|item| {
            let put = PutRequest::builder()
                .set_item(Some(item_to_sdk(item)))
                .build()
                .expect("item is set");
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    for round in 0..MAX_UNPROCESSED_ROUNDS {
        let out = conn
            .client
            .batch_write_item()
            .request_items(table, pending)
            .send()
            .await
            .map_err(|e| EngineError::from_sdk(e, "BatchWriteItem", Some(table), &conn.endpoint))?;
        pending = out
            .unprocessed_items
            .and_then(|mut m| m.remove(table))
            .unwrap_or_default();
        if pending.is_empty() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50 << round.min(5))).await;
    }
    Err(EngineError::service(format!(
        "BatchWriteItem kept returning unprocessed items for '{table}'"
    )))
}
