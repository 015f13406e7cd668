//! The triage scan launcher (segments, index, filter, projection, consistency, budget, rate)
//! with its cost estimate and confirmation, the per-segment progress of a running scan, and the
//! key-distribution view of what was loaded.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui_textarea::TextArea;

use super::msg::Effect;
use super::reads::start_fresh;
use super::state::{Notice, State};
use crate::aws::{Operation, Page, ReadSpec};
use crate::model::capacity::{on_demand_cost, scan_estimate_units};
use crate::model::distribution::{KeyDistribution, Source, Warning, WarningContext};
use crate::model::filter_compile::{compile_filter, compile_projection};
use crate::model::limits::{self, RealRange};
use crate::model::schema::{IndexKind, TableInfo};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LauncherField {
    Segments,
    Index,
    Filter,
    Projection,
    Consistency,
    MaxRcu,
    Rate,
}

impl LauncherField {
    pub const ALL: [LauncherField; 7] = [
        LauncherField::Segments,
        LauncherField::Index,
        LauncherField::Filter,
        LauncherField::Projection,
        LauncherField::Consistency,
        LauncherField::MaxRcu,
        LauncherField::Rate,
    ];

    pub fn label(self) -> &'static str {
        match self {
            LauncherField::Segments => "segments",
            LauncherField::Index => "index",
            LauncherField::Filter => "filter",
            LauncherField::Projection => "projection",
            LauncherField::Consistency => "read consistency",
            LauncherField::MaxRcu => "max RCU",
            LauncherField::Rate => "RCU per second",
        }
    }

    fn is_selector(self) -> bool {
        matches!(self, LauncherField::Index | LauncherField::Consistency)
    }
}

/// Items per page of a triage scan in the explorer.
pub const TRIAGE_PAGE_ITEMS: i32 = 2000;

/// What a launch will do and cost, before anything is sent.
#[derive(Debug, Clone)]
pub struct LaunchPlan {
    pub spec: ReadSpec,
    /// Read units a full scan of the table/index should take (DescribeTable size / 4 KB,
    /// halved when eventually consistent).
    pub estimate_rcu: f64,
    pub estimate_cost: f64,
    pub needs_confirmation: bool,
    /// A cheaper Query when the filter is an equality on a partition key.
    pub hint: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ScanLauncher {
    pub focus: LauncherField,
    pub index: usize,
    pub consistent: bool,
    pub segments: TextArea<'static>,
    pub filter: TextArea<'static>,
    pub projection: TextArea<'static>,
    pub max_rcu: TextArea<'static>,
    pub rate: TextArea<'static>,
    pub plan: Result<LaunchPlan, (LauncherField, String)>,
    /// The estimate was shown over the threshold; the next Enter launches.
    pub confirming: bool,
}

/// Segments suggested for a table: one per 32 MB, 1 to 32 (a small table scans fastest in
/// one; a big one wants parallel segments, within what two cores and a fair share of the
/// table's throughput allow).
pub fn default_segments(size_bytes: i64) -> u32 {
    ((size_bytes.max(0) as f64 / (32.0 * 1024.0 * 1024.0)).ceil() as u32).clamp(1, 32)
}

fn area(text: &str) -> TextArea<'static> {
    let mut a = TextArea::from([text.to_string()]);
    a.move_cursor(ratatui_textarea::CursorMove::End);
    a
}

impl ScanLauncher {
    pub fn new(info: &TableInfo, index: usize) -> Self {
        ScanLauncher {
            focus: LauncherField::Segments,
            index,
            consistent: false,
            segments: area(&default_segments(info.size_bytes).to_string()),
            filter: TextArea::default(),
            projection: TextArea::default(),
            max_rcu: TextArea::default(),
            rate: TextArea::default(),
            plan: Err((LauncherField::Segments, String::new())),
            confirming: false,
        }
    }

    pub fn input(&self, field: LauncherField) -> Option<&TextArea<'static>> {
        Some(match field {
            LauncherField::Segments => &self.segments,
            LauncherField::Filter => &self.filter,
            LauncherField::Projection => &self.projection,
            LauncherField::MaxRcu => &self.max_rcu,
            LauncherField::Rate => &self.rate,
            _ => return None,
        })
    }

    fn input_mut(&mut self, field: LauncherField) -> Option<&mut TextArea<'static>> {
        Some(match field {
            LauncherField::Segments => &mut self.segments,
            LauncherField::Filter => &mut self.filter,
            LauncherField::Projection => &mut self.projection,
            LauncherField::MaxRcu => &mut self.max_rcu,
            LauncherField::Rate => &mut self.rate,
            _ => return None,
        })
    }

    pub fn text(&self, field: LauncherField) -> String {
        self.input(field)
            .map(|a| a.lines().join(""))
            .unwrap_or_default()
    }

    pub fn index_name(&self, info: &TableInfo) -> Option<String> {
        self.index
            .checked_sub(1)
            .and_then(|i| info.indexes.get(i))
            .map(|i| i.name.clone())
    }

    pub fn plan(
        &self,
        info: &TableInfo,
        price: f64,
        confirm_over: f64,
    ) -> Result<LaunchPlan, (LauncherField, String)> {
        let segments_text = self.text(LauncherField::Segments);
        let segments: u32 = match segments_text.trim().parse() {
            Ok(n) if (1..=crate::aws::read::MAX_SEGMENTS).contains(&n) => n,
            _ => {
                return Err((
                    LauncherField::Segments,
                    format!("segments '{segments_text}' must be 1 to 1000"),
                ))
            }
        };
        let in_range = |field: LauncherField,
                        range: RealRange|
         -> Result<Option<f64>, (LauncherField, String)> {
            let t = self.text(field);
            if t.trim().is_empty() {
                return Ok(None);
            }
            range
                .parse(&t)
                .map(Some)
                .map_err(|why| (field, format!("{} '{t}': {why}", field.label())))
        };
        let index = self.index.checked_sub(1).and_then(|i| info.indexes.get(i));
        if self.consistent && index.is_some_and(|i| i.kind == IndexKind::Gsi) {
            return Err((
                LauncherField::Consistency,
                "GSIs only support eventually consistent reads; choose eventual".into(),
            ));
        }
        let mut spec = ReadSpec::new(Operation::Scan, info.name.clone());
        spec.index = index.map(|i| i.name.clone());
        spec.segments = segments;
        spec.consistent = self.consistent;
        spec.max_rcu = in_range(LauncherField::MaxRcu, limits::MAX_RCU)?;
        spec.rcu_per_second = in_range(LauncherField::Rate, limits::RCU_PER_SECOND)?;
        let filter = self.text(LauncherField::Filter);
        if !filter.trim().is_empty() {
            let c = compile_filter(&filter, "f").map_err(|e| (LauncherField::Filter, e))?;
            spec.filter = Some(c.expression);
            spec.names.extend(c.names);
            spec.values.extend(c.values);
        }
        let projection = self.text(LauncherField::Projection);
        if !projection.trim().is_empty() {
            let c = compile_projection(&projection).map_err(|e| (LauncherField::Projection, e))?;
            spec.projection = Some(c.expression);
            for n in c.names {
                if !spec.names.iter().any(|(k, _)| *k == n.0) {
                    spec.names.push(n);
                }
            }
        }
        let size = index
            .and_then(|i| i.size_bytes)
            .unwrap_or(info.size_bytes)
            .max(0) as u64;
        let estimate_rcu = scan_estimate_units(size, self.consistent);
        let estimate_cost = on_demand_cost(estimate_rcu, price);
        Ok(LaunchPlan {
            hint: query_hint(&filter, info, size),
            needs_confirmation: estimate_rcu > confirm_over,
            estimate_rcu,
            estimate_cost,
            spec,
        })
    }
}

/// `attr = "value"` on an attribute that is the partition key of the table or a GSI: a
/// Query there reads only the matching items instead of the whole table.
fn query_hint(filter: &str, info: &TableInfo, scan_bytes: u64) -> Option<String> {
    let (attr, value) = filter.split_once('=')?;
    let (attr, value) = (attr.trim(), value.trim());
    if attr.is_empty() || !attr.chars().all(|c| c.is_alphanumeric() || c == '_') || value.is_empty()
    {
        return None;
    }
    let target = if info.keys.partition_key.name == attr {
        "the table".to_string()
    } else {
        let index = info
            .indexes
            .iter()
            .find(|i| i.keys.partition_key.name == attr)?;
        format!("index {}", index.name)
    };
    let avg_item = if info.item_count > 0 {
        info.size_bytes.max(0) / info.item_count
    } else {
        0
    };
    Some(format!(
        "{attr} is the partition key of {target}: a Query there with {attr} = {value} reads only the matching items (½ RCU per 4 KB of them, ≈{avg_item} B per item) instead of all ≈{:.0} RCU of this scan",
        scan_estimate_units(scan_bytes, false)
    ))
}

/// Per-segment progress of a launched scan, over all the reads that continued it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScanProgress {
    /// The read whose pages count now (each resume is a new read).
    pub request_id: u64,
    pub segments: Vec<SegmentProgress>,
    pub estimate_rcu: f64,
    pub spent_rcu: f64,
    /// Capacity allowed so far: the launcher's budget plus each resume's.
    pub budget_rcu: Option<f64>,
    pub items: u64,
    pub scanned: u64,
    /// Time the earlier reads of this scan took.
    pub elapsed_before: Duration,
    /// How far into the current read the last page or its end came, by the engine's clock:
    /// rates are over the scan's own time, never the explorer's.
    pub elapsed: Duration,
    pub finished: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SegmentProgress {
    pub items: u64,
    pub scanned: u64,
    pub pages: u32,
    pub done: bool,
}

impl ScanProgress {
    pub fn record(&mut self, page: &Page) {
        let Some(seg) = self.segments.get_mut(page.segment as usize) else {
            return;
        };
        seg.items += page.item_count() as u64;
        seg.scanned += page.scanned_count;
        seg.pages += 1;
        seg.done = page.last_evaluated_key.is_none();
        self.items += page.item_count() as u64;
        self.scanned += page.scanned_count;
        self.spent_rcu += page.consumed.total;
        self.elapsed = self.elapsed.max(page.sent_at + page.latency);
    }

    /// The current read ended after `elapsed`; `finished` when nothing is left to read.
    pub fn finish(&mut self, elapsed: Duration, finished: bool) {
        self.elapsed = self.elapsed.max(elapsed);
        self.finished = finished;
    }

    /// A new read (`request_id`) continues the scan; `budget` is the new total allowed.
    pub fn continue_with(&mut self, request_id: u64, budget: Option<f64>) {
        self.request_id = request_id;
        self.elapsed_before += self.elapsed;
        self.elapsed = Duration::ZERO;
        if budget.is_some() {
            self.budget_rcu = budget;
        }
    }

    /// Items/s and RCU/s over the scan's own time, and the seconds left at that rate (from
    /// the estimate) while it runs.
    pub fn rates(&self) -> (f64, f64, Option<f64>) {
        let secs = (self.elapsed_before + self.elapsed)
            .as_secs_f64()
            .max(0.001);
        let rcu_rate = self.spent_rcu / secs;
        let eta = (!self.finished && rcu_rate > 0.0 && self.estimate_rcu > self.spent_rcu)
            .then(|| (self.estimate_rcu - self.spent_rcu) / rcu_rate);
        (self.scanned as f64 / secs, rcu_rate, eta)
    }
}

/// The key distribution of the loaded items, computed once when the view opens.
#[derive(Debug, Clone)]
pub struct DistributionView {
    pub distribution: KeyDistribution,
    pub warnings: Vec<Warning>,
    pub scroll: usize,
    /// Lines the view draws (checked by the ui); scrolling stops with the last one on top.
    pub line_count: usize,
}

/// Keys the distribution view lists, most items first.
pub const DISTRIBUTION_TOP_KEYS: usize = 50;

impl DistributionView {
    /// The summary, warnings, top keys, shard families (if any) and the histogram, each
    /// section after a blank line and a header.
    fn count_lines(distribution: &KeyDistribution, warnings: &[Warning]) -> usize {
        let families = distribution.shard_families().len();
        1 + warnings.len()
            + 2
            + distribution.top(DISTRIBUTION_TOP_KEYS).len()
            + if families > 0 { 2 + families } else { 0 }
            + 2
            + distribution.histogram().len()
    }

    pub fn max_scroll(&self) -> usize {
        self.line_count.saturating_sub(1)
    }
}

// ---------------------------------------------------------------- update

pub fn open_launcher(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = v.info.loaded().cloned() else {
        return Vec::new();
    };
    let index = info.target_position(v.index.as_deref());
    let mut launcher = ScanLauncher::new(&info, index);
    launcher.plan = launcher.plan(
        &info,
        state.config.price_per_million_reads,
        state.config.confirm_scan_rcu,
    );
    v.launcher = Some(launcher);
    Vec::new()
}

pub fn launcher_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let price = state.config.price_per_million_reads;
    let confirm_over = state.config.confirm_scan_rcu;
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = v.info.loaded().cloned() else {
        return Vec::new();
    };
    let Some(l) = v.launcher.as_mut() else {
        return Vec::new();
    };
    let at = LauncherField::ALL
        .iter()
        .position(|f| *f == l.focus)
        .unwrap_or(0);
    match key.code {
        KeyCode::Esc => {
            v.launcher = None;
            return Vec::new();
        }
        KeyCode::Tab | KeyCode::Down => {
            l.focus = LauncherField::ALL[(at + 1) % LauncherField::ALL.len()]
        }
        KeyCode::BackTab | KeyCode::Up => {
            l.focus =
                LauncherField::ALL[(at + LauncherField::ALL.len() - 1) % LauncherField::ALL.len()]
        }
        KeyCode::Left | KeyCode::Right if l.focus.is_selector() => {
            let forward = key.code == KeyCode::Right;
            match l.focus {
                LauncherField::Index => {
                    let n = info.indexes.len() + 1;
                    l.index = if forward {
                        (l.index + 1) % n
                    } else {
                        (l.index + n - 1) % n
                    };
                }
                _ => l.consistent = !l.consistent,
            }
            l.confirming = false;
        }
        KeyCode::Enter => {
            let plan = match &l.plan {
                Ok(p) => p.clone(),
                Err((field, message)) => {
                    state.notice = Some(Notice {
                        text: format!("{}: {message}", field.label()),
                        error: true,
                    });
                    return Vec::new();
                }
            };
            if plan.needs_confirmation && !l.confirming {
                l.confirming = true;
                return Vec::new();
            }
            return launch(state, plan);
        }
        _ => {
            let field = l.focus;
            if let Some(input) = l.input_mut(field) {
                if input.input(key) {
                    l.confirming = false;
                }
            }
        }
    }
    l.plan = l.plan(&info, price, confirm_over);
    Vec::new()
}

fn launch(state: &mut State, plan: LaunchPlan) -> Vec<Effect> {
    let segments = plan.spec.segments;
    if let Some(v) = state.table.as_mut() {
        v.launcher = None;
        v.index = plan.spec.index.clone();
    }
    let mut effects = start_fresh(state, plan.spec.clone());
    // A triage scan streams to its end (or its budget). Pages are capped so that applying one
    // takes a few milliseconds, and a keypress never waits behind a 15,000-item 1 MB page;
    // capacity is charged per 4 KB read either way.
    let mut id = 0;
    for e in effects.iter_mut() {
        if let Effect::StartRead { id: rid, spec } = e {
            spec.max_pages = None;
            spec.page_size = Some(TRIAGE_PAGE_ITEMS);
            id = *rid;
        }
    }
    if let Some(v) = state.table.as_mut() {
        if let Some(read) = v.read.as_mut() {
            read.spec.max_pages = None;
            read.spec.page_size = Some(TRIAGE_PAGE_ITEMS);
        }
        v.progress = Some(ScanProgress {
            request_id: id,
            segments: vec![SegmentProgress::default(); segments as usize],
            estimate_rcu: plan.estimate_rcu,
            budget_rcu: plan.spec.max_rcu,
            ..Default::default()
        });
    }
    effects
}

pub fn open_distribution(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(store), Some(info)) = (v.store.as_ref(), v.info.loaded()) else {
        return Vec::new();
    };
    let mut distribution = KeyDistribution::new();
    for collection in store.collections() {
        for &id in &collection.items {
            distribution.add(&collection.key, store.item_size(id));
        }
    }
    let partition_key = store.group_keys().partition_key.name.clone();
    let source = match v.index.as_deref().and_then(|n| info.index(n)) {
        Some(index) => Source::Index {
            name: &index.name,
            kind: index.kind,
        },
        None => Source::Table,
    };
    let warnings = distribution.warnings(&WarningContext {
        table: &info.name,
        source,
        partition_key: &partition_key,
        table_has_lsi: info.indexes.iter().any(|i| i.kind == IndexKind::Lsi),
    });
    v.distribution = Some(DistributionView {
        line_count: DistributionView::count_lines(&distribution, &warnings),
        distribution,
        warnings,
        scroll: 0,
    });
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fixtures::demo_info;

    #[test]
    fn segments_follow_table_size() {
        let mb = 1024 * 1024;
        for (size, want) in [
            (0, 1),
            (2 * mb, 1),
            (33 * mb, 2),
            (640 * mb, 20),
            (100_000 * mb, 32),
        ] {
            assert_eq!(default_segments(size), want, "{size}");
        }
    }

    #[test]
    fn plan_estimates_and_asks_above_the_threshold() {
        let mut info = demo_info();
        info.size_bytes = 400 * 1024 * 1024;
        let mut l = ScanLauncher::new(&info, 0);
        let plan = l.plan(&info, 0.125, 10_000.0).unwrap();
        assert_eq!(plan.spec.segments, 13);
        assert_eq!(plan.estimate_rcu, 51_200.0, "400 MB / 4 KB / 2");
        assert!(plan.needs_confirmation);
        assert!((plan.estimate_cost - 0.0064).abs() < 1e-9);
        l.consistent = true;
        assert_eq!(l.plan(&info, 0.125, 1e9).unwrap().estimate_rcu, 102_400.0);
        l.index = 1;
        assert_eq!(
            l.plan(&info, 0.125, 1e9).unwrap_err().0,
            LauncherField::Consistency
        );
    }

    #[test]
    fn bad_fields_are_named() {
        let info = demo_info();
        let mut l = ScanLauncher::new(&info, 0);
        l.segments = area("0");
        assert_eq!(
            l.plan(&info, 0.125, 1e9).unwrap_err().0,
            LauncherField::Segments
        );
        l.segments = area("4");
        l.max_rcu = area("-5");
        assert_eq!(
            l.plan(&info, 0.125, 1e9).unwrap_err().0,
            LauncherField::MaxRcu
        );
        l.max_rcu = area("50");
        l.rate = area("1e-20");
        let (field, message) = l.plan(&info, 0.125, 1e9).unwrap_err();
        assert_eq!(field, LauncherField::Rate);
        assert!(message.contains("0.01 to"), "{message}");
        l.rate = area("");
        l.filter = area("status = \"x");
        assert_eq!(
            l.plan(&info, 0.125, 1e9).unwrap_err().0,
            LauncherField::Filter
        );
    }

    #[test]
    fn equality_on_a_gsi_key_hints_at_a_query() {
        let info = demo_info();
        let mut l = ScanLauncher::new(&info, 0);
        l.filter = area("GSI1PK = \"STATUS#SHIPPED\"");
        let hint = l.plan(&info, 0.125, 1e9).unwrap().hint.expect("a hint");
        assert!(
            hint.contains("index GSI1") && hint.contains("STATUS#SHIPPED"),
            "{hint}"
        );
        l.filter = area("status = \"SHIPPED\"");
        assert!(l.plan(&info, 0.125, 1e9).unwrap().hint.is_none());
    }
}
