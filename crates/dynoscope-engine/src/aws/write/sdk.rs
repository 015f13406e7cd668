//! Plans sent to DynamoDB: one PutItem, UpdateItem or DeleteItem, or a TransactWriteItems,
//! each op with its ConditionExpression and `ReturnConsumedCapacity=INDEXES`. A condition that
//! fails is answered with the item as it is now (a strongly consistent GetItem), so the user
//! sees what changed; nothing of the plan was written.
//!
//! A condition can only name attributes, so it cannot say "and no other attribute": an
//! attribute another writer added after the read passes it. An UpdateItem leaves such an
//! attribute alone; a DeleteItem would remove it. So a DeleteItem asks for the item it removed
//! (`ReturnValues=ALL_OLD`) and compares it with the image the condition was made from: when
//! they differ, the removed item is put back at once (a PutItem on `attribute_not_exists` of
//! its key, so nothing written since is overwritten) and the write is a conflict whose current
//! item is the one DynamoDB returned. A TransactWriteItems cannot return what it removed, so
//! no delete goes in one: a delete is a DeleteItem of its own, and a key change a move sent in
//! turn (`sdk_in_turn.rs`); transactions carry only puts on `attribute_not_exists` and
//! updates (undo's restores).
//!
//! With a [`WriteGuard`] attached ([`Writer::with_write_guard`]), every attempt of every
//! write, the SDK's retries included, is admitted by it before it is signed.

use std::collections::HashMap;
use std::sync::Arc;

use aws_sdk_dynamodb::client::customize::CustomizableOperation;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, Delete, Put, ReturnConsumedCapacity, TransactWriteItem,
    Update,
};
use aws_sdk_dynamodb::Client;
use tokio::time::Instant;

use super::{AuditLog, WriteBackend, WriteDone, WriteFailure, WriteGuard, WriteResult};
use crate::aws::attempts::{AttemptRecorder, Attempts};
use crate::aws::convert::{item_to_sdk, value_to_sdk};
use crate::aws::error::EngineError;
use crate::aws::error::FromSdk;
use crate::aws::read::reservation::{self, SessionGuard};
use crate::aws::read::{consumed_from_sdk, get_item, ReadCause};
use crate::aws::Connection;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::Consumed;
use crate::model::write::{RenderedOp, WritePlan};

#[derive(Clone)]
pub struct Writer {
    client: Client,
    endpoint: String,
    audit: Arc<AuditLog>,
    /// The session's read guard: the re-read after a refused write is admitted by it.
    session: Option<SessionGuard>,
    /// The write guard of the run: every attempt of a write is admitted by it.
    guard: Option<Arc<WriteGuard>>,
}

type SdkMap = HashMap<String, AttributeValue>;

#[path = "sdk_guarded.rs"]
mod guarded;
pub(crate) use guarded::Admit;
#[path = "sdk_in_turn.rs"]
mod in_turn;
#[path = "sdk_one.rs"]
mod one;
use one::OpError;

fn names(op: &RenderedOp) -> Option<HashMap<String, String>> {
    (!op.names.is_empty()).then(|| op.names.iter().cloned().collect())
}

fn values(op: &RenderedOp) -> Option<SdkMap> {
    (!op.values.is_empty()).then(|| {
        op.values
            .iter()
            .map(|(k, v)| (k.clone(), value_to_sdk(v)))
            .collect()
    })
}

fn total(capacities: &[ConsumedCapacity]) -> Consumed {
    let mut sum = Consumed::default();
    for c in capacities {
        sum.add(&consumed_from_sdk(Some(c)));
    }
    sum
}

impl Writer {
    /// A writer on the connection's client (the read engine's client refuses writes), with
    /// every write recorded in `audit`.
    pub fn new(connection: &Connection, audit: AuditLog) -> Self {
        Writer {
            client: connection.client.clone(),
            endpoint: connection.endpoint.clone(),
            audit: Arc::new(audit),
            session: None,
            guard: None,
        }
    }

    /// Every attempt of every write is admitted by `guard` (a bulk run's, an undo's).
    pub fn with_write_guard(mut self, guard: Arc<WriteGuard>) -> Self {
        self.guard = Some(guard);
        self
    }

    fn admit(&self) -> Admit {
        Admit(self.guard.clone())
    }

    /// The re-read after a refused write is admitted by `session`, as the explorer's reads are.
    pub fn with_session_guard(mut self, session: Option<SessionGuard>) -> Self {
        self.session = session;
        self
    }

    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    fn failed<E>(
        &self,
        e: SdkError<E, aws_smithy_runtime_api::client::orchestrator::HttpResponse>,
        operation: &str,
        table: &str,
        recorder: &AttemptRecorder,
    ) -> WriteFailure
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        WriteFailure::Failed {
            error: EngineError::from_sdk(e, operation, Some(table), &self.endpoint),
            attempts: recorder.snapshot(),
        }
    }

    /// `None` when DynamoDB refused the write's condition (the item is not what the user saw:
    /// the caller re-reads it to show what it is now), else the write's failure.
    pub(super) fn failed_unless_refused<E>(
        &self,
        e: SdkError<E, aws_smithy_runtime_api::client::orchestrator::HttpResponse>,
        operation: &str,
        table: &str,
        recorder: &AttemptRecorder,
    ) -> Option<WriteFailure>
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        let code = e.as_service_error().and_then(|s| s.code());
        (code != Some("ConditionalCheckFailedException"))
            .then(|| self.failed(e, operation, table, recorder))
    }

    /// A write request with what every one carries: each attempt recorded and admitted by the
    /// write guard (`--max-wcu`, `--wcu-per-second`) before it is signed.
    pub(super) fn guarded<T, E, B>(
        &self,
        request: CustomizableOperation<T, E, B>,
        recorder: &AttemptRecorder,
    ) -> CustomizableOperation<T, E, B> {
        request
            .interceptor(Attempts(recorder.clone()))
            .interceptor(self.admit())
    }

    /// The item under `key` now, read strongly consistently (`None`: it is gone). A failed
    /// read is a failure of the write, not "deleted": the user must not be told an item is
    /// gone that may well be there.
    async fn current(&self, table: &str, key: &Item) -> Result<Option<Item>, WriteFailure> {
        let changed = "nothing was written: the item changed since it was loaded";
        let reservation = reservation::reserve(
            self.session.as_ref(),
            Some(1),
            ReadCause::ConflictReread,
        )
        .await
        .map_err(|refused| {
            tracing::info!(
                target: "dynoscope::aws::read",
                operation = "GetItem",
                cause = ReadCause::ConflictReread.as_str(),
                table,
                "not sent: {refused}"
            );
            WriteFailure::refused(EngineError::bad_input(format!(
                "{changed}, and reading it again was not sent: {refused}; raise --max-rcu or reload the item"
            )))
        })?;
        match get_item(&self.client, &self.endpoint, table, key, reservation).await {
            Ok(item) => Ok(item),
            Err(mut error) => {
                error.message =
                    format!("{changed}, and reading it again failed: {}", error.message);
                Err(WriteFailure::refused(error))
            }
        }
    }

    async fn send(&self, plan: &WritePlan) -> WriteResult {
        let ops = plan
            .render()
            .map_err(|e| WriteFailure::refused(EngineError::bad_input(e.to_string())))?;
        let recorder = AttemptRecorder::default();
        let started = Instant::now();
        let operation = plan.operation();
        let table = plan.table.as_str();
        let conflict = |index: usize, current: Option<Item>, recorder: &AttemptRecorder| {
            WriteFailure::Conflict {
                index,
                current,
                operation,
                latency: started.elapsed(),
                attempts: recorder.snapshot(),
                sent: recorder.sent_body(),
            }
        };
        let consumed = match ops.as_slice() {
            [op] => match self
                .send_one(table, op, plan.ops[0].before.as_ref(), &recorder)
                .await
            {
                Ok(c) => consumed_from_sdk(c.as_ref()),
                Err(OpError::Changed(current)) => return Err(conflict(0, current, &recorder)),
                Err(OpError::Failed(failure)) => return Err(failure),
            },
            _ if plan.in_turn() => match self.send_in_turn(plan, &ops, &recorder).await {
                Ok(consumed) => consumed,
                Err((i, OpError::Changed(current))) => return Err(conflict(i, current, &recorder)),
                Err((_, OpError::Failed(failure))) => return Err(failure),
            },
            _ => {
                let items = ops
                    .iter()
                    .map(transact_item)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| WriteFailure::refused(EngineError::service(e.to_string())))?;
                let result = self
                    .client
                    .transact_write_items()
                    .set_transact_items(Some(items))
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize();
                let result = self.guarded(result, &recorder).send().await;
                match result {
                    Ok(out) => total(out.consumed_capacity.as_deref().unwrap_or_default()),
                    Err(e) => {
                        // Which op's condition failed: the cancellation reason at its index.
                        let index = e
                            .as_service_error()
                            .filter(|s| s.is_transaction_canceled_exception())
                            .and_then(|s| match s {
                                aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(t) => t
                                    .cancellation_reasons()
                                    .iter()
                                    .position(|r| r.code() == Some("ConditionalCheckFailed")),
                                _ => None,
                            });
                        match index {
                            Some(i) => {
                                let current = self.current(table, &ops[i].key).await?;
                                return Err(conflict(i, current, &recorder));
                            }
                            None => return Err(self.failed(e, operation, table, &recorder)),
                        }
                    }
                }
            }
        };
        Ok(WriteDone {
            operation,
            consumed,
            latency: started.elapsed(),
            attempts: recorder.snapshot(),
            items: ops.len(),
            sent: recorder.sent_body(),
        })
    }
}

fn transact_item(
    op: &RenderedOp,
) -> Result<TransactWriteItem, aws_sdk_dynamodb::error::BuildError> {
    let builder = TransactWriteItem::builder();
    Ok(match op.operation {
        "PutItem" => builder.put(
            Put::builder()
                .table_name(&op.table)
                .set_item(op.item.as_ref().map(item_to_sdk))
                .condition_expression(&op.condition)
                .set_expression_attribute_names(names(op))
                .set_expression_attribute_values(values(op))
                .build()?,
        ),
        "UpdateItem" => builder.update(
            Update::builder()
                .table_name(&op.table)
                .set_key(Some(item_to_sdk(&op.key)))
                .set_update_expression(op.update.clone())
                .condition_expression(&op.condition)
                .set_expression_attribute_names(names(op))
                .set_expression_attribute_values(values(op))
                .build()?,
        ),
        _ => builder.delete(
            Delete::builder()
                .table_name(&op.table)
                .set_key(Some(item_to_sdk(&op.key)))
                .condition_expression(&op.condition)
                .set_expression_attribute_names(names(op))
                .set_expression_attribute_values(values(op))
                .build()?,
        ),
    }
    .build())
}

impl WriteBackend for Writer {
    fn write(&self, plan: WritePlan) -> impl std::future::Future<Output = WriteResult> + Send {
        let writer = self.clone();
        async move {
            if let Err(why) = writer.audit.check() {
                return Err(WriteFailure::refused(EngineError::bad_input(why)));
            }
            let result = writer.send(&plan).await;
            let outcome = match &result {
                Ok(_) => "written",
                Err(WriteFailure::Conflict { .. }) => "conflict",
                Err(WriteFailure::Failed { .. }) => "failed",
            };
            if let Err(e) = writer
                .audit
                .record(&writer.endpoint, &plan, plan.operation(), outcome)
            {
                tracing::warn!(target: "dynoscope::aws::write", "cannot append to the audit file: {e}");
            }
            tracing::info!(
                target: "dynoscope::aws::write",
                table = plan.table.as_str(),
                operation = plan.operation(),
                items = plan.ops.len(),
                outcome,
                "write"
            );
            result
        }
    }

    fn guarded(&self, guard: Arc<WriteGuard>) -> Self {
        self.clone().with_write_guard(guard)
    }
}
