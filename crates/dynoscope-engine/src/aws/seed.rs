//! Creates and loads the demo table, refusing any endpoint that is not on this machine. One of
//! the writers that only ever write locally (with `seed_model` for NoSQL Workbench models and
//! `churn` for the demo's write load); the only writer that touches a table the user opened is
//! `write`, and only when the user enabled writes.

use std::time::Duration;

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, PutRequest, ScalarAttributeType, TableStatus,
    TimeToLiveSpecification, WriteRequest,
};
use futures::stream::{self, TryStreamExt};

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::Client;

use super::convert::item_to_sdk;
use super::endpoint::LoopbackOnly;
use super::error::EngineError;
use super::Connection;
use crate::aws::error::FromSdk;
use crate::model::item::value::Item;

pub(super) const BATCH: usize = 25;
pub(super) const PARALLEL_BATCHES: usize = 8;
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

/// The connection's client, with every request refused before signing unless its host is
/// this machine: a second guard, on the requests themselves, behind `ensure_local`.
pub(super) fn local_only_client(conn: &Connection) -> Client {
    Client::from_conf(
        conn.client
            .config()
            .to_builder()
            .interceptor(LoopbackOnly)
            .build(),
    )
}

/// Whether a seeded table gets a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedStream {
    /// Every change with both images, for `tail`, `hotkeys --writes` and the live pane.
    NewAndOldImages,
    /// None: DynamoDB Local then loads the table several times faster, because with a stream it
    /// reads every stream record of its database on each write (docs/benchmarks.md §17.15).
    Off,
}

/// Creates `table` with the demo schema (PK/SK, GSI1, numeric LSI1) and loads `items`.
pub async fn seed(
    conn: &Connection,
    table: &str,
    items: Vec<Item>,
    stream: SeedStream,
) -> Result<usize, EngineError> {
    ensure_local(conn, "seed")?;
    let client = &local_only_client(conn);
    let endpoint = conn.endpoint.as_str();
    match client.describe_table().table_name(table).send().await {
        Ok(_) => {
            return Err(EngineError::bad_input(format!(
                "table '{table}' already exists at {endpoint}; pass another --table name"
            )))
        }
        Err(SdkError::ServiceError(_)) => {}
        // Refused by the guard, or the endpoint cannot be reached: CreateTable would fail
        // the same way, so say so now.
        Err(e) => {
            return Err(EngineError::from_sdk(
                e,
                "DescribeTable",
                Some(table),
                endpoint,
            ))
        }
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
        .set_stream_specification(match stream {
            SeedStream::NewAndOldImages => Some(
                aws_sdk_dynamodb::types::StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(aws_sdk_dynamodb::types::StreamViewType::NewAndOldImages)
                    .build()
                    .map_err(build)?,
            ),
            SeedStream::Off => None,
        })
        .send()
        .await
        .map_err(|e| EngineError::from_sdk(e, "CreateTable", None, endpoint))?;
    wait_active(client, endpoint, table).await?;
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
        .try_for_each_concurrent(PARALLEL_BATCHES, |chunk| {
            write_batch(client, endpoint, table, chunk)
        })
        .await?;
    Ok(total)
}

pub(super) async fn wait_active(
    client: &Client,
    endpoint: &str,
    table: &str,
) -> Result<(), EngineError> {
    for _ in 0..600 {
        let out = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| EngineError::from_sdk(e, "DescribeTable", Some(table), endpoint))?;
        if out.table.and_then(|t| t.table_status) == Some(TableStatus::Active) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(EngineError::service(format!(
        "table '{table}' did not become ACTIVE within a minute"
    )))
}

/// One BatchWriteItem put request for each item.
pub(super) fn put_requests(items: &[Item]) -> Vec<WriteRequest> {
    items
        .iter()
        .map(|item| {
            let put = PutRequest::builder()
                .set_item(Some(item_to_sdk(item)))
                .build()
                .expect("item is set");
            WriteRequest::builder().put_request(put).build()
        })
        .collect()
}

/// Writes one batch, resending `UnprocessedItems` with backoff until none are left.
pub(super) async fn write_batch(
    client: &Client,
    endpoint: &str,
    table: &str,
    chunk: Vec<Item>,
) -> Result<(), EngineError> {
    let mut pending = put_requests(&chunk);
    for round in 0..MAX_UNPROCESSED_ROUNDS {
        let out = client
            .batch_write_item()
            .request_items(table, pending)
            .send()
            .await
            .map_err(|e| EngineError::from_sdk(e, "BatchWriteItem", Some(table), endpoint))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::endpoint::recording;
    use crate::model::demo::demo_data;

    fn connection(client: Client, is_local: bool) -> Connection {
        Connection {
            client,
            streams: crate::aws::stream::client::unused_client(),
            cloudwatch: crate::aws::cloudwatch::unused_client(),
            endpoint: "as shown".into(),
            region: "eu-west-1".into(),
            is_local,
        }
    }

    /// Seeds one user's demo data through `client`, which must fail (nothing answers).
    async fn seed_one_user(client: Client, is_local: bool) -> EngineError {
        let items = demo_data::generate(1);
        seed(&connection(client, is_local), "app", items, SeedStream::Off)
            .await
            .unwrap_err()
    }

    /// Even a connection wrongly believed local cannot write anywhere else: every seeding
    /// request is refused before it is signed, and the HTTP layer never sees one.
    #[tokio::test]
    async fn seeding_refuses_any_host_that_is_not_this_machine() {
        let (client, sent) = recording::client(None);
        let err = seed_one_user(client, true).await;
        assert!(
            err.message
                .contains("refused to send a write to 'https://dynamodb.eu-west-1.amazonaws.com/"),
            "{err:?}"
        );
        assert!(
            sent.lock().unwrap().is_empty(),
            "{:?}",
            sent.lock().unwrap()
        );
    }

    #[tokio::test]
    async fn seeding_goes_through_to_a_local_host() {
        let (client, sent) = recording::client(Some("http://127.0.0.1:9"));
        let err = seed_one_user(client, true).await;
        assert!(!err.message.contains("refused"), "{err:?}");
        assert_eq!(sent.lock().unwrap().as_slice(), ["http://127.0.0.1:9/"]);
    }

    #[tokio::test]
    async fn a_connection_known_to_be_remote_is_refused_first() {
        let (client, sent) = recording::client(Some("http://127.0.0.1:9"));
        let err = seed(
            &connection(client, false),
            "app",
            Vec::new(),
            SeedStream::Off,
        )
        .await
        .unwrap_err();
        assert!(
            err.message.contains("only writes to a local endpoint"),
            "{err:?}"
        );
        assert!(sent.lock().unwrap().is_empty());
    }
}
