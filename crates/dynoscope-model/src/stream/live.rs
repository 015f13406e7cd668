//! Everything the live view shows about a table's writes, fed one change at a time: events/s
//! and write units/s per second, the top keys of the table and of each GSI over a sliding
//! window, the warnings, and the last changes. Memory is fixed by [`LiveConfig`], whatever the
//! traffic and however long it runs; time is passed in.

use super::attribution::WriteTargets;
use super::change::{Change, ChangeEvent};
use super::ranking::{RankBy, RankTarget, RankedKey, TargetRanking};
use super::tail::TailBuffer;
use super::timeline::Timeline;
use super::warnings::{hot_key, near_limit, Subject, WriteWarning};
use super::window::{RatePoint, RateSeries, Window};
use crate::design::schema::TableInfo;

/// The bounds of a [`LiveStats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LiveConfig {
    /// Changes the tail keeps.
    pub tail_changes: usize,
    /// Bytes the tail keeps (by [`Change::footprint`]).
    pub tail_bytes: usize,
    /// Keys counted per ten-second bucket, per measure, per table and GSI.
    pub counters: usize,
}

impl Default for LiveConfig {
    fn default() -> Self {
        LiveConfig {
            tail_changes: 1000,
            tail_bytes: 16 * 1024 * 1024,
            counters: 256,
        }
    }
}

/// Counts since the start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiveTotals {
    pub events: u64,
    pub wcu: u64,
    pub inserts: u64,
    pub modifies: u64,
    pub removes: u64,
    pub ttl_deletes: u64,
    /// Changes whose write units are estimates (the view type lacks an image).
    pub estimated: u64,
}

/// Keys of the top list checked against the write-limit rule: the heaviest few by units.
const LIMIT_CANDIDATES: usize = 3;

#[derive(Debug, Clone)]
pub struct LiveStats {
    targets: WriteTargets,
    series: RateSeries,
    table: TargetRanking,
    gsis: Vec<TargetRanking>,
    tail: TailBuffer,
    totals: LiveTotals,
    /// Every time passed in is put on this axis before it reaches the rings.
    timeline: Timeline,
}

impl LiveStats {
    pub fn new(info: &TableInfo, config: LiveConfig) -> Self {
        Self::for_targets(WriteTargets::from_table(info), config)
    }

    pub fn for_targets(targets: WriteTargets, config: LiveConfig) -> Self {
        LiveStats {
            table: TargetRanking::new(&targets.table, &targets.partition_key, config.counters),
            gsis: targets
                .gsis
                .iter()
                .map(|g| TargetRanking::new(&g.index, &g.partition_key, config.counters))
                .collect(),
            targets,
            series: RateSeries::default(),
            tail: TailBuffer::new(config.tail_changes, config.tail_bytes),
            totals: LiveTotals::default(),
            timeline: Timeline::Live,
        }
    }

    /// The same, counting on `timeline` (nothing counted yet carries over).
    pub fn on_timeline(self, timeline: Timeline) -> Self {
        LiveStats { timeline, ..self }
    }

    pub fn timeline(&self) -> Timeline {
        self.timeline
    }

    /// Counts `change` as written at `at_ms` and keeps it in the tail.
    pub fn observe(&mut self, change: Change, at_ms: u64) {
        self.count(&change, at_ms);
        self.tail.push(change);
    }

    /// Counts `change` without keeping it.
    pub fn count(&mut self, change: &Change, at_ms: u64) {
        let units = change.write_units();
        let t = &mut self.totals;
        t.events += 1;
        t.wcu += units.units;
        match change.event {
            ChangeEvent::Insert => t.inserts += 1,
            ChangeEvent::Modify => t.modifies += 1,
            ChangeEvent::Remove => t.removes += 1,
        }
        t.ttl_deletes += u64::from(change.ttl_delete);
        t.estimated += u64::from(units.estimated);
        let at_ms = self.timeline.scale(at_ms);
        self.series.add(at_ms, 1, units.units);
        if let Some(key) = self.targets.table_key(change) {
            self.table.add(&key, units.units, at_ms);
        }
        let gsis = &mut self.gsis;
        self.targets.for_each_gsi_key(change, |i, key| {
            gsis[i].add(&key, units.units, at_ms);
        });
    }

    /// Lets time pass with nothing written.
    pub fn advance(&mut self, now_ms: u64) {
        let now_ms = self.timeline.scale(now_ms);
        self.series.advance(now_ms);
        self.table.advance(now_ms);
        for g in &mut self.gsis {
            g.advance(now_ms);
        }
    }

    pub fn targets(&self) -> &WriteTargets {
        &self.targets
    }

    pub fn totals(&self) -> &LiveTotals {
        &self.totals
    }

    pub fn tail(&self) -> &TailBuffer {
        &self.tail
    }

    /// Events and write units per ring slot over `window`, oldest first (sparklines): per
    /// second live, per [`Timeline::unit_secs`] over a recorded window.
    pub fn series(&self, window: Window, now_ms: u64) -> Vec<RatePoint> {
        self.series.series(window, self.timeline.scale(now_ms))
    }

    pub fn ranking(&self, target: RankTarget) -> Option<&TargetRanking> {
        match target {
            RankTarget::Table => Some(&self.table),
            RankTarget::Gsi(i) => self.gsis.get(i),
        }
    }

    pub fn top(
        &self,
        target: RankTarget,
        by: RankBy,
        window: Window,
        now_ms: u64,
        k: usize,
    ) -> Vec<RankedKey> {
        let now_ms = self.timeline.scale(now_ms);
        self.ranking(target)
            .map(|r| r.top(by, window, now_ms, k))
            .unwrap_or_default()
    }

    /// Events and write units of `target`'s ranking over `window`.
    pub fn window_totals(&self, target: RankTarget, window: Window, now_ms: u64) -> (u64, u64) {
        let now_ms = self.timeline.scale(now_ms);
        self.ranking(target)
            .map_or((0, 0), |r| r.totals(window, now_ms))
    }

    /// The write rules over `window`, table first, then each GSI.
    pub fn warnings(&self, window: Window, now_ms: u64) -> Vec<WriteWarning> {
        let during = match self.timeline {
            Timeline::Live => format!("in the last {}", window.label()),
            Timeline::Recorded { .. } => "in the export's window".to_string(),
        };
        let over = format!("over {} s", self.timeline.bucket_secs());
        let unit_secs = self.timeline.unit_secs() as f64;
        let now_ms = self.timeline.scale(now_ms);
        let mut out = Vec::new();
        let rankings = std::iter::once((None, &self.table))
            .chain(self.gsis.iter().map(|g| (Some(g.name.as_str()), g)));
        for (index, ranking) in rankings {
            let subject = Subject {
                table: &self.targets.table,
                index,
                partition_key: &ranking.partition_key,
            };
            let (total, _) = ranking.totals(window, now_ms);
            if let Some(top) = ranking.top(RankBy::Events, window, now_ms, 1).first() {
                // The lower bound: a warning must hold for the true count. The ranking keeps
                // only the top keys, too few to tell write shards from ids: no family.
                let events = top.events - top.events_error;
                out.extend(hot_key(subject, &top.key, events, total, &during, None));
            }
            for top in ranking.top(RankBy::Wcu, window, now_ms, LIMIT_CANDIDATES) {
                // A stretched bucket's rate is per slot: per second, it is that over the slot.
                let rate = ranking.peak_wcu_per_second(&top.key, window, now_ms) / unit_secs;
                out.extend(near_limit(subject, &top.key, rate, &over, None));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::change::fixtures::{change, demo_table};
    use super::super::warnings::WriteRule;
    use super::*;

    #[test]
    fn a_hot_tenant_and_a_hot_gsi_key_are_ranked_and_warned_about() {
        let mut live = LiveStats::new(&demo_table(), LiveConfig::default());
        let t0 = 1_000_000;
        for i in 0..300u64 {
            let pk = if i % 3 == 0 {
                "USER#celebrity".to_string()
            } else {
                format!("USER#u{i:05}")
            };
            let status = if i % 3 != 2 {
                "STATUS#SHIPPED"
            } else {
                "STATUS#PENDING#1"
            };
            let c = change(
                ChangeEvent::Insert,
                &pk,
                None,
                Some(&[("GSI1PK", status), ("GSI1SK", "x")]),
            );
            live.observe(c, t0 + i * 10);
        }
        let now = t0 + 3_000;
        let top = live.top(RankTarget::Table, RankBy::Events, Window::OneMinute, now, 3);
        assert_eq!(top[0].key, "USER#celebrity");
        assert_eq!((top[0].events, top[0].events_error), (100, 0));
        let gsi = live.top(RankTarget::Gsi(0), RankBy::Wcu, Window::OneMinute, now, 2);
        assert_eq!(gsi[0].key, "STATUS#SHIPPED");
        assert_eq!(gsi[0].wcu, 200);
        let warnings = live.warnings(Window::OneMinute, now);
        let hot: Vec<&str> = warnings
            .iter()
            .filter(|w| w.rule == WriteRule::HotWriteKey)
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(hot.len(), 2, "{warnings:?}");
        assert!(hot[0].contains("'USER#celebrity'"), "{}", hot[0]);
        assert!(hot[1].contains("GSI 'GSI1'") && hot[1].contains("'STATUS#SHIPPED'"));
        assert_eq!(live.totals().events, 300);
        assert_eq!(live.tail().len(), 300);
        let series = live.series(Window::OneMinute, now);
        assert_eq!(series.iter().map(|p| p.events).sum::<u64>(), 300);
    }

    #[test]
    fn a_key_near_the_partition_limit_is_named() {
        let mut live = LiveStats::new(&demo_table(), LiveConfig::default());
        // 9 KB items: 9 WCU each, 1,000 of them within ten seconds: 900 WCU/s.
        let big = "x".repeat(9 * 1024 - 20);
        let t0 = 2_000_000;
        for i in 0..1000 {
            let c = change(
                ChangeEvent::Insert,
                "TENANT#big",
                None,
                Some(&[("v", &big)]),
            );
            live.count(&c, t0 + i * 9);
        }
        let warnings = live.warnings(Window::OneMinute, t0 + 9_000);
        assert!(
            warnings
                .iter()
                .any(|w| w.rule == WriteRule::PartitionWriteLimit
                    && w.message.contains("'TENANT#big'")
                    && w.message.contains("900 WCU/s over 10 s")),
            "{warnings:?}"
        );
        assert!(live.tail().is_empty(), "count() keeps nothing");
    }
}
