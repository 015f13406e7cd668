//! The one GetItem dynoscope sends: after a conditional write was refused, the item as it is
//! now, strongly consistent, so the user sees what changed. Like every read it is sent only
//! with a [`Reservation`] (the session's guard admitted it) and settled with what it consumed.

use crate::aws::error::FromSdk;
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use aws_sdk_dynamodb::Client;
use tokio::time::Instant;

use super::reservation::Reservation;
use super::sdk::consumed_or_worst_case;
use crate::aws::attempts::{AttemptRecorder, Attempts};
use crate::aws::convert::{item_from_sdk, item_to_sdk};
use crate::aws::error::EngineError;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::worst_case_read_units;

/// The item under `key` in `table` now (`None`: it is gone), read strongly consistently.
pub(crate) async fn get_item(
    client: &Client,
    endpoint: &str,
    table: &str,
    key: &Item,
    reservation: Reservation,
) -> Result<Option<Item>, EngineError> {
    let began = Instant::now();
    let result = client
        .get_item()
        .table_name(table)
        .set_key(Some(item_to_sdk(key)))
        .consistent_read(true)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .customize()
        .interceptor(Attempts(
            AttemptRecorder::default().charged(reservation.charge().clone()),
        ))
        .send()
        .await;
    let cause = reservation.cause();
    // Every attempt whose answer was lost: one 400 KB item's worst case each.
    let lost = f64::from(reservation.charge().lost()) * worst_case_read_units(Some(1), true);
    match result {
        Ok(out) => {
            // One item at most: its worst case is one 400 KB item's, when none is reported.
            let mut consumed =
                consumed_or_worst_case(out.consumed_capacity.as_ref(), Some(1), true);
            consumed.total += lost;
            reservation.settle(consumed.total, 1);
            tracing::info!(
                target: "dynoscope::aws::read",
                operation = "GetItem",
                cause = cause.as_str(),
                table,
                consistent = true,
                found = out.item.is_some(),
                consumed_capacity = consumed.total,
                unreported = consumed.unreported_pages > 0,
                latency_ms = began.elapsed().as_millis() as u64,
                "page"
            );
            Ok(out.item.map(item_from_sdk))
        }
        Err(e) => {
            reservation.settle(lost, 0);
            Err(EngineError::from_sdk(e, "GetItem", Some(table), endpoint))
        }
    }
}
