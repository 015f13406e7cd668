//! One op on its own: a PutItem, UpdateItem or DeleteItem with its condition, the re-read of
//! the item after a refused condition, and a DeleteItem's `ALL_OLD` compared with the image
//! read (put back when they differ: see the parent module's doc). A plan of one op sends it
//! once; a move sends its ops in turn through it.

use aws_sdk_dynamodb::types::{ConsumedCapacity, ReturnConsumedCapacity, ReturnValue};

use super::guarded::removed_is;
use super::{names, values, WriteFailure, Writer};
use crate::aws::attempts::AttemptRecorder;
use crate::aws::convert::{item_from_sdk, item_to_sdk};
use crate::model::item::value::Item;
use crate::model::write::RenderedOp;

/// Why one op was not written.
pub(super) enum OpError {
    /// Its item is not what its condition expects: `current` is the item as it is now
    /// (`None`: gone). Nothing of the op is in the table.
    Changed(Option<Item>),
    /// The request failed, or a removed item could not be put back.
    Failed(WriteFailure),
}

impl Writer {
    /// Sends `op` (its before-image `read`, for a DeleteItem's `ALL_OLD` check).
    pub(super) async fn send_one(
        &self,
        table: &str,
        op: &RenderedOp,
        read: Option<&Item>,
        recorder: &AttemptRecorder,
    ) -> Result<Option<ConsumedCapacity>, OpError> {
        let operation = op.operation;
        let result = match operation {
            "PutItem" => {
                let request = self
                    .client
                    .put_item()
                    .table_name(table)
                    .set_item(op.item.as_ref().map(item_to_sdk))
                    .condition_expression(&op.condition)
                    .set_expression_attribute_names(names(op))
                    .set_expression_attribute_values(values(op))
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize();
                self.guarded(request, recorder)
                    .send()
                    .await
                    .map(|o| o.consumed_capacity)
                    .map_err(|e| self.failed_unless_refused(e, operation, table, recorder))
            }
            "UpdateItem" => {
                let request = self
                    .client
                    .update_item()
                    .table_name(table)
                    .set_key(Some(item_to_sdk(&op.key)))
                    .set_update_expression(op.update.clone())
                    .condition_expression(&op.condition)
                    .set_expression_attribute_names(names(op))
                    .set_expression_attribute_values(values(op))
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize();
                self.guarded(request, recorder)
                    .send()
                    .await
                    .map(|o| o.consumed_capacity)
                    .map_err(|e| self.failed_unless_refused(e, operation, table, recorder))
            }
            _ => match self
                .guarded(
                    self.client
                        .delete_item()
                        .table_name(table)
                        .set_key(Some(item_to_sdk(&op.key)))
                        .condition_expression(&op.condition)
                        .set_expression_attribute_names(names(op))
                        .set_expression_attribute_values(values(op))
                        .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                        .return_values(ReturnValue::AllOld)
                        .customize(),
                    recorder,
                )
                .send()
                .await
            {
                Ok(o) => {
                    let removed = o.attributes.map(item_from_sdk);
                    match (read, removed) {
                        (Some(read), removed) if !removed_is(removed.as_ref(), read) => {
                            // Not the item read (another writer added to it): put it back
                            // before anything else; `None`: nothing was removed, it had gone.
                            return Err(match removed {
                                Some(removed) => {
                                    match self.restore(table, op, &removed, recorder).await {
                                        Ok(()) => OpError::Changed(Some(removed)),
                                        Err(failure) => OpError::Failed(failure),
                                    }
                                }
                                None => OpError::Changed(None),
                            });
                        }
                        _ => Ok(o.consumed_capacity),
                    }
                }
                Err(e) => Err(self.failed_unless_refused(e, operation, table, recorder)),
            },
        };
        match result {
            Ok(consumed) => Ok(consumed),
            Err(Some(failure)) => Err(OpError::Failed(failure)),
            Err(None) => match self.current(table, &op.key).await {
                Ok(current) => Err(OpError::Changed(current)),
                Err(failure) => Err(OpError::Failed(failure)),
            },
        }
    }
}
