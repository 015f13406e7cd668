//! `clone`'s writing half: creates a table on a local endpoint with the key schema and the
//! indexes of a source table (as DescribeTable gave them; on demand, no stream, no TTL: a
//! local copy cannot have the source's billing) and copies items into it, until the end or a
//! stop (Ctrl-C). Local only, like `seed`: the request guard refuses any other host before
//! signing. Adding to an existing table takes one of the source's key schema and indexes only:
//! into another key schema, items of distinct keys would land on one key and be lost.

use std::cell::Cell;
use std::time::Duration;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::Client;
use futures::stream::{self, StreamExt};
use tokio_util::sync::CancellationToken;

use super::convert::item_to_sdk;
use super::describe::table_info;
use super::error::EngineError;
use super::seed::{ensure_local, local_only_client, wait_active, write_batch, BATCH};
use super::seed_model::create;
use super::Connection;
use crate::aws::error::FromSdk;
use crate::model::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::model::item::value::Item;

#[path = "clone_guarded.rs"]
pub mod guarded;
pub use guarded::CopyGuard;

/// Conditional puts in flight at once when adding to an existing table.
const PARALLEL_PUTS: usize = 8;
/// How long the writes in flight when the copy is stopped may still end (and be counted):
/// a local endpoint answers in milliseconds, and a stop must come within a second.
const GRACE: Duration = Duration::from_millis(500);

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
        Ok(out) if add => {
            let existing = out.table.ok_or_else(|| {
                EngineError::service(format!("DescribeTable for '{name}' returned no table"))
            })?;
            let existing = table_info(existing, None).map_err(EngineError::service)?;
            let (want, have) = (shape(source), shape(&existing));
            if want != have {
                return Err(EngineError::bad_input(format!(
                    "--add copies only into a table of the source's key schema and indexes: '{name}' at {endpoint} has {have}, '{}' has {want}; nothing was written (clone into a new --to-table)",
                    source.name
                )));
            }
            return Ok(Target::Existing);
        }
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

fn keys_text(keys: &KeySchema) -> String {
    keys.display()
}

/// A table's key schema and indexes (keys and projections) as one line, indexes by name:
/// equal for two tables an item is copied between whole, under its key.
fn shape(info: &TableInfo) -> String {
    let mut indexes: Vec<String> = info
        .indexes
        .iter()
        .map(|i| {
            let kind = match i.kind {
                IndexKind::Gsi => "GSI",
                IndexKind::Lsi => "LSI",
            };
            let mut attrs = i.projection.non_key_attributes.clone();
            attrs.sort();
            let include = if attrs.is_empty() {
                String::new()
            } else {
                format!(" {}", attrs.join(" "))
            };
            format!(
                "{kind} {} ({}; {}{include})",
                i.name,
                keys_text(&i.keys),
                i.projection.projection_type
            )
        })
        .collect();
    indexes.sort();
    let indexes = if indexes.is_empty() {
        "no indexes".to_string()
    } else {
        indexes.join(", ")
    };
    format!("key ({}) and {indexes}", keys_text(&info.keys))
}

/// How many items `copy` wrote, and how many it kept as they were at the target.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Copied {
    pub written: usize,
    /// Items whose key was already at the target (only when adding to an existing table).
    pub kept: usize,
    /// The copy was stopped before its end.
    pub stopped: bool,
    /// Items whose write was in flight when the stop came and had no answer within
    /// [`GRACE`]: they may be at the target or not. Under a write guard: the items of a
    /// request whose retry the budget refused.
    pub cut_off: usize,
    /// Under a write guard: the copy stopped at `--max-wcu` (the units spent, and the worst
    /// case of the request that did not fit).
    pub budget: Option<(f64, f64)>,
    /// Under a write guard: the write units charged.
    pub units: f64,
}

/// Writes `items` (distinct keys) into `table`. Into a table `prepare` created, in batches;
/// into an existing one, one conditional PutItem each, so an item already there is kept
/// rather than overwritten. Once `stop` fires no write starts, and the writes in flight get
/// [`GRACE`] to end. With a write guard, one request at a time, each attempt admitted by it
/// ([`guarded`]); the copy stops before a request that does not fit in `--max-wcu`.
pub async fn copy(
    conn: &Connection,
    table: &str,
    key_names: &[String],
    items: Vec<Item>,
    target: Target,
    stop: &CancellationToken,
    guard: Option<CopyGuard<'_>>,
) -> Result<Copied, EngineError> {
    ensure_local(conn, "clone")?;
    let client = &local_only_client(conn);
    let endpoint = conn.endpoint.as_str();
    let (size, parallel) = match target {
        Target::Created => (BATCH, super::seed::PARALLEL_BATCHES),
        Target::Existing => (1, PARALLEL_PUTS),
    };
    let condition = key_names
        .iter()
        .enumerate()
        .map(|(i, _)| format!("attribute_not_exists(#k{i})"))
        .collect::<Vec<_>>()
        .join(" AND ");
    let condition = condition.as_str();
    if let Some(g) = guard {
        return guarded::copy(
            client, endpoint, table, key_names, condition, items, target, stop, g,
        )
        .await;
    }
    let started = Cell::new(0usize);
    let chunks: Vec<Vec<Item>> = items.chunks(size).map(<[Item]>::to_vec).collect();
    let mut pending = stream::iter(chunks)
        .take_while(|_| std::future::ready(!stop.is_cancelled()))
        .map(|chunk| {
            started.set(started.get() + chunk.len());
            async move {
                match target {
                    Target::Created => {
                        let n = chunk.len();
                        write_batch(client, endpoint, table, chunk).await?;
                        Ok((n, 0))
                    }
                    Target::Existing => {
                        let new = put_new(client, endpoint, table, key_names, condition, &chunk[0]);
                        Ok(if new.await? { (1, 0) } else { (0, 1) })
                    }
                }
            }
        })
        .buffer_unordered(parallel);
    let mut copied = Copied::default();
    let mut deadline = None;
    loop {
        let grace_over = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            next = pending.next() => match next {
                None => break,
                Some(done) => {
                    let (written, kept): (usize, usize) = done?;
                    copied.written += written;
                    copied.kept += kept;
                }
            },
            _ = stop.cancelled(), if deadline.is_none() => {
                deadline = Some(tokio::time::Instant::now() + GRACE);
            }
            _ = grace_over => break,
        }
    }
    drop(pending);
    copied.stopped = stop.is_cancelled();
    copied.cut_off = started.get() - copied.written - copied.kept;
    Ok(copied)
}

/// One conditional PutItem: `true` when written, `false` when an item of its key was there.
async fn put_new(
    client: &Client,
    endpoint: &str,
    table: &str,
    key_names: &[String],
    condition: &str,
    item: &Item,
) -> Result<bool, EngineError> {
    let mut put = client
        .put_item()
        .table_name(table)
        .set_item(Some(item_to_sdk(item)))
        .condition_expression(condition);
    for (i, name) in key_names.iter().enumerate() {
        put = put.expression_attribute_names(format!("#k{i}"), name);
    }
    match put.send().await {
        Ok(_) => Ok(true),
        Err(SdkError::ServiceError(e)) if e.err().is_conditional_check_failed_exception() => {
            Ok(false)
        }
        Err(e) => Err(EngineError::from_sdk(e, "PutItem", Some(table), endpoint)),
    }
}
