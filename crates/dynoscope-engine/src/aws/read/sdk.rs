//! Pages from DynamoDB: each [`PageRequest`] becomes one Query or Scan call.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, Select};
use aws_sdk_dynamodb::Client;

use super::reservation::Reservation;
use super::source::{PageRequest, PageSource, RawItems, RawPage};
use super::Operation;
use crate::aws::attempts::{AttemptRecorder, Attempts};
use crate::aws::convert::{item_from_sdk, item_to_sdk, value_from_sdk, value_to_sdk};
use crate::aws::error::EngineError;
use crate::aws::error::FromSdk;
use crate::aws::json_lines::{render_page, JsonLines};
use crate::model::engine::keyed_projection::keyed_projection;
use crate::model::formats::json::JsonSpelling;
use crate::model::item::item_size::item_size;
use crate::model::item::value::{AttrValue, Item};
use crate::model::traffic::capacity::{worst_case_read_units, Consumed};

#[derive(Clone)]
pub struct SdkSource {
    pub client: Client,
    /// As shown in error messages.
    pub endpoint: String,
}

type SdkItem = HashMap<String, AttributeValue>;

impl RawItems for Vec<SdkItem> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len)
    }

    fn key_of(&self, index: usize, names: &[String]) -> Option<Item> {
        let item = self.get(index)?;
        let mut key = Item::new();
        for name in names {
            key.insert(name.clone(), value_from_sdk(item.get(name)?.clone()));
        }
        Some(key)
    }

    fn size_of(&self, index: usize) -> usize {
        // Only a read with a byte cap asks (the MCP server's pages, at most a few hundred).
        self.get(index)
            .map_or(0, |item| item_size(&item_from_sdk(item.clone())))
    }

    fn strip(&mut self, names: &[String]) {
        for item in self.iter_mut() {
            for name in names {
                item.remove(name);
            }
        }
    }

    fn deliver(self, json_lines: Option<JsonSpelling>) -> (Vec<Item>, Option<JsonLines>) {
        match json_lines {
            None => (self.into_iter().map(item_from_sdk).collect(), None),
            Some(spelling) => (Vec::new(), Some(render_page(&self, spelling))),
        }
    }
}

impl PageSource for SdkSource {
    type Items = Vec<SdkItem>;

    fn fetch(
        &self,
        request: PageRequest,
        reservation: &Reservation,
        recorder: AttemptRecorder,
    ) -> impl Future<Output = Result<RawPage<Self::Items>, EngineError>> + Send + 'static {
        let source = self.clone();
        let limit = reservation.limit();
        async move { source.send(request, limit, recorder).await }
    }
}

impl SdkSource {
    async fn send(
        &self,
        request: PageRequest,
        limit: Option<i32>,
        recorder: AttemptRecorder,
    ) -> Result<RawPage<Vec<SdkItem>>, EngineError> {
        let spec = &request.spec;
        // The key attributes are always read, so where the read continues comes from the
        // items' full keys; the segment drops the ones the projection left out.
        let keyed = keyed_projection(spec);
        let (projection, names) = match &keyed {
            Some(k) => (Some(k.expression.clone()), &k.names),
            None => (spec.projection.clone(), &spec.names),
        };
        let names: Option<HashMap<String, String>> =
            (!names.is_empty()).then(|| names.iter().cloned().collect());
        let values = spec.values_for(request.segment);
        let values: Option<HashMap<String, AttributeValue>> = (!values.is_empty()).then(|| {
            values
                .iter()
                .map(|(k, v)| (k.clone(), value_to_sdk(v)))
                .collect()
        });
        let select = spec.delivery.is_count().then_some(Select::Count);
        let start = request.start.as_ref().map(item_to_sdk);
        let table = Some(spec.table.as_str());
        let (items, count, scanned_count, consumed, last_evaluated_key) = match spec.operation {
            Operation::Query => {
                let out = self
                    .client
                    .query()
                    .table_name(&spec.table)
                    .set_index_name(spec.index.clone())
                    .set_key_condition_expression(spec.key_condition.clone())
                    .set_filter_expression(spec.filter.clone())
                    .set_projection_expression(projection.clone())
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .scan_index_forward(!spec.descending)
                    .consistent_read(spec.consistent)
                    .set_limit(limit)
                    .set_select(select)
                    .set_exclusive_start_key(start)
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize()
                    .interceptor(Attempts(recorder))
                    .send()
                    .await
                    .map_err(|e| EngineError::from_sdk(e, "Query", table, &self.endpoint))?;
                (
                    out.items,
                    out.count,
                    out.scanned_count,
                    out.consumed_capacity,
                    out.last_evaluated_key,
                )
            }
            Operation::Scan => {
                let parallel = request.total_segments > 1;
                let out = self
                    .client
                    .scan()
                    .table_name(&spec.table)
                    .set_index_name(spec.index.clone())
                    .set_filter_expression(spec.filter.clone())
                    .set_projection_expression(projection.clone())
                    .set_expression_attribute_names(names)
                    .set_expression_attribute_values(values)
                    .consistent_read(spec.consistent)
                    .set_limit(limit)
                    .set_select(select)
                    .set_segment(parallel.then_some(request.segment as i32))
                    .set_total_segments(parallel.then_some(request.total_segments as i32))
                    .set_exclusive_start_key(start)
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize()
                    .interceptor(Attempts(recorder))
                    .send()
                    .await
                    .map_err(|e| EngineError::from_sdk(e, "Scan", table, &self.endpoint))?;
                (
                    out.items,
                    out.count,
                    out.scanned_count,
                    out.consumed_capacity,
                    out.last_evaluated_key,
                )
            }
            Operation::Statement => {
                let next_token = request
                    .start
                    .as_ref()
                    .and_then(|key| match key.get(NEXT_TOKEN) {
                        Some(AttrValue::S(token)) => Some(token.clone()),
                        _ => None,
                    });
                let statement = spec.statement.as_ref();
                let parameters = statement
                    .filter(|s| !s.parameters.is_empty())
                    .map(|s| s.parameters.iter().map(value_to_sdk).collect());
                let out = self
                    .client
                    .execute_statement()
                    .statement(statement.map(|s| s.text.clone()).unwrap_or_default())
                    .set_parameters(parameters)
                    .consistent_read(spec.consistent)
                    .set_limit(limit)
                    .set_next_token(next_token)
                    .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
                    .customize()
                    .interceptor(Attempts(recorder))
                    .send()
                    .await
                    .map_err(|e| {
                        EngineError::from_sdk(e, "ExecuteStatement", table, &self.endpoint)
                    })?;
                let items = out.items.unwrap_or_default();
                // ExecuteStatement says neither Count nor ScannedCount: the items returned
                // are all it tells.
                let n = items.len() as i32;
                let next = out
                    .next_token
                    .map(|token| Item::from_attrs(vec![(NEXT_TOKEN.into(), AttrValue::S(token))]));
                (
                    Some(items),
                    n,
                    n,
                    out.consumed_capacity,
                    next.as_ref().map(item_to_sdk),
                )
            }
        };
        Ok(RawPage {
            items: items.unwrap_or_default(),
            count: count.max(0) as u64,
            scanned_count: scanned_count.max(0) as u64,
            consumed: consumed_or_worst_case(consumed.as_ref(), limit, spec.consistent),
            last_evaluated_key: last_evaluated_key.map(item_from_sdk),
        })
    }
}

/// Where an ExecuteStatement read continues: its `NextToken`, kept in the segment's resume
/// key under this name (no attribute can be named with a NUL).
pub(crate) const NEXT_TOKEN: &str = "\u{0}NextToken";

/// What a response consumed; one that does not say (DynamoDB Local's ExecuteStatement, a
/// proxy) is charged the worst case of its request, never zero, and counted as unreported.
pub(super) fn consumed_or_worst_case(
    c: Option<&ConsumedCapacity>,
    limit: Option<i32>,
    consistent: bool,
) -> Consumed {
    if c.is_some() {
        return consumed_from_sdk(c);
    }
    let worst = worst_case_read_units(limit, consistent);
    Consumed {
        total: worst,
        table: worst,
        unreported_pages: 1,
        ..Consumed::default()
    }
}

pub(crate) fn consumed_from_sdk(c: Option<&ConsumedCapacity>) -> Consumed {
    let Some(c) = c else {
        return Consumed::default();
    };
    let mut indexes = BTreeMap::new();
    for map in [&c.global_secondary_indexes, &c.local_secondary_indexes]
        .into_iter()
        .flatten()
    {
        for (name, cap) in map {
            *indexes.entry(name.clone()).or_insert(0.0) += cap.capacity_units.unwrap_or(0.0);
        }
    }
    Consumed {
        total: c.capacity_units.unwrap_or(0.0),
        table: c
            .table
            .as_ref()
            .and_then(|t| t.capacity_units)
            .unwrap_or(0.0),
        indexes,
        unreported_pages: 0,
    }
}
