//! The metrics pane (`M`): opening it asks CloudWatch for one batch, each answer is kept with
//! the verdicts it supports, and a timer asks again every minute while the pane is open. Its
//! keys scroll; Esc or `M` closes it (the answers and timers of a closed pane are dropped as
//! stale: each carries its batch id or pane generation).

use super::lines::pane_lines;
use crate::app::explorer::{area, open_help, quit};
use crate::app::input::{Key, KeyCode};
use crate::app::keymap::Action;
use crate::app::msg::{Effect, MetricsEffect, Timer, TimerEffect};
use crate::app::state::{
    CoverPane, MetricsPane, MetricsStatus, Notice, State, PANE_PERIOD_SECS, PANE_REFRESH,
    PANE_SINCE_SECS,
};
use crate::model::engine::FeatureError;
use crate::model::traffic::diagnose::{diagnose, Evidence, IndexFacts};
use crate::model::traffic::metrics::report::MetricsReport;

/// The batch for the open table, with a new id (or nothing before it is described).
fn fetch(state: &mut State) -> Option<Effect> {
    let id = state.next_request_id;
    let view = state.table.as_mut()?;
    let gsis = view.info.loaded()?.gsi_names();
    let pane = view.metrics_mut()?;
    pane.fetch_id = id;
    state.next_request_id += 1;
    Some(Effect::Metrics(MetricsEffect::Fetch {
        id,
        table: view.name.clone(),
        gsis,
        since_secs: PANE_SINCE_SECS,
        period: PANE_PERIOD_SECS,
    }))
}

fn refresh_timer(generation: u64) -> Effect {
    Effect::Timer(TimerEffect::After {
        timer: Timer::MetricsRefresh(generation),
        delay: PANE_REFRESH,
    })
}

/// What `M` says on an export: its files have no metrics, and no refresh would bring any.
pub(crate) const EXPORT_NO_METRICS: &str = "an export has no CloudWatch metrics (it is files, not the table): open the table itself, 'dynoscope TABLE', and press M there";

/// `M`: opens the pane (once the table is described) and asks for the first batch.
pub(crate) fn open_metrics(state: &mut State) -> Vec<Effect> {
    if state.session.export.is_some() {
        state.notice = Some(Notice {
            text: EXPORT_NO_METRICS.into(),
            error: true,
        });
        return Vec::new();
    }
    let generation = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.metrics().is_some() || view.info.loaded().is_none() {
        return Vec::new();
    }
    // It takes the slot: a live pane open there closes, and its stream stops.
    view.cover = Some(CoverPane::Metrics(Box::new(MetricsPane::new(
        0, generation,
    ))));
    state.next_request_id += 1;
    fetch(state)
        .into_iter()
        .chain([refresh_timer(generation)])
        .collect()
}

/// The minute is up: ask again if the pane of `generation` is still open.
pub(crate) fn refresh(state: &mut State, generation: u64) -> Vec<Effect> {
    let open = state
        .table
        .as_ref()
        .and_then(|v| v.metrics())
        .is_some_and(|p| p.generation == generation);
    if !open {
        return Vec::new();
    }
    let metrics = fetch(state);
    let insights = super::insights::fetch(state);
    metrics
        .into_iter()
        .chain(insights)
        .chain([refresh_timer(generation)])
        .collect()
}

/// The verdicts of what the pane holds: the last batch, with Contributor Insights' keys once
/// shown (so a verdict names the hot key as `dynoscope diagnose` does). None without a batch.
pub(crate) fn judge(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let facts = view
        .info
        .loaded()
        .map(|info| (info.size_bytes, IndexFacts::of_gsis(info)));
    let Some(pane) = view.metrics_mut() else {
        return;
    };
    let Some(report) = pane.report.as_ref() else {
        pane.verdicts.clear();
        return;
    };
    let insights = pane
        .insights
        .as_ref()
        .and_then(|i| i.targets.as_deref())
        .unwrap_or(&[]);
    let (size, indexes) = facts.unwrap_or_default();
    pane.verdicts = diagnose(&Evidence {
        table_size_bytes: size,
        indexes: &indexes,
        metrics: Some(report),
        insights,
        sampled: &[],
    });
}

/// A batch came back: keep it (and its verdicts) if it is the one asked for last.
pub(crate) fn fetched(state: &mut State, id: u64, result: Result<MetricsReport, FeatureError>) {
    // The table's on-demand maximum is in its description, not in CloudWatch.
    let max = state
        .table
        .as_ref()
        .and_then(|v| v.info.loaded())
        .and_then(|info| info.on_demand_max);
    let Some(pane) = state
        .table
        .as_mut()
        .and_then(|v| v.metrics_mut())
        .filter(|p| p.fetch_id == id)
    else {
        return;
    };
    pane.refreshes += 1;
    match result {
        Ok(report) => {
            pane.report = Some(report.with_on_demand_max(max));
            pane.status = MetricsStatus::Ready;
        }
        Err(FeatureError::Denied(d)) => {
            pane.report = None;
            pane.status = MetricsStatus::Denied(d.line());
        }
        // The series and verdicts of the last refresh stay.
        Err(FeatureError::Failed(why)) => {
            pane.status = MetricsStatus::Failed(why);
            return;
        }
    }
    judge(state);
}

/// Keys while the pane is open: Contributor Insights' (`I`, its cursor, Enter), scrolling,
/// Esc/`M` to close, help and quit.
pub(crate) fn metrics_key(state: &mut State, key: Key) -> Vec<Effect> {
    let area = area(state);
    // The pane has the screen but its title and status rows.
    let visible = area.height.saturating_sub(4).max(1) as usize;
    let action = state.keymap.action(&key);
    match action {
        Some(Action::Quit) => return quit(state),
        Some(Action::Help) => return open_help(state),
        _ => {}
    }
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if key.code == KeyCode::Esc || action == Some(Action::Metrics) {
        view.cover = None;
        return Vec::new();
    }
    if let Some(effects) = super::insights::insights_key(state, action) {
        return effects;
    }
    let Some(pane) = state.table.as_mut().and_then(|v| v.metrics_mut()) else {
        return Vec::new();
    };
    let lines = pane_lines(pane, area.width.saturating_sub(2)).len();
    let delta: isize = match action {
        Some(Action::Up) => -1,
        Some(Action::Down) => 1,
        Some(Action::PageUp) => -(visible as isize),
        Some(Action::PageDown) => visible as isize,
        Some(Action::Top) => isize::MIN / 2,
        Some(Action::Bottom) => isize::MAX / 2,
        _ => return Vec::new(),
    };
    scroll_by(pane, delta, lines, visible);
    Vec::new()
}

/// Mouse wheel over the open pane.
pub(crate) fn scroll(state: &mut State, delta: isize) -> Vec<Effect> {
    let area = area(state);
    let visible = area.height.saturating_sub(4).max(1) as usize;
    if let Some(pane) = state.table.as_mut().and_then(|v| v.metrics_mut()) {
        let lines = pane_lines(pane, area.width.saturating_sub(2)).len();
        scroll_by(pane, delta, lines, visible);
    }
    Vec::new()
}

fn scroll_by(pane: &mut MetricsPane, delta: isize, lines: usize, visible: usize) {
    let last = lines.saturating_sub(visible);
    pane.scroll = pane.scroll.saturating_add_signed(delta).min(last);
}

pub(crate) fn is_open(state: &State) -> bool {
    state.table.as_ref().is_some_and(|v| v.metrics().is_some())
}
