//! The writer's two guards beyond the condition: [`Admit`], the interceptor that admits
//! every attempt of a write with the run's write guard before it is signed, and the check of
//! what a DeleteItem removed (`ALL_OLD`) against the image read, with `Writer::restore`
//! putting back an item another writer had added to (see the parent module's doc).

use std::collections::HashMap;
use std::sync::Arc;

use aws_sdk_dynamodb::types::ReturnConsumedCapacity;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;

use super::{WriteFailure, WriteGuard, Writer};
use crate::aws::attempts::AttemptRecorder;
use crate::aws::convert::item_to_sdk;
use crate::aws::error::EngineError;
use crate::aws::read::consumed_from_sdk;
use crate::model::item::value::Item;
use crate::model::write::{diff, RenderedOp};

/// Admits each attempt of a write with the run's [`WriteGuard`] before it is signed; an
/// attempt past `--max-wcu` is not sent.
#[derive(Debug)]
pub(crate) struct Admit(pub(crate) Option<Arc<WriteGuard>>);

impl Intercept for Admit {
    fn name(&self) -> &'static str {
        "dynoscope-write-guard"
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        match &self.0 {
            Some(guard) => guard.attempt().map_err(BoxError::from),
            None => Ok(()),
        }
    }
}

/// Whether the item a DeleteItem removed (`ALL_OLD`; `None`: there was none) is exactly the
/// image its condition was made from.
pub(super) fn removed_is(removed: Option<&Item>, read: &Item) -> bool {
    removed.is_some_and(|r| diff(r, read).is_empty())
}

impl Writer {
    /// Puts back `removed`, the item a DeleteItem removed that was not the one read (another
    /// writer changed it after the read): a PutItem on `attribute_not_exists` of its key, so
    /// whatever was written there since is kept. `Ok`: it is back, and the write is a conflict
    /// showing `removed`; `Err`: a permanent failure naming the item, so the user can put it
    /// back by hand. The PutItem is charged to the guard, never refused by it: the table must
    /// get its item back.
    pub(super) async fn restore(
        &self,
        table: &str,
        op: &RenderedOp,
        removed: &Item,
        recorder: &AttemptRecorder,
    ) -> Result<(), WriteFailure> {
        let key_name = op.key.iter().next().map(|(n, _)| n.to_string());
        let result = self
            .client
            .put_item()
            .table_name(table)
            .set_item(Some(item_to_sdk(removed)))
            .condition_expression("attribute_not_exists(#k)")
            .set_expression_attribute_names(key_name.map(|n| HashMap::from([("#k".into(), n)])))
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await;
        let mut text = String::new();
        crate::model::formats::json::append_dynamo_json(&mut text, removed);
        match result {
            Ok(out) => {
                if let Some(guard) = &self.guard {
                    guard.charge(consumed_from_sdk(out.consumed_capacity.as_ref()).total);
                }
                tracing::info!(
                    target: "dynoscope::aws::write",
                    table,
                    "a DeleteItem removed attributes another writer added; the item was put back"
                );
                Ok(())
            }
            Err(e) => {
                let why = crate::aws::error::chain(&e);
                Err(WriteFailure::Failed {
                    error: EngineError::bad_input(format!(
                        "the item was deleted although another writer had changed it after the read, and putting it back failed ({why}); put it back by hand: {text}"
                    )),
                    attempts: recorder.snapshot(),
                })
            }
        }
    }
}
