//! What the live pane shows of the counts, derived from [`LiveStats`] once per tick (and when
//! the window or ranking changes), never per frame: merging a five-minute window's top-k
//! buckets costs far more than a frame may take.

use crate::model::formats::json::{pretty_lines, JsonSpelling};
use crate::model::stream::diff::diff;
use crate::model::stream::warnings::WriteWarning;
use crate::model::stream::window::RatePoint;
use crate::model::stream::{
    Change, LiveStats, LiveTotals, RankBy, RankTarget, RankedKey, ViewType, Window,
};

/// Keys each ranking keeps (the pane shows as many as fit).
pub const LIVE_TOP_KEYS: usize = 10;
/// The rates shown as numbers are averaged over this many complete seconds.
pub const RATE_SECONDS: u64 = 10;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveSummary {
    /// The moment summarised (the pause's, while paused).
    pub now_ms: u64,
    /// Events and write units per second over the window, oldest first.
    pub series: Vec<RatePoint>,
    /// Averages over the last complete seconds (up to [`RATE_SECONDS`]).
    pub events_per_second: f64,
    pub wcu_per_second: f64,
    /// The busiest slot of the series: a second live, [`Self::slot_secs`] over a recording.
    pub peak_events: u64,
    pub peak_wcu: u64,
    /// Seconds a slot of `series` covers (0 is read as 1).
    pub slot_secs: u64,
    /// The ranking's totals in the window.
    pub window_events: u64,
    pub window_wcu: u64,
    pub by_events: Vec<RankedKey>,
    pub by_wcu: Vec<RankedKey>,
    /// Every ranking's, table first.
    pub warnings: Vec<WriteWarning>,
    pub totals: LiveTotals,
}

impl LiveSummary {
    pub fn compute(
        stats: &LiveStats,
        window: Window,
        target: RankTarget,
        now_ms: u64,
        opened_ms: u64,
    ) -> LiveSummary {
        let series = stats.series(window, now_ms);
        let ((events_per_second, wcu_per_second), slot_secs) = match stats.timeline().span_secs() {
            // A recorded window, shown whole: every slot is complete, the rates are
            // averages over the window, and a peak is the busiest slot's count (said with
            // the slot's length).
            Some(span) => {
                let span = span.max(1) as f64;
                let sum =
                    |f: fn(&RatePoint) -> u64| series.iter().map(f).sum::<u64>() as f64 / span;
                (
                    (sum(|p| p.events), sum(|p| p.wcu)),
                    stats.timeline().unit_secs().max(1),
                )
            }
            None => (live_rates(&series, now_ms, opened_ms), 1),
        };
        let (window_events, window_wcu) = stats.window_totals(target, window, now_ms);
        LiveSummary {
            now_ms,
            events_per_second,
            wcu_per_second,
            peak_events: series.iter().map(|p| p.events).max().unwrap_or(0),
            peak_wcu: series.iter().map(|p| p.wcu).max().unwrap_or(0),
            slot_secs,
            window_events,
            window_wcu,
            by_events: stats.top(target, RankBy::Events, window, now_ms, LIVE_TOP_KEYS),
            by_wcu: stats.top(target, RankBy::Wcu, window, now_ms, LIVE_TOP_KEYS),
            warnings: stats.warnings(window, now_ms),
            totals: *stats.totals(),
            series,
        }
    }
}

/// Events and write units per second live: averages over the last complete seconds (the
/// current one is still filling), up to [`RATE_SECONDS`].
fn live_rates(series: &[RatePoint], now_ms: u64, opened_ms: u64) -> (f64, f64) {
    let complete = (now_ms.saturating_sub(opened_ms) / 1000)
        .min(RATE_SECONDS)
        .min(series.len().saturating_sub(1) as u64) as usize;
    let recent = &series[series.len().saturating_sub(1 + complete)..series.len().saturating_sub(1)];
    let average = |f: fn(&RatePoint) -> u64| {
        if complete == 0 {
            0.0
        } else {
            recent.iter().map(f).sum::<u64>() as f64 / complete as f64
        }
    };
    (average(|p| p.events), average(|p| p.wcu))
}

/// Lines the change detail draws: a header of three lines and a blank; the diff (its title and
/// one line per changed attribute, or one line saying why there is none) and a blank; each
/// image the record carries (its title, its pretty JSON, a blank), or one line saying it
/// carries none.
pub fn detail_line_count(change: &Change) -> usize {
    let diff_lines = match diff(change) {
        Some(d) if !d.is_empty() => 1 + d.len(),
        _ => 2,
    };
    let images: usize = [&change.old_image, &change.new_image]
        .into_iter()
        .flatten()
        .map(|image| 2 + pretty_lines(image, JsonSpelling::Plain).len())
        .sum();
    4 + diff_lines + 1 + images.max(1)
}

/// Why a change has no old → new diff, when it has none, in one short line: what the event
/// means, or what its stream's view type (or the record's own) does not carry.
pub fn no_diff_reason(change: &Change, stream: Option<ViewType>) -> String {
    use crate::model::stream::ChangeEvent::{Insert, Remove};
    let view = change.view.or(stream);
    let reason = match (change.event, view) {
        (Insert, Some(v)) if v.has_new() => "an INSERT has no item before it",
        (Remove, Some(v)) if v.has_old() => "a REMOVE has no item after it",
        (_, Some(ViewType::KeysOnly)) => "a KEYS_ONLY stream carries the keys only, no item images",
        (_, Some(ViewType::NewImage)) => "a NEW_IMAGE stream carries no item before the write",
        (_, Some(ViewType::OldImage)) => "an OLD_IMAGE stream carries no item after the write",
        _ => "the record lacks an image",
    };
    format!("no old -> new diff: {reason}")
}

/// What a stream of `view` cannot show, in a line short enough for the pane (the full text is
/// [`ViewType::blind_spot`]).
pub fn view_note(view: ViewType) -> Option<&'static str> {
    Some(match view {
        ViewType::KeysOnly => {
            "KEYS_ONLY stream: no values or diffs, GSIs ranked only if keyed on table keys; WCU estimated"
        }
        ViewType::NewImage => {
            "NEW_IMAGE stream: no item before a write, so no diffs; MODIFY and REMOVE WCU estimated"
        }
        ViewType::OldImage => {
            "OLD_IMAGE stream: no item after a write, so no diffs; INSERT and MODIFY WCU estimated"
        }
        ViewType::NewAndOldImages => return None,
    })
}
