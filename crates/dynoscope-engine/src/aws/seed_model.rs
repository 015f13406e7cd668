//! Creates the tables of a NoSQL Workbench model (keys, GSIs with their projections, on
//! demand) and loads their items, under the same local-only rule as the demo seed.

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType,
};
use futures::stream::{self, TryStreamExt};

use super::error::EngineError;
use super::seed::{
    ensure_local, local_only_client, wait_active, write_batch, BATCH, PARALLEL_BATCHES,
};
use super::Connection;
use crate::aws::error::FromSdk;
use crate::model::design::schema::{self, KeySchema, TableInfo};
use crate::model::item::value::Item;

fn scalar(t: schema::KeyType) -> ScalarAttributeType {
    match t {
        schema::KeyType::S => ScalarAttributeType::S,
        schema::KeyType::N => ScalarAttributeType::N,
        schema::KeyType::B => ScalarAttributeType::B,
    }
}

fn build_error(e: aws_sdk_dynamodb::error::BuildError) -> EngineError {
    EngineError::service(e.to_string())
}

fn key_schema(keys: &KeySchema) -> Result<Vec<KeySchemaElement>, EngineError> {
    let element = |name: &str, kt: KeyType| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kt)
            .build()
            .map_err(build_error)
    };
    // DynamoDB reads the elements in order: the HASH attributes, then the RANGE ones.
    let hash = keys.partition().iter().map(|k| (k, KeyType::Hash));
    let range = keys.sort().iter().map(|k| (k, KeyType::Range));
    let out = hash
        .chain(range)
        .map(|(k, kt)| element(&k.name, kt))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(out)
}

/// Creates every table and loads its items; nothing is created when any of them exists
/// already, and when a table cannot be created or loaded the tables this run created are
/// deleted again (a rerun then starts clean instead of finding "already exists"). Returns
/// the items loaded per table, in the order given.
pub async fn seed_tables(
    conn: &Connection,
    tables: &[(TableInfo, Vec<Item>)],
) -> Result<Vec<usize>, EngineError> {
    ensure_local(conn, "seed")?;
    let client = &local_only_client(conn);
    let endpoint = conn.endpoint.as_str();
    for (info, _) in tables {
        let table = info.name.as_str();
        match client.describe_table().table_name(table).send().await {
            Ok(_) => {
                return Err(EngineError::bad_input(format!(
                    "table '{table}' already exists at {endpoint}; delete it first (seed --model creates the model's tables)"
                )))
            }
            Err(SdkError::ServiceError(_)) => {}
            Err(e) => return Err(EngineError::from_sdk(e, "DescribeTable", Some(table), endpoint)),
        }
    }
    let mut loaded = Vec::with_capacity(tables.len());
    let mut created: Vec<&str> = Vec::new();
    for (info, items) in tables {
        let step = async {
            create(client, endpoint, info).await?;
            created.push(&info.name);
            wait_active(client, endpoint, &info.name).await?;
            let chunks: Vec<Vec<Item>> = items.chunks(BATCH).map(<[Item]>::to_vec).collect();
            stream::iter(chunks.into_iter().map(Ok))
                .try_for_each_concurrent(PARALLEL_BATCHES, |chunk| {
                    write_batch(client, endpoint, &info.name, chunk)
                })
                .await
        };
        if let Err(e) = step.await {
            return Err(undo_created(client, endpoint, &created, e).await);
        }
        loaded.push(items.len());
    }
    Ok(loaded)
}

/// `failed`, after deleting the tables this run created, and saying so (or which of them are
/// left, when a delete fails too).
async fn undo_created(
    client: &aws_sdk_dynamodb::Client,
    endpoint: &str,
    created: &[&str],
    failed: EngineError,
) -> EngineError {
    if created.is_empty() {
        return failed;
    }
    let mut left = Vec::new();
    for table in created {
        if let Err(e) = client.delete_table().table_name(*table).send().await {
            let e = EngineError::from_sdk(e, "DeleteTable", Some(table), endpoint);
            tracing::warn!(table, error = %e.message, "seed --model: a table it created is not deleted");
            left.push(format!("'{table}'"));
        }
    }
    let quoted: Vec<String> = created.iter().map(|t| format!("'{t}'")).collect();
    let undone = match left.is_empty() {
        true => format!(
            "the tables this run created ({}) were deleted again",
            quoted.join(", ")
        ),
        false => format!(
            "{} could not be deleted again; delete them before a rerun",
            left.join(", ")
        ),
    };
    EngineError {
        message: format!("{}; {undone}", failed.message),
        ..failed
    }
}

/// Creates `info.name` with the keys and indexes `info` gives (GSIs and LSIs with their
/// projections), on demand: `seed --model` and `clone` share it.
pub(super) async fn create(
    client: &aws_sdk_dynamodb::Client,
    endpoint: &str,
    info: &TableInfo,
) -> Result<(), EngineError> {
    let mut definitions: Vec<(String, schema::KeyType)> = Vec::new();
    let all_keys = std::iter::once(&info.keys).chain(info.indexes.iter().map(|i| &i.keys));
    for keys in all_keys {
        for attr in keys.attributes() {
            if !definitions.iter().any(|(n, _)| *n == attr.name) {
                definitions.push((attr.name.clone(), attr.key_type));
            }
        }
    }
    let mut request = client
        .create_table()
        .table_name(&info.name)
        .billing_mode(BillingMode::PayPerRequest)
        .set_key_schema(Some(key_schema(&info.keys)?));
    for (name, t) in definitions {
        request = request.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(scalar(t))
                .build()
                .map_err(build_error)?,
        );
    }
    for index in &info.indexes {
        let projection_type = match index.projection.projection_type.as_str() {
            "KEYS_ONLY" => ProjectionType::KeysOnly,
            "INCLUDE" => ProjectionType::Include,
            _ => ProjectionType::All,
        };
        let projection = Projection::builder()
            .projection_type(projection_type)
            .set_non_key_attributes(
                (!index.projection.non_key_attributes.is_empty())
                    .then(|| index.projection.non_key_attributes.clone()),
            )
            .build();
        if index.kind == schema::IndexKind::Lsi {
            request = request.local_secondary_indexes(
                LocalSecondaryIndex::builder()
                    .index_name(&index.name)
                    .set_key_schema(Some(key_schema(&index.keys)?))
                    .projection(projection)
                    .build()
                    .map_err(build_error)?,
            );
            continue;
        }
        request = request.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(&index.name)
                .set_key_schema(Some(key_schema(&index.keys)?))
                .projection(projection)
                .build()
                .map_err(build_error)?,
        );
    }
    request.send().await.map_err(|e| {
        let too_big = e
            .as_service_error()
            .and_then(|s| s.message())
            .is_some_and(|m| m.contains(KEY_SCHEMA_TOO_BIG));
        match multi_attribute_index(info).filter(|_| too_big) {
            Some(index) => EngineError::bad_input(format!(
                "{endpoint} cannot create '{}': its index '{}' is keyed by {}, and this endpoint refuses multi-attribute keys ('{KEY_SCHEMA_TOO_BIG}'); use DynamoDB Local 3.3.0 or later, or DynamoDB itself",
                info.name,
                index.name,
                index.keys.display()
            )),
            None => EngineError::from_sdk(e, "CreateTable", Some(&info.name), endpoint),
        }
    })?;
    Ok(())
}

/// What DynamoDB Local before 3.3.0 answers a CreateTable with more than one HASH or RANGE
/// element.
const KEY_SCHEMA_TOO_BIG: &str = "Key Schema too big";

fn multi_attribute_index(info: &TableInfo) -> Option<&schema::IndexInfo> {
    info.indexes.iter().find(|i| i.keys.is_multi_attribute())
}
