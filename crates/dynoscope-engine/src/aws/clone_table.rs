//! `clone`'s writing half: creates a table on a local endpoint with the key schema and the
//! indexes of a source table (as DescribeTable gave them; on demand, no stream, no TTL: a
//! local copy cannot have the source's billing) and copies items into it. Local only, like
//! `seed`: the request guard refuses any other host before signing.

use aws_sdk_dynamodb::error::SdkError;
use futures::stream::{self, StreamExt, TryStreamExt};

use super::convert::item_to_sdk;
use super::error::EngineError;
use super::seed::{ensure_local, local_only_client, wait_active, write_batch, BATCH};
use super::seed_model::create;
use super::Connection;
use crate::aws::error::FromSdk;
use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;

/// Conditional puts in flight at once when adding to an existing table.
const PARALLEL_PUTS: usize = 8;

/// What `prepare` found at the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Created now, empty.
    Created,
    /// There already, and the caller said to add to it.
    Existing,
}

/// Creates `name` at the target like `source` (keys, GSIs, LSIs, projections), or, when it
/// exists already, refuses unless `add` is set (then nothing is created).
pub async fn prepare(
    conn: &Connection,
    source: &TableInfo,
    name: &str,
    add: bool,
) -> Result<Target, EngineError> {
    ensure_local(conn, "clone")?;
    let client = &local_only_client(conn);
    let endpoint = conn.endpoint.as_str();
    match client.describe_table().table_name(name).send().await {
        Ok(_) if add => return Ok(Target::Existing),
        Ok(_) => {
            return Err(EngineError::bad_input(format!(
                "table '{name}' already exists at {endpoint}; pass --to-table with another name, or --add to add the items to it (an item already there is kept)"
            )))
        }
        Err(SdkError::ServiceError(_)) => {}
        Err(e) => return Err(EngineError::from_sdk(e, "DescribeTable", Some(name), endpoint)),
    }
    let mut target = source.clone();
    target.name = name.to_string();
    create(client, endpoint, &target).await?;
    wait_active(client, endpoint, name).await?;
    Ok(Target::Created)
}

/// How many items `copy` wrote, and how many it kept as they were at the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Copied {
    pub written: usize,
    /// Items whose key was already at the target (only when adding to an existing table).
    pub kept: usize,
}

/// Writes `items` (distinct keys) into `table`. Into a table `prepare` created, in batches;
/// into an existing one, one conditional PutItem each, so an item already there is kept
/// rather than overwritten.
pub async fn copy(
    conn: &Connection,
    table: &str,
    key_names: &[String],
    items: Vec<Item>,
    target: Target,
) -> Result<Copied, EngineError> {
    ensure_local(conn, "clone")?;
    let client = &local_only_client(conn);
    let endpoint = conn.endpoint.as_str();
    let total = items.len();
    if target == Target::Created {
        let chunks: Vec<Vec<Item>> = items.chunks(BATCH).map(<[Item]>::to_vec).collect();
        stream::iter(chunks.into_iter().map(Ok))
            .try_for_each_concurrent(super::seed::PARALLEL_BATCHES, |chunk| {
                write_batch(client, endpoint, table, chunk)
            })
            .await?;
        return Ok(Copied {
            written: total,
            kept: 0,
        });
    }
    let condition = key_names
        .iter()
        .enumerate()
        .map(|(i, _)| format!("attribute_not_exists(#k{i})"))
        .collect::<Vec<_>>()
        .join(" AND ");
    let outcomes: Vec<Result<bool, EngineError>> = stream::iter(items)
        .map(|item| {
            let mut put = client
                .put_item()
                .table_name(table)
                .set_item(Some(item_to_sdk(&item)))
                .condition_expression(&condition);
            for (i, name) in key_names.iter().enumerate() {
                put = put.expression_attribute_names(format!("#k{i}"), name);
            }
            async move {
                match put.send().await {
                    Ok(_) => Ok(true),
                    Err(SdkError::ServiceError(e))
                        if e.err().is_conditional_check_failed_exception() =>
                    {
                        Ok(false)
                    }
                    Err(e) => Err(EngineError::from_sdk(e, "PutItem", Some(table), endpoint)),
                }
            }
        })
        .buffer_unordered(PARALLEL_PUTS)
        .collect()
        .await;
    let mut copied = Copied::default();
    for outcome in outcomes {
        if outcome? {
            copied.written += 1;
        } else {
            copied.kept += 1;
        }
    }
    Ok(copied)
}
