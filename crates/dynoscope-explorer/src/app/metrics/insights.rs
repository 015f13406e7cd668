//! Contributor Insights in the metrics pane (`I`): shown on demand, asked for off the terminal
//! thread with an id (a stale answer is dropped), again with the pane's minute timer while
//! shown; its keys feed the pane's verdicts, the cursor moves over them and Enter opens the
//! key's collection with the explorer's own collection opener (`walk::open_collection`).

use super::lines::{pane_lines, LineKind};
use crate::app::explorer::area;
use crate::app::keymap::Action;
use crate::app::msg::{Effect, MetricsEffect};
use crate::app::state::{InsightsSection, State, PANE_PERIOD_SECS, PANE_SINCE_SECS};
use crate::model::engine::FeatureError;
use crate::model::traffic::insights::{RuleKind, TargetInsights};
use crate::model::traffic::metrics::Target;

/// Asks for the shown section's answer with a new id (nothing when it is hidden).
pub(crate) fn fetch(state: &mut State) -> Option<Effect> {
    let id = state.next_request_id;
    let view = state.table.as_mut()?;
    let gsis = view.info.loaded()?.gsi_names();
    let section = view.metrics_mut()?.insights.as_mut()?;
    section.fetch_id = id;
    state.next_request_id += 1;
    Some(Effect::Metrics(MetricsEffect::Insights {
        id,
        table: view.name.clone(),
        gsis,
        since_secs: PANE_SINCE_SECS,
        period: PANE_PERIOD_SECS,
    }))
}

/// `I` in the table view: the metrics pane, with the section shown.
pub(crate) fn open_with_insights(state: &mut State) -> Vec<Effect> {
    let mut effects = super::keys::open_metrics(state);
    if super::keys::is_open(state) {
        effects.extend(toggle(state));
    }
    effects
}

/// `I` in the pane: shows the section (and asks for it) or hides it.
fn toggle(state: &mut State) -> Vec<Effect> {
    let Some(pane) = state.table.as_mut().and_then(|v| v.metrics_mut()) else {
        return Vec::new();
    };
    if pane.insights.take().is_some() {
        super::keys::judge(state);
        return Vec::new();
    }
    pane.insights = Some(InsightsSection::new(0));
    fetch(state).into_iter().collect()
}

/// An answer came back: kept if it is the one asked for last, the cursor staying on its key.
pub(crate) fn fetched(
    state: &mut State,
    id: u64,
    found: Vec<TargetInsights>,
    problems: Vec<FeatureError>,
) {
    let Some(section) = state
        .table
        .as_mut()
        .and_then(|v| v.metrics_mut())
        .and_then(|p| p.insights.as_mut())
        .filter(|s| s.fetch_id == id)
    else {
        return;
    };
    let was = section.selected().map(identity);
    // A refresh that failed outright keeps the last keys on screen, as the series do.
    let failed = found.is_empty()
        && !problems.is_empty()
        && problems
            .iter()
            .all(|p| matches!(p, FeatureError::Failed(_)));
    if !failed || section.targets.is_none() {
        section.targets = Some(found);
    }
    section.problems = problems
        .into_iter()
        .map(|p| match p {
            FeatureError::Denied(d) => d.line(),
            FeatureError::Failed(why) => format!("note: {why}"),
        })
        .collect();
    // The same duplicate line for every GSI says nothing more.
    section.problems.dedup();
    let keys = section.keys();
    section.cursor = was
        .and_then(|was| keys.iter().position(|k| identity(*k) == was))
        .unwrap_or(section.cursor)
        .min(keys.len().saturating_sub(1));
    super::keys::judge(state);
}

/// What a listed key is, across refreshes that reorder the list.
fn identity(k: crate::app::state::InsightsKey<'_>) -> (Target, RuleKind, Vec<String>) {
    (k.target.clone(), k.rule.kind, k.contributor.keys.clone())
}

/// The section's keys in the pane: `I`, the cursor and Enter. `None`: not the section's
/// key (the pane scrolls with it).
pub(crate) fn insights_key(state: &mut State, action: Option<Action>) -> Option<Vec<Effect>> {
    if action == Some(Action::Insights) {
        return Some(toggle(state));
    }
    let section = state.table.as_ref()?.metrics()?.insights.as_ref()?;
    let count = section.keys().len();
    if count == 0 {
        return None;
    }
    let delta: isize = match action? {
        Action::Up => -1,
        Action::Down => 1,
        Action::Open => return Some(open_selected(state)),
        _ => return None,
    };
    let section = state.table.as_mut()?.metrics_mut()?.insights.as_mut()?;
    section.cursor = section
        .cursor
        .saturating_add_signed(delta)
        .min(count.saturating_sub(1));
    follow_cursor(state);
    Some(Vec::new())
}

/// Scrolls the pane so the cursor's key is on screen.
fn follow_cursor(state: &mut State) {
    let area = area(state);
    let visible = area.height.saturating_sub(4).max(1) as usize;
    let Some(pane) = state.table.as_mut().and_then(|v| v.metrics_mut()) else {
        return;
    };
    let lines = pane_lines(pane, area.width.saturating_sub(2));
    let Some(at) = lines.iter().position(|l| l.kind == LineKind::Selected) else {
        return;
    };
    if at < pane.scroll {
        pane.scroll = at;
    } else if at >= pane.scroll + visible {
        pane.scroll = at + 1 - visible;
    }
}

/// Enter: closes the pane and queries the key's partition, on the index its rule ranks.
fn open_selected(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let picked = view
        .metrics()
        .and_then(|p| p.insights.as_ref())
        .and_then(|s| s.selected())
        .and_then(|k| {
            let index = match k.target {
                Target::Table => None,
                Target::Index(name) => Some(name.clone()),
            };
            // A partition+sort rule's key starts with its partition key.
            Some((index, k.contributor.keys.first()?.clone()))
        });
    let Some((index, key)) = picked else {
        return Vec::new();
    };
    view.cover = None;
    crate::app::table::walk::open_collection(state, index, key)
}
