//! A move sent in turn: a delete cannot go in a TransactWriteItems and still be compared with
//! the image read (a transaction returns nothing it removed), so a key change is the PutItem
//! of the new key on `attribute_not_exists`, then the DeleteItem of the old key on its loaded
//! image with `ALL_OLD` compared. When the delete is refused, or removed an item another
//! writer had added to (put back at once), the put is taken back by a DeleteItem of exactly
//! what it wrote, itself compared, and the write is a conflict: the table is as it was. The
//! two are not isolated: a reader between them sees the item under both keys.

use super::one::OpError;
use super::{WriteFailure, Writer};
use crate::aws::attempts::AttemptRecorder;
use crate::aws::error::EngineError;
use crate::aws::read::consumed_from_sdk;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::Consumed;
use crate::model::write::{diff, RenderedOp, WritePlan};

fn same(a: Option<&Item>, b: Option<&Item>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => diff(a, b).is_empty(),
        _ => false,
    }
}

impl Writer {
    /// Sends `ops` (the rendered `plan`) one after another. `Err((i, why))`: op `i` was not
    /// written; when its condition was refused, the ops before it were taken back first.
    pub(super) async fn send_in_turn(
        &self,
        plan: &WritePlan,
        ops: &[RenderedOp],
        recorder: &AttemptRecorder,
    ) -> Result<Consumed, (usize, OpError)> {
        let table = plan.table.as_str();
        let mut consumed = Consumed::default();
        for (i, op) in ops.iter().enumerate() {
            let tried = recorder.snapshot().attempts;
            let planned = &plan.ops[i];
            match self
                .send_one(table, op, planned.before.as_ref(), recorder)
                .await
            {
                Ok(c) => consumed.add(&consumed_from_sdk(c.as_ref())),
                // An earlier attempt of this op went through and its answer was lost: the
                // item is what the op makes it, so it is written, once.
                Err(OpError::Changed(current))
                    if recorder.snapshot().attempts > tried + 1
                        && same(current.as_ref(), planned.after.as_ref()) => {}
                Err(OpError::Changed(current)) => {
                    if let Err(failure) = self.take_back(plan, i, recorder).await {
                        return Err((i, OpError::Failed(failure)));
                    }
                    return Err((i, OpError::Changed(current)));
                }
                // A request that failed may have been applied (its answer lost): taking the
                // put back could then lose the item, so both stay and the error says so.
                Err(OpError::Failed(failure)) if i > 0 => {
                    return Err((i, OpError::Failed(both_kept(plan, failure))))
                }
                Err(failed) => return Err((i, failed)),
            }
        }
        Ok(consumed)
    }

    /// Takes back `plan.ops[..written]`, last first.
    async fn take_back(
        &self,
        plan: &WritePlan,
        written: usize,
        recorder: &AttemptRecorder,
    ) -> Result<(), WriteFailure> {
        for back in plan.rollback[..written].iter().rev() {
            let why = match back.render(&plan.table) {
                Err(e) => e.to_string(),
                Ok(rendered) => match self
                    .send_one(&plan.table, &rendered, back.before.as_ref(), recorder)
                    .await
                {
                    Ok(_) => continue,
                    Err(OpError::Changed(_)) => {
                        "another writer changed it in the meantime, and it was left as they wrote it"
                            .to_string()
                    }
                    Err(OpError::Failed(failure)) => message(&failure),
                },
            };
            let key = json(&back.key);
            return Err(WriteFailure::Failed {
                error: EngineError::bad_input(format!(
                    "nothing was moved: the item changed since it was loaded, but taking back its copy under the new key {key} failed ({why}); both keys are in the table now: delete {key} by hand if you do not want it"
                )),
                attempts: recorder.snapshot(),
            });
        }
        Ok(())
    }
}

fn json(item: &Item) -> String {
    let mut text = String::new();
    append_dynamo_json(&mut text, item);
    text
}

fn message(failure: &WriteFailure) -> String {
    match failure {
        WriteFailure::Failed { error, .. } => error.message.clone(),
        WriteFailure::Conflict { .. } => "a conflict".to_string(),
    }
}

/// The delete of a move failed (not refused): the item is under its new key, and the old one
/// may still be there.
fn both_kept(plan: &WritePlan, failure: WriteFailure) -> WriteFailure {
    let new_key = plan.ops.first().map(|op| json(&op.key)).unwrap_or_default();
    match failure {
        WriteFailure::Failed {
            mut error,
            attempts,
        } => {
            error.message = format!(
                "the item was written under its new key {new_key}, and deleting the old key failed: {}; look at both before trying again",
                error.message
            );
            WriteFailure::Failed { error, attempts }
        }
        conflict => conflict,
    }
}
