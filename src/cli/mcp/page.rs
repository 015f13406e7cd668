//! One bounded page of a read: run under the per-call cap and the session's guard, cut to the
//! page's item and byte caps, with what each request consumed and where the next page starts.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use tokio_util::sync::CancellationToken;

use super::super::drain::{drain_until, Next};
use crate::aws::read::SegmentStart;
use crate::aws::{DoneOutcome, Engine, EngineError, ReadSpec};
use crate::model::engine::keyed_projection::KeyedProjection;
use crate::model::formats::json::append_plain_json;
use crate::model::item::value::{AttrValue, Item};

/// Items a page holds by default and at most: enough to see a collection's shape, few enough
/// that an agent cannot pull a table into its context by accident.
pub const DEFAULT_PAGE_ITEMS: usize = 50;
pub const MAX_PAGE_ITEMS: usize = 500;
/// The page's items as plain JSON, at most this many bytes (one item always fits: an item is
/// at most 400 KB).
pub const MAX_PAGE_BYTES: usize = 256 * 1024;

/// One request of the read and what it cost.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RequestCost {
    /// Query, Scan or ExecuteStatement.
    pub operation: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<String>,
    /// Read capacity units DynamoDB reported for this request (a response without a report
    /// is counted at its worst case).
    pub consumed_rcu: f64,
    /// Items returned and items evaluated (before the filter).
    pub count: u64,
    pub scanned_count: u64,
}

pub struct ReadOutcome {
    /// Every segment's items, in segment order.
    pub items: Vec<Item>,
    /// The same items, apart per segment (each Query of a merge).
    pub per_segment: Vec<Vec<Item>>,
    pub requests: Vec<RequestCost>,
    pub outcome: Option<DoneOutcome>,
    /// Per segment: where it continues after its last delivered item (`Finished` once it
    /// read to its end; `None` when it sent nothing).
    pub resumes: Vec<Option<SegmentStart>>,
    pub failure: Option<EngineError>,
}

/// Runs `spec` to its end (its limit, its budget, the collection's end, or `cancel`: the
/// client's cancellation of the call), keeping every item and request.
pub async fn run(engine: &Engine, spec: ReadSpec, cancel: &CancellationToken) -> ReadOutcome {
    let segments = spec.segment_count() as usize;
    let mut per_segment: Vec<Vec<Item>> = vec![Vec::new(); segments];
    let mut resumes = vec![None; segments];
    let mut requests = Vec::new();
    let drained = drain_until(engine, spec, cancel, |page| {
        requests.push(RequestCost {
            operation: page.operation.as_str().to_string(),
            index: page.index.clone(),
            consumed_rcu: page.consumed.total,
            count: page.count,
            scanned_count: page.scanned_count,
        });
        let segment = page.segment as usize;
        if let Some(resume) = resumes.get_mut(segment) {
            *resume = page.resume.clone();
        }
        if let Some(items) = per_segment.get_mut(segment) {
            items.extend(page.items);
        }
        Next::Continue
    })
    .await;
    ReadOutcome {
        items: per_segment.iter().flatten().cloned().collect(),
        per_segment,
        requests,
        outcome: drained.outcome,
        resumes,
        failure: drained.failure.map(|f| f.error),
    }
}

/// Items as plain JSON values (exact numbers, base64 binary, sets as arrays, null), kept
/// while they fit in `MAX_PAGE_BYTES`; the second value says whether some were cut.
pub fn to_values(items: &[Item]) -> (Vec<Value>, bool) {
    let mut values = Vec::with_capacity(items.len());
    let mut bytes = 0;
    let mut line = String::new();
    for item in items {
        line.clear();
        append_plain_json(&mut line, item);
        if !values.is_empty() && bytes + line.len() > MAX_PAGE_BYTES {
            return (values, true);
        }
        bytes += line.len();
        // The text is valid JSON: append_plain_json writes exact numbers, escaped strings.
        values.push(serde_json::from_str(&line).unwrap_or(Value::Null));
    }
    (values, false)
}

/// The items as the page shows them: without the key attributes read only to page on (the
/// projection left them out; `keyed` is what was sent instead of it).
pub fn shown<'a>(items: &'a [Item], keyed: Option<&KeyedProjection>) -> Cow<'a, [Item]> {
    match keyed {
        None => Cow::Borrowed(items),
        Some(keyed) => Cow::Owned(
            items
                .iter()
                .map(|item| {
                    let mut item = item.clone();
                    keyed.strip(&mut item);
                    item
                })
                .collect(),
        ),
    }
}

/// The key attributes of `item`: where a page cut after it continues.
pub fn key_of(item: &Item, key_names: &[String]) -> Item {
    let attrs: Vec<(String, AttrValue)> = key_names
        .iter()
        .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
        .collect();
    Item::from_attrs(attrs)
}
