//! Streaming Query and (parallel) Scan: the words the engine and its callers share (what to
//! read, the pages and events a read sends). The engine (`dynoscope_engine::aws::read`) runs
//! them; the explorer and the subcommands build specs and read events with no SDK or runtime
//! in reach.

use std::time::Duration;

use super::attempts::AttemptStats;
use super::error::EngineError;
use super::json_lines::JsonLines;
use crate::engine::read_cause::ReadCause;
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::{read_statement, PartiqlError};
use crate::traffic::capacity::Consumed;
use crate::traffic::distribution::SizedKeys;

pub use super::delivery::Delivery;
pub use super::partiql_statement::PartiqlStatement;
pub use super::read_budget::ReadBudget;

pub type RequestId = u64;

/// A Scan's most segments (DynamoDB allows 1,000,000; more than this only adds tasks).
pub const MAX_SEGMENTS: u32 = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Query,
    Scan,
    /// A PartiQL SELECT sent as is (`ExecuteStatement`), paged with `NextToken`: the same
    /// segment task, guard and `--stats` as Query and Scan.
    Statement,
}

impl Operation {
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Query => "Query",
            Operation::Scan => "Scan",
            Operation::Statement => "ExecuteStatement",
        }
    }
}

/// Where a segment starts: used to resume a cancelled or failed read without re-reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SegmentStart {
    Beginning,
    After(Item),
    Finished,
}

#[derive(Debug, Clone)]
pub struct ReadSpec {
    pub operation: Operation,
    pub table: String,
    /// The user action that asked for this read: logged with each of its requests.
    pub cause: ReadCause,
    /// Statement only: the PartiQL text and the values of its `?`s.
    pub statement: Option<PartiqlStatement>,
    pub index: Option<String>,
    /// Query only: the KeyConditionExpression, already validated.
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
    /// Query only: one segment per entry, each sending `values` with these replacing the values
    /// of the same names. A write-sharded key is one read of all its shards, so it has one
    /// capacity guard, one cancel and one resume point per shard.
    pub shards: Vec<Vec<(String, AttrValue)>>,
    /// Query only: newest (highest sort key) first.
    pub descending: bool,
    pub consistent: bool,
    /// Items to return: across all segments, or per segment with `limit_per_segment` (shards
    /// that are merged in sort-key order afterwards each need the first `limit` of their own).
    pub limit: Option<usize>,
    pub limit_per_segment: bool,
    /// Per segment, items the reads this one continues have already delivered towards
    /// `limit` (see [`ReadProgress::resume`](super::progress::ReadProgress::resume)); empty for
    /// a fresh read.
    pub delivered: Vec<usize>,
    /// DynamoDB's per-request `Limit` (items evaluated per page).
    pub page_size: Option<i32>,
    /// Scan only; 1 sends a plain Scan without Segment/TotalSegments.
    pub segments: u32,
    /// Per segment; empty means every segment from the beginning.
    pub starts: Vec<SegmentStart>,
    /// The key attributes of the table and of the index read, so that a page cut short by the
    /// limit can say where it stopped (the key of its last delivered item). Without them such a
    /// page's [`Page::resume`] is `None`. They are always read: a projection that leaves them
    /// out is sent with them added ([`keyed_projection`](super::keyed_projection::keyed_projection)),
    /// and they are dropped from the delivered items unless `key_attributes_kept`.
    pub key_attributes: Vec<String>,
    /// The pages carry the key attributes added to the projection: the caller pages on them
    /// (merges, cuts to a byte cap) and drops them itself (the MCP server).
    pub key_attributes_kept: bool,
    /// DescribeTable's average item size of the table or index read, in bytes: before any
    /// page says what an item costs, a request sized to a small budget assumes it (rounded up
    /// to whole 4 KB blocks), not one block an item.
    pub average_item_bytes: Option<u64>,
    /// Per segment: the read stops once its delivered items reach this many bytes (DynamoDB's
    /// item size), ending on the item that reaches it, and asks each request for no more
    /// items than fill what is left (the MCP server's 256 KB page): a full page reads nothing
    /// it does not deliver.
    pub max_bytes: Option<usize>,
    /// The form the pages carry the items in: items, counts, JSON lines or key texts and sizes.
    pub delivery: Delivery,
    /// The pages and capacity this read may spend.
    pub budget: ReadBudget,
}

impl ReadSpec {
    /// A read of `table` for `cause`: there is no read without the action that named it.
    pub fn new(operation: Operation, table: impl Into<String>, cause: ReadCause) -> Self {
        ReadSpec {
            operation,
            table: table.into(),
            cause,
            statement: None,
            index: None,
            key_condition: None,
            filter: None,
            projection: None,
            names: Vec::new(),
            values: Vec::new(),
            shards: Vec::new(),
            descending: false,
            consistent: false,
            limit: None,
            limit_per_segment: false,
            delivered: Vec::new(),
            page_size: None,
            segments: 1,
            starts: Vec::new(),
            key_attributes: Vec::new(),
            key_attributes_kept: false,
            average_item_bytes: None,
            max_bytes: None,
            delivery: Delivery::Items,
            budget: ReadBudget::default(),
        }
    }

    /// `statement` sent as ExecuteStatement, read like a one-segment Scan. What is sent is the
    /// SELECT re-rendered from dynoscope's own tokens ([`read_statement`]), never the raw text,
    /// so DynamoDB runs what dynoscope judged; anything but one SELECT is refused here.
    pub fn statement(
        table: impl Into<String>,
        statement: &str,
        parameters: Vec<AttrValue>,
        cause: ReadCause,
    ) -> Result<Self, PartiqlError> {
        Ok(ReadSpec {
            statement: Some(PartiqlStatement {
                text: read_statement(statement)?,
                parameters,
            }),
            ..ReadSpec::new(Operation::Statement, table, cause)
        })
    }

    /// Segments this read runs: scan segments, or one per shard of a Query.
    pub fn segment_count(&self) -> u32 {
        match self.operation {
            Operation::Query => (self.shards.len() as u32).max(1),
            Operation::Scan => self.segments.clamp(1, MAX_SEGMENTS),
            Operation::Statement => 1,
        }
    }

    /// Items the limit still allows: in all, or per segment with `limit_per_segment`.
    pub fn limit_left(&self) -> Vec<usize> {
        let Some(limit) = self.limit else {
            return Vec::new();
        };
        let delivered = |i: usize| self.delivered.get(i).copied().unwrap_or(0);
        if self.limit_per_segment {
            (0..self.segment_count() as usize)
                .map(|i| limit.saturating_sub(delivered(i)))
                .collect()
        } else {
            vec![limit.saturating_sub(self.delivered.iter().sum())]
        }
    }

    /// The expression values segment `segment` sends: a shard's own replace the shared ones.
    pub fn values_for(&self, segment: u32) -> Vec<(String, AttrValue)> {
        let mut values = self.values.clone();
        if let Some(overrides) = self.shards.get(segment as usize) {
            for (name, value) in overrides {
                match values.iter_mut().find(|(n, _)| n == name) {
                    Some(slot) => slot.1 = value.clone(),
                    None => values.push((name.clone(), value.clone())),
                }
            }
        }
        values
    }
}

/// One response page, with everything the request log shows about it.
#[derive(Debug, Clone)]
pub struct Page {
    pub request_id: RequestId,
    pub operation: Operation,
    pub index: Option<String>,
    pub segment: u32,
    /// 1-based within the segment.
    pub page: u32,
    /// Empty when the read asked for [`Delivery::JsonLines`]; the items are then in `json_lines`.
    pub items: Vec<Item>,
    pub json_lines: Option<JsonLines>,
    /// The items as key texts and sizes, when the read asked for [`Delivery::SizedKeys`] and
    /// the reader could give them. Boxed: most pages have none, and every event is as big as
    /// the biggest.
    pub sized_keys: Option<Box<SizedKeys>>,
    /// DynamoDB's `Count` and `ScannedCount` for this page.
    pub count: u64,
    pub scanned_count: u64,
    pub consumed: Consumed,
    /// When the request was sent, from the start of the read.
    pub sent_at: Duration,
    /// Wall time of the request, including the SDK's retries.
    pub latency: Duration,
    pub attempts: AttemptStats,
    pub last_evaluated_key: Option<Item>,
    /// Where this segment continues after the items delivered here: after the last of them, or
    /// `Finished`. It differs from `last_evaluated_key` when the limit cut the page short.
    /// `None` only when such a cut page's keys are unknown ([`ReadSpec::key_attributes`]).
    pub resume: Option<SegmentStart>,
    /// The request's body as it was sent (its last attempt's), when recorded.
    pub sent: Option<std::sync::Arc<str>>,
}

impl Page {
    /// Items this page delivers, in either form.
    pub fn item_count(&self) -> usize {
        self.items.len()
            + self.json_lines.as_ref().map_or(0, |lines| lines.items)
            + self.sized_keys.as_ref().map_or(0, |sized| sized.len())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoneOutcome {
    /// Every segment stopped normally: at its end, or after `budget.max_pages` (each page's
    /// `resume` says whether more remain).
    Complete,
    /// `limit` items were returned.
    LimitReached,
    /// The capacity budget (`budget.max_rcu`) is spent.
    BudgetReached,
    Cancelled,
}

// Nearly every event is a page, and few wait in a read's bounded channel: boxing pages would
// add an allocation per page to save memory nobody holds.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum EngineEvent {
    Page(Page),
    /// Sent once per read, after every segment task has stopped.
    Done {
        request_id: RequestId,
        outcome: DoneOutcome,
        /// From the start of the read to its end.
        elapsed: Duration,
    },
    /// A request given up on: cancelled by the user while in flight, or failed after another
    /// segment's failure had already ended the read. Its attempts still count.
    Abandoned {
        request_id: RequestId,
        segment: u32,
        attempts: AttemptStats,
    },
    /// An export's read found data files missing, cut short or damaged (their lines are
    /// [`IntegrityReport`]'s): sent once, before `Done`, by a read of the whole export.
    ///
    /// [`IntegrityReport`]: crate::exports::table_export::IntegrityReport
    Integrity {
        request_id: RequestId,
        report: crate::exports::table_export::IntegrityReport,
    },
    /// Sent once per read instead of `Done`, after every segment task has stopped.
    Failed {
        request_id: RequestId,
        segment: u32,
        error: EngineError,
        attempts: AttemptStats,
        elapsed: Duration,
    },
}

impl EngineEvent {
    pub fn request_id(&self) -> RequestId {
        match self {
            EngineEvent::Page(p) => p.request_id,
            EngineEvent::Done { request_id, .. }
            | EngineEvent::Integrity { request_id, .. }
            | EngineEvent::Failed { request_id, .. }
            | EngineEvent::Abandoned { request_id, .. } => *request_id,
        }
    }
}
