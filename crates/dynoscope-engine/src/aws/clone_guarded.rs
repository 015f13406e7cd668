//! `clone`'s copy under a write guard (`--max-wcu`, `--wcu-per-second`), as bulk runs are
//! guarded: each request (a BatchWriteItem of up to 25 new items, or one conditional PutItem
//! when adding) is admitted at its worst case before it is sent, its items' write units by
//! DynamoDB's rules with every index entry they add (`model::write::bulk::cost`), and every
//! attempt the SDK sends of it (a retry after a 5xx, a reset, a throttle) through the writer's
//! interceptor, which charges the attempt before it at that worst case. A BatchWriteItem's
//! unprocessed items are a new request, admitted again. The guard admits one write at a time,
//! so a guarded copy sends one request at a time. What DynamoDB reports replaces the
//! reservation; a response without it is charged its worst case.

use std::sync::Arc;
use std::time::Duration;

use aws_sdk_dynamodb::error::SdkError;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use aws_sdk_dynamodb::Client;
use tokio_util::sync::CancellationToken;

use super::{Copied, Target};
use crate::aws::convert::{item_from_sdk, item_to_sdk};
use crate::aws::error::{EngineError, FromSdk};
use crate::aws::read::consumed_from_sdk;
use crate::aws::seed::BATCH;
use crate::aws::write::{Admit, WriteAdmission, WriteGuard};
use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::write::bulk::cost::item_cost;

/// Rounds of a BatchWriteItem's unprocessed items before the copy gives up.
const MAX_ROUNDS: u32 = 20;

/// The guard, and the table whose indexes a put writes to (the target is the source's shape).
pub struct CopyGuard<'a> {
    pub guard: &'a Arc<WriteGuard>,
    pub info: &'a TableInfo,
}

/// A put of each new item at its worst case: its size in 1 KB blocks and each index entry it
/// adds. (Adding over an item that is there is billed at the larger of the two, which is not
/// known before: the reported units replace the reservation.)
fn worst(info: &TableInfo, items: &[Item]) -> f64 {
    items
        .iter()
        .map(|item| item_cost(info, &Item::new(), Some(item)).total())
        .sum()
}

/// What one request did: units reported (0: none) and, for a batch, the items left unprocessed;
/// for a put, whether it wrote (`false`: an item of its key was there).
struct Sent {
    units: f64,
    left: Vec<Item>,
    wrote: bool,
}

#[allow(clippy::too_many_arguments)]
pub(super) async fn copy(
    client: &Client,
    endpoint: &str,
    table: &str,
    key_names: &[String],
    condition: &str,
    items: Vec<Item>,
    target: Target,
    stop: &CancellationToken,
    g: CopyGuard<'_>,
) -> Result<Copied, EngineError> {
    let size = match target {
        Target::Created => BATCH,
        Target::Existing => 1,
    };
    let mut copied = Copied::default();
    let mut rest = items.into_iter();
    let mut pending: Vec<Item> = Vec::new();
    let mut round = 0;
    loop {
        if pending.is_empty() {
            pending = rest.by_ref().take(size).collect();
            round = 0;
            if pending.is_empty() {
                break;
            }
        }
        if stop.is_cancelled() {
            break;
        }
        let worst = worst(g.info, &pending);
        let ticket = match g.guard.admit(worst, stop).await {
            None => break,
            Some(WriteAdmission::Exhausted { spent, needed }) => {
                copied.budget = Some((spent, needed));
                break;
            }
            Some(WriteAdmission::Go(ticket)) => ticket,
        };
        let sent = match target {
            Target::Created => batch(client, endpoint, table, &pending, g.guard).await,
            Target::Existing => {
                put(
                    client,
                    endpoint,
                    table,
                    key_names,
                    condition,
                    &pending[0],
                    g.guard,
                )
                .await
            }
        };
        match sent {
            Ok(sent) => {
                let units = if sent.units > 0.0 { sent.units } else { worst };
                g.guard.settle(ticket, units);
                copied.units += units;
                match target {
                    Target::Created => copied.written += pending.len() - sent.left.len(),
                    Target::Existing if sent.wrote => copied.written += 1,
                    Target::Existing => copied.kept += 1,
                }
                pending = sent.left;
                if !pending.is_empty() {
                    round += 1;
                    if round > MAX_ROUNDS {
                        return Err(EngineError::service(format!(
                            "BatchWriteItem kept returning unprocessed items for '{table}'"
                        )));
                    }
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_millis(50 << round.min(5))) => {}
                        _ = stop.cancelled() => {}
                    }
                }
            }
            Err(e) => {
                g.guard.settle(ticket, worst);
                copied.units += worst;
                // The budget refused a retry: an earlier attempt may have gone through, so
                // these items may be there.
                if let Some(refused) = g.guard.refused() {
                    copied.budget = Some(refused);
                    copied.cut_off = pending.len();
                    break;
                }
                return Err(e);
            }
        }
    }
    copied.stopped = stop.is_cancelled();
    Ok(copied)
}

async fn batch(
    client: &Client,
    endpoint: &str,
    table: &str,
    items: &[Item],
    guard: &Arc<WriteGuard>,
) -> Result<Sent, EngineError> {
    let requests = crate::aws::seed::put_requests(items);
    let out = client
        .batch_write_item()
        .request_items(table, requests)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .customize()
        .interceptor(Admit(Some(guard.clone())))
        .send()
        .await
        .map_err(|e| EngineError::from_sdk(e, "BatchWriteItem", Some(table), endpoint))?;
    let units = out
        .consumed_capacity
        .iter()
        .flatten()
        .map(|c| consumed_from_sdk(Some(c)).total)
        .sum();
    let left = out
        .unprocessed_items
        .and_then(|mut m| m.remove(table))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| r.put_request.map(|p| item_from_sdk(p.item)))
        .collect();
    Ok(Sent {
        units,
        left,
        wrote: true,
    })
}

async fn put(
    client: &Client,
    endpoint: &str,
    table: &str,
    key_names: &[String],
    condition: &str,
    item: &Item,
    guard: &Arc<WriteGuard>,
) -> Result<Sent, EngineError> {
    let mut put = client
        .put_item()
        .table_name(table)
        .set_item(Some(item_to_sdk(item)))
        .condition_expression(condition)
        .return_consumed_capacity(ReturnConsumedCapacity::Total);
    for (i, name) in key_names.iter().enumerate() {
        put = put.expression_attribute_names(format!("#k{i}"), name);
    }
    let sent = |units: f64, wrote: bool| Sent {
        units,
        left: Vec::new(),
        wrote,
    };
    match put
        .customize()
        .interceptor(Admit(Some(guard.clone())))
        .send()
        .await
    {
        Ok(out) => Ok(sent(
            consumed_from_sdk(out.consumed_capacity.as_ref()).total,
            true,
        )),
        // A refused condition is billed too: charged its worst case.
        Err(SdkError::ServiceError(e)) if e.err().is_conditional_check_failed_exception() => {
            Ok(sent(0.0, false))
        }
        Err(e) => Err(EngineError::from_sdk(e, "PutItem", Some(table), endpoint)),
    }
}
