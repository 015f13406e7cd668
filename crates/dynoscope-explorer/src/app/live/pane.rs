//! The live pane (`W`): a table's writes as its DynamoDB stream shows them. Every change is
//! counted in a [`LiveStats`] (fixed memory whatever the traffic) and kept in its bounded
//! tail; what the pane shows of the rates, rankings and warnings is derived once per tick into a
//! [`LiveSummary`], so drawing only formats what is visible. Pausing freezes what is shown while
//! the changes keep being counted.

use super::summary::LiveSummary;
use crate::app::state::ListCursor;
use crate::model::design::schema::TableInfo;
use crate::model::stream::attribution::WriteTargets;
use crate::model::stream::tail::TailBuffer;
use crate::model::stream::{Change, LiveConfig, LiveStats, RankTarget, Timeline, ViewType, Window};

/// Where the stream read is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiveStatus {
    /// Describing the table for its stream.
    Connecting,
    /// Reading every shard; changes made from now on arrive.
    Reading,
    /// The table has no stream (the text names the `update-table` that would enable one), or
    /// it could not be described.
    Unavailable(String),
    /// The read failed; what was counted stays on screen.
    Failed(String),
    /// The stream was disabled and every shard has been read to its end, or a recorded
    /// window's every change was delivered.
    Ended,
}

/// `f`: only the changes of one item collection, kept in a tail of their own so a quiet
/// collection is not crowded out of view by the busy ones.
#[derive(Debug, Clone)]
pub struct Follow {
    /// The table partition key value followed.
    pub key: String,
    pub tail: TailBuffer,
}

/// What the pane shows while paused: the counts and tails as they were at the pause.
#[derive(Debug, Clone)]
pub struct Frozen {
    pub stats: LiveStats,
    pub follow: Option<Follow>,
    pub at_ms: u64,
}

/// One change opened with Enter: a copy, so it stays while the tail moves on.
#[derive(Debug, Clone)]
pub struct ChangeDetail {
    pub change: Change,
    pub scroll: usize,
    /// Lines the detail draws (see [`super::summary::detail_line_count`]).
    pub line_count: usize,
}

#[derive(Debug, Clone)]
pub struct LiveView {
    /// The id of the stream read: news carrying another id is stale and dropped.
    pub stream_id: u64,
    pub status: LiveStatus,
    /// The stream's view type, once found: what its records can show.
    pub view_type: Option<ViewType>,
    /// Shards being read (opened minus closed).
    pub shards: usize,
    /// Counts every change, paused or not.
    pub stats: LiveStats,
    pub follow: Option<Follow>,
    /// `Some` while paused.
    pub frozen: Option<Box<Frozen>>,
    pub window: Window,
    /// Whose partition keys the rankings show: the table's, or one GSI's.
    pub target: RankTarget,
    /// The tail list's cursor; row 0 is the newest change.
    pub tail: ListCursor,
    pub detail: Option<ChangeDetail>,
    pub summary: LiveSummary,
    /// The clock when the pane opened (rates are averaged over the seconds since, at first).
    pub opened_ms: u64,
    /// The entity separator of the loaded items, for decoding kinds in the tail.
    pub separator: char,
    pub config: LiveConfig,
    /// The table's partition and sort key names.
    pub pk_name: String,
    pub sk_name: Option<String>,
}

impl LiveView {
    /// The changes come from a recorded window (an incremental export), not a live stream:
    /// they are counted at their own write times, the window is the whole recording, and the
    /// clock stands at its end. Called before the first change arrives.
    pub fn set_recorded(&mut self, from_ms: u64, to_ms: u64) {
        let timeline = Timeline::Recorded { from_ms, to_ms };
        self.stats =
            LiveStats::for_targets(self.stats.targets().clone(), self.config).on_timeline(timeline);
        self.stats.advance(to_ms);
        self.window = Window::FiveMinutes;
        self.opened_ms = from_ms;
        self.refresh(to_ms);
    }

    pub fn timeline(&self) -> Timeline {
        self.stats.timeline()
    }

    /// The moment the pane summarises: the clock's, or a recording's end.
    fn summarised_at(&self, now_ms: u64) -> u64 {
        match self.timeline() {
            Timeline::Live => now_ms,
            Timeline::Recorded { to_ms, .. } => to_ms,
        }
    }
}

impl crate::app::state::State {
    /// Whether the live pane is open: it needs ticks to move its windows on.
    pub fn live_open(&self) -> bool {
        self.table.as_ref().is_some_and(|v| v.live().is_some())
    }
}

impl LiveView {
    pub fn new(
        stream_id: u64,
        info: &TableInfo,
        config: LiveConfig,
        now_ms: u64,
        separator: char,
    ) -> Self {
        let stats = LiveStats::new(info, config);
        let mut view = LiveView {
            stream_id,
            status: LiveStatus::Connecting,
            view_type: info.stream.as_deref().and_then(ViewType::parse),
            shards: 0,
            stats,
            follow: None,
            frozen: None,
            window: Window::OneMinute,
            target: RankTarget::Table,
            tail: ListCursor::default(),
            detail: None,
            summary: LiveSummary::default(),
            opened_ms: now_ms,
            separator,
            config,
            pk_name: info.keys.partition_key().name.clone(),
            sk_name: info.keys.sort_key().map(|k| k.name.clone()),
        };
        view.refresh(now_ms);
        view
    }

    pub fn paused(&self) -> bool {
        self.frozen.is_some()
    }

    /// The counts the pane shows: as at the pause, else the live ones.
    pub fn shown_stats(&self) -> &LiveStats {
        self.frozen.as_ref().map_or(&self.stats, |f| &f.stats)
    }

    fn shown_follow(&self) -> Option<&Follow> {
        match &self.frozen {
            Some(f) => f.follow.as_ref(),
            None => self.follow.as_ref(),
        }
    }

    /// The changes the tail list shows, oldest first: the followed collection's, or all.
    pub fn shown_tail(&self) -> &TailBuffer {
        match self.shown_follow() {
            Some(f) => &f.tail,
            None => self.shown_stats().tail(),
        }
    }

    /// The `row`-th change of the tail list, newest first.
    pub fn tail_row(&self, row: usize) -> Option<&Change> {
        let tail = self.shown_tail();
        tail.len()
            .checked_sub(row + 1)
            .and_then(|index| tail.get(index))
    }

    pub fn targets(&self) -> &WriteTargets {
        self.stats.targets()
    }

    /// Changes counted since the pause (shown while paused).
    pub fn counted_while_paused(&self) -> u64 {
        self.frozen
            .as_ref()
            .map_or(0, |f| self.stats.totals().events - f.stats.totals().events)
    }

    /// The table partition key of `change`, as the rankings and `f` name collections.
    pub fn collection_of<'a>(&self, change: &'a Change) -> Option<std::borrow::Cow<'a, str>> {
        self.targets().table_key(change)
    }

    /// Counts `changes`, arrived at `at_ms`. A cursor moved off the newest row stays on its
    /// change as newer ones arrive above it.
    pub fn observe(&mut self, changes: Vec<Change>, at_ms: u64) {
        let mut shown_added = 0;
        let recorded = self.timeline().is_recorded();
        for change in changes {
            // A recording's changes count when they were written, not when they were read.
            let at_ms = match change.created_at_ms {
                Some(written) if recorded => written.max(0) as u64,
                _ => at_ms,
            };
            if let Some(follow) = self.follow.as_mut() {
                if self.stats.targets().table_key(&change).as_deref() == Some(&follow.key) {
                    follow.tail.push(change.clone());
                    shown_added += 1;
                }
            } else {
                shown_added += 1;
            }
            self.stats.observe(change, at_ms);
        }
        if self.frozen.is_none() && self.tail.cursor > 0 {
            self.tail.cursor += shown_added;
            self.tail.offset += shown_added;
        }
        let len = self.shown_tail().len();
        self.tail.cursor = self.tail.cursor.min(len.saturating_sub(1));
        self.tail.offset = self.tail.offset.min(self.tail.cursor);
    }

    /// Lets time pass; the summary follows unless paused.
    pub fn advance(&mut self, now_ms: u64) {
        let now_ms = self.summarised_at(now_ms);
        self.stats.advance(now_ms);
        if self.frozen.is_none() {
            self.refresh(now_ms);
        }
    }

    /// Derives what the pane shows from the shown counts.
    pub fn refresh(&mut self, now_ms: u64) {
        let now_ms = self.summarised_at(now_ms);
        let at = self.frozen.as_ref().map_or(now_ms, |f| f.at_ms);
        self.summary = LiveSummary::compute(
            self.shown_stats(),
            self.window,
            self.target,
            at,
            self.opened_ms,
        );
    }

    /// `p`: freezes what is shown, or lets it move again (with everything counted meanwhile).
    pub fn toggle_pause(&mut self, now_ms: u64) {
        let now_ms = self.summarised_at(now_ms);
        match self.frozen.take() {
            Some(_) => self.tail = ListCursor::default(),
            None => {
                self.frozen = Some(Box::new(Frozen {
                    stats: self.stats.clone(),
                    follow: self.follow.clone(),
                    at_ms: now_ms,
                }))
            }
        }
        self.refresh(now_ms);
    }

    /// `f`: follows the collection of the change under the cursor, or stops following. Returns
    /// the key now followed.
    pub fn toggle_follow(&mut self) -> Option<String> {
        if self.follow.is_some() {
            self.follow = None;
            if let Some(frozen) = self.frozen.as_mut() {
                frozen.follow = None;
            }
            self.tail = ListCursor::default();
            return None;
        }
        let key = self
            .tail_row(self.tail.cursor)
            .and_then(|c| self.collection_of(c))?
            .into_owned();
        let following = |stats: &LiveStats| {
            let mut tail = TailBuffer::new(self.config.tail_changes, self.config.tail_bytes);
            for change in stats.tail().iter() {
                if stats.targets().table_key(change).as_deref() == Some(key.as_str()) {
                    tail.push(change.clone());
                }
            }
            Follow {
                key: key.clone(),
                tail,
            }
        };
        self.follow = Some(following(&self.stats));
        if let Some(frozen) = self.frozen.as_mut() {
            frozen.follow = Some(following(&frozen.stats));
        }
        self.tail = ListCursor::default();
        Some(key)
    }

    /// Tab: the next ranking (the table's partition key, then each GSI's), or the previous.
    pub fn cycle_target(&mut self, forward: bool, now_ms: u64) {
        let count = self.targets().gsis.len() + 1;
        let at = match self.target {
            RankTarget::Table => 0,
            RankTarget::Gsi(i) => i + 1,
        };
        let next = if forward {
            (at + 1) % count
        } else {
            (at + count - 1) % count
        };
        self.target = match next {
            0 => RankTarget::Table,
            n => RankTarget::Gsi(n - 1),
        };
        self.refresh(now_ms);
    }

    pub fn set_window(&mut self, window: Window, now_ms: u64) {
        self.window = window;
        self.refresh(now_ms);
    }

    /// The ranking's name and partition key, e.g. `table app (PK)` or `GSI1 (GSI1PK)`.
    pub fn target_label(&self, target: RankTarget) -> String {
        let t = self.targets();
        match target {
            RankTarget::Table => format!("table ({})", t.partition_key),
            RankTarget::Gsi(i) => t
                .gsis
                .get(i)
                .map(|g| format!("{} ({})", g.index, g.partition_key))
                .unwrap_or_default(),
        }
    }

    /// Every ranking's label, table first.
    pub fn target_labels(&self) -> Vec<(RankTarget, String)> {
        std::iter::once(RankTarget::Table)
            .chain((0..self.targets().gsis.len()).map(RankTarget::Gsi))
            .map(|t| (t, self.target_label(t)))
            .collect()
    }
}
