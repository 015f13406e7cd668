//! One bounded page a call, and the cursor for the next, for each shape of read: a single
//! Query or Scan (continued after the last key returned), several Queries merged in sort-key
//! order (each continued at its own place), and an ExecuteStatement (continued at its
//! NextToken). No item is returned twice and none is skipped: a page cut by the item or byte
//! cap continues after the last item it returned.

use std::collections::HashSet;

use serde_json::Value;

use super::cursor::Position;
use super::page::{self, ReadOutcome};
use super::reads::ItemsResult;
use super::server::{page_items, Refusal, Server};
use crate::aws::read::SegmentStart;
use crate::aws::{DoneOutcome, ReadSpec};
use crate::model::engine::keyed_projection::keyed_projection;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::query::partiql::Plan;
use crate::model::traffic::capacity::format_units;

/// What a page is of.
struct Head {
    operation: String,
    table: String,
    index: Option<String>,
}

impl Head {
    fn of(spec: &ReadSpec) -> Head {
        Head {
            operation: spec.operation.as_str().to_string(),
            table: spec.table.clone(),
            index: spec.index.clone(),
        }
    }
}

fn key_text(item: &Item, key_names: &[String]) -> String {
    let mut text = String::new();
    append_dynamo_json(&mut text, &page::key_of(item, key_names));
    text
}

impl Server {
    fn position(&self, scope: &str, cursor: Option<&str>) -> Result<Option<Position>, Refusal> {
        cursor
            .map(|c| self.inner.cursors.decode(scope, c))
            .transpose()
    }

    fn wrong_cursor() -> Refusal {
        "cursor refused: it is not one this server gave for these arguments; pass a cursor unchanged, with the same arguments as the call that returned it (only limit may change)".into()
    }

    /// A single-segment read, one page: from the cursor, cut to the caps, with the cursor for
    /// the next page.
    pub(super) async fn paged(
        &self,
        mut spec: ReadSpec,
        key_names: Vec<String>,
        scope: &str,
        limit: Option<usize>,
        cursor: Option<&str>,
    ) -> Result<ItemsResult, Refusal> {
        let items = page_items(limit)?;
        let start = match self.position(scope, cursor)? {
            None => None,
            Some(Position::After(key)) => Some(key),
            Some(_) => return Err(Self::wrong_cursor()),
        };
        if let Some(key) = &start {
            spec.starts = vec![SegmentStart::After(key.clone())];
        }
        spec.limit = Some(items);
        spec.key_attributes = key_names.clone();
        // Paged on the items' full keys, read even when the projection leaves them out.
        spec.key_attributes_kept = true;
        // A page full of bytes stops reading: nothing is paid for that it does not show.
        spec.max_bytes = Some(page::MAX_PAGE_BYTES);
        let keyed = keyed_projection(&spec);
        let head = Head::of(&spec);
        let read = self.read(spec).await?;
        let (values, cut) = page::to_values(&page::shown(&read.items, keyed.as_ref()));
        let next = if cut {
            read.items
                .get(values.len().wrapping_sub(1))
                .map(|last| page::key_of(last, &key_names))
        } else {
            match read.resumes.first().cloned().flatten() {
                Some(SegmentStart::After(key)) => Some(key),
                Some(SegmentStart::Finished) => None,
                // A page cut short whose keys are unknown: continue after its last item, or
                // (the budget stopped it before it delivered anything) where it started.
                Some(SegmentStart::Beginning) | None => read
                    .items
                    .last()
                    .map(|last| page::key_of(last, &key_names))
                    .or(start),
            }
        };
        Ok(self.page_result(head, values, next.map(Position::After), &read, scope))
    }

    /// Several Queries merged in sort-key order (an `IN` or an `OR` of keys): each asked for
    /// a page's worth, merged, cut to the page; each Query continues after the last of its
    /// items the page returned.
    pub(super) async fn merged_page(
        &self,
        plan: &Plan,
        mut spec: ReadSpec,
        key_names: Vec<String>,
        scope: &str,
        limit: Option<usize>,
        cursor: Option<&str>,
    ) -> Result<ItemsResult, Refusal> {
        let items = page_items(limit)?;
        let queries = spec.segment_count() as usize;
        let starts = match self.position(scope, cursor)? {
            None => vec![SegmentStart::Beginning; queries],
            Some(Position::Queries(starts)) if starts.len() == queries => starts,
            Some(_) => return Err(Self::wrong_cursor()),
        };
        spec.starts = starts.clone();
        spec.limit = Some(items);
        spec.key_attributes = key_names.clone();
        // Merged and paged on the items' full keys, read even when the projection leaves
        // them out.
        spec.key_attributes_kept = true;
        // A page full of bytes stops reading: nothing is paid for that it does not show.
        spec.max_bytes = Some(page::MAX_PAGE_BYTES);
        let keyed = keyed_projection(&spec);
        let head = Head::of(&spec);
        let read = self.read(spec).await?;
        let mut merged = plan.merge(read.per_segment.clone());
        merged.truncate(items);
        let (values, _) = page::to_values(&page::shown(&merged, keyed.as_ref()));
        // The page is a prefix of the merge, so it holds a prefix of each Query's items.
        let returned: HashSet<String> = merged[..values.len()]
            .iter()
            .map(|item| key_text(item, &key_names))
            .collect();
        let next: Vec<SegmentStart> = (0..queries)
            .map(|q| {
                let got = &read.per_segment[q];
                let taken = got
                    .iter()
                    .take_while(|item| returned.contains(&key_text(item, &key_names)))
                    .count();
                match taken {
                    // Every item it read is on the page (or it read none): it continues where
                    // its read stopped, or where it started if it sent nothing.
                    n if n == got.len() => read.resumes[q].clone().unwrap_or(starts[q].clone()),
                    0 => starts[q].clone(),
                    n => SegmentStart::After(page::key_of(&got[n - 1], &key_names)),
                }
            })
            .collect();
        let done = next.iter().all(|s| *s == SegmentStart::Finished);
        let next = (!done).then_some(Position::Queries(next));
        Ok(self.page_result(head, values, next, &read, scope))
    }

    /// An ExecuteStatement, one request a page: DynamoDB evaluates at most `limit` items per
    /// request, so the page is never cut by the item cap and continues at its NextToken. A
    /// page cut by the byte cap is sent again from the same place by the next call, which
    /// skips the items already returned.
    pub(super) async fn statement_page(
        &self,
        mut spec: ReadSpec,
        scope: &str,
        limit: Option<usize>,
        cursor: Option<&str>,
    ) -> Result<ItemsResult, Refusal> {
        let items = page_items(limit)?;
        let (start, skip) = match self.position(scope, cursor)? {
            None => (None, 0),
            Some(Position::After(token)) => (Some(token), 0),
            Some(Position::Resend { start, skip }) => (start, skip),
            Some(Position::Queries(_)) => return Err(Self::wrong_cursor()),
        };
        if let Some(token) = &start {
            spec.starts = vec![SegmentStart::After(token.clone())];
        }
        spec.limit = None;
        spec.page_size = Some(items.clamp(1, i32::MAX as usize) as i32);
        spec.budget.max_pages = Some(1);
        let head = Head::of(&spec);
        let read = self.read(spec).await?;
        let resume = read.resumes.first().cloned().flatten();
        let fresh = read.items.get(skip..).unwrap_or_default();
        let (values, cut) = page::to_values(fresh);
        let next = match resume {
            // The budget stopped it before it sent anything: the same place again.
            None => Some(Position::Resend { start, skip }),
            Some(_) if cut => Some(Position::Resend {
                start,
                skip: skip + values.len(),
            }),
            // The page held fewer items than were already returned (the guard lowered its
            // Limit this time): the rest of the skip carries over to the next page.
            Some(SegmentStart::After(token)) if read.items.len() < skip => Some(Position::Resend {
                start: Some(token),
                skip: skip - read.items.len(),
            }),
            Some(SegmentStart::After(token)) => Some(Position::After(token)),
            Some(SegmentStart::Finished) | Some(SegmentStart::Beginning) => None,
        };
        Ok(self.page_result(head, values, next, &read, scope))
    }

    /// The page's result: its items, the cursor for `next` (none once the read is complete),
    /// why it stopped, and what it cost.
    fn page_result(
        &self,
        head: Head,
        values: Vec<Value>,
        next: Option<Position>,
        read: &ReadOutcome,
        scope: &str,
    ) -> ItemsResult {
        let budget_stop = read.outcome == Some(DoneOutcome::BudgetReached);
        let stopped = match (&next, budget_stop) {
            (None, _) => "complete",
            (Some(_), true) => "budget",
            (Some(_), false) => "page_full",
        };
        let note = (budget_stop && next.is_some()).then(|| {
            let s = self.inner.budget.standing();
            format!(
                "this call's share of the read budget was spent (per call at most --max-rcu-per-call {} RCU, {} RCU left in the session of --max-rcu {}); call again with the cursor to continue",
                format_units(s.per_call),
                format_units(s.left),
                format_units(s.max)
            )
        });
        ItemsResult {
            operation: head.operation,
            table: head.table,
            index: head.index,
            count: values.len(),
            items: values,
            cursor: next.map(|position| self.inner.cursors.encode(scope, &position)),
            stopped: stopped.to_string(),
            note,
            source: self.source(),
            cost: self.cost(read.requests.clone()),
        }
    }
}
