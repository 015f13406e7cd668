//! ExecuteStatement, for the SELECTs dynoscope cannot translate: sent only when the user asked,
//! after being told that its capacity cannot be guarded or shown beforehand.

use super::convert::{item_from_sdk, value_to_sdk};
use super::{Engine, EngineError, Operation, ReadSpec};
use crate::model::partiql::{Plan, ReadKind};
use crate::model::value::{AttrValue, Item};

impl Engine {
    /// Runs `statement` to its last page (at most `limit` items), calling `on_page` with each
    /// page's items.
    pub async fn execute_statement(
        &self,
        statement: &str,
        parameters: &[AttrValue],
        limit: Option<usize>,
        mut on_page: impl FnMut(Vec<Item>) -> bool,
    ) -> Result<(), EngineError> {
        let mut next_token: Option<String> = None;
        let mut delivered = 0usize;
        loop {
            let mut request = self
                .client()
                .execute_statement()
                .statement(statement)
                .set_next_token(next_token.take());
            if !parameters.is_empty() {
                request =
                    request.set_parameters(Some(parameters.iter().map(value_to_sdk).collect()));
            }
            let out = request
                .send()
                .await
                .map_err(|e| EngineError::from_sdk(e, "ExecuteStatement", None, self.endpoint()))?;
            let mut items: Vec<Item> = out
                .items
                .unwrap_or_default()
                .into_iter()
                .map(item_from_sdk)
                .collect();
            if let Some(limit) = limit {
                items.truncate(limit.saturating_sub(delivered));
            }
            delivered += items.len();
            let more = on_page(items);
            next_token = out.next_token;
            if !more || next_token.is_none() || limit.is_some_and(|l| delivered >= l) {
                return Ok(());
            }
        }
    }
}

/// The read a translated statement runs as, in the explorer and in `dynoscope partiql` alike:
/// several Queries are the shards of one read, merged as sharded reads are.
pub fn plan_read(plan: &Plan) -> ReadSpec {
    let operation = match plan.kind {
        ReadKind::Query => Operation::Query,
        ReadKind::Scan => Operation::Scan,
    };
    let mut spec = ReadSpec::new(operation, &plan.table);
    spec.index = plan.index.clone();
    spec.key_condition = plan.key_condition.clone();
    spec.filter = plan.filter.clone();
    spec.projection = plan.projection.clone();
    spec.names = plan.names.clone();
    spec.values = plan.values.clone();
    spec.descending = plan.descending;
    if !plan.queries.is_empty() {
        spec.shards = plan.request_values();
        spec.limit_per_segment = true;
    }
    spec
}
