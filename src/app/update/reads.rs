//! The read feeding the item store: starting one, and continuing it (a page, everything, or
//! after a cancel, a failure or a spent budget).

use super::filter::refilter;
use super::running_read;
use super::walk::leave_view;
use crate::app::msg::Effect;
use crate::app::state::{Modal, Prompt, ReadOutcome, ReadState, State};
use crate::aws::ReadSpec;
use crate::model::capacity::format_units;
use crate::model::collection::ItemStore;

/// Items per page the explorer asks for: enough to browse, and a first screen costs a few RCU
/// instead of a full 1 MB page's 128.
pub const EXPLORER_PAGE_SIZE: i32 = 1000;

/// Replaces the loaded items with a new read's first page.
pub(super) fn start_fresh(state: &mut State, mut spec: ReadSpec) -> Vec<Effect> {
    let mut effects: Vec<Effect> = running_read(state)
        .map(Effect::Cancel)
        .into_iter()
        .collect();
    let id = state.next_request_id;
    state.next_request_id += 1;
    leave_view(state);
    let Some(view) = state.table.as_mut() else {
        return effects;
    };
    // A new read replaces the one a streaming export holds.
    effects.extend(super::export_run::abandon_stream(view));
    let Some(info) = view.info.loaded() else {
        return effects;
    };
    let group_keys = info
        .keys_for(spec.index.as_deref())
        .cloned()
        .unwrap_or_else(|| info.keys.clone());
    // The table's keys and the index's: what names where a page cut short by the limit ends.
    spec.key_attributes = info.keys.names();
    for name in group_keys.names() {
        if !spec.key_attributes.contains(&name) {
            spec.key_attributes.push(name);
        }
    }
    let rules = state.config.kind_rules_for(&view.name);
    view.view.store = Some(ItemStore::new(group_keys, info.keys.clone()).with_kind_rules(rules));
    // The read it asked a budget for is replaced.
    if view.budget_prompt().is_some() {
        view.modal = None;
    }
    refilter(state);
    spec.max_pages = Some(1);
    spec.page_size = Some(EXPLORER_PAGE_SIZE);
    let view = state.table.as_mut().expect("checked above");
    view.view.read = Some(ReadState::new(id, spec.clone(), 0.0));
    effects.push(Effect::StartRead {
        id,
        spec: Box::new(spec),
    });
    effects
}

/// `n` (one more page per segment) and `L` (everything): continues the current read where each
/// segment stopped. A read with a capacity budget continues only with a new budget, asked for.
pub(super) fn load_more(state: &mut State, all: bool) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(read) = view.view.read.as_mut() else {
        return Vec::new();
    };
    if read.running {
        // Already loading: `all` upgrades the current read on its next continuation.
        read.continuous |= all;
        return Vec::new();
    }
    if !read.has_more() {
        return Vec::new();
    }
    // A streaming export holds the read: `n` resumes the export, which reads to the end.
    let all = all || super::export_run::holds_read(view);
    continue_read(state, all, None)
}

/// Starts the read that continues the current one; `budget` replaces its `max_rcu`. A read
/// with a capacity budget continues only with a new one: without `budget` it asks for it
/// (the prompt's Enter comes back here with it), whoever continues it (`n`, `L`, a streaming
/// export, a read upgraded to load everything).
pub(super) fn continue_read(state: &mut State, all: bool, budget: Option<f64>) -> Vec<Effect> {
    let id = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(read) = view.view.read.as_mut() else {
        return Vec::new();
    };
    if let (None, Some(old)) = (budget, read.spec.max_rcu) {
        let left = match read.outcome {
            Some(ReadOutcome::BudgetReached { .. }) => old,
            _ => (old - read.spent_rcu).max(0.0),
        };
        if Modal::yields_to_budget(view.modal.as_ref()) {
            view.modal = Some(Modal::BudgetPrompt(Prompt {
                text: format_units(if left > 0.0 { left } else { old }),
                error: None,
            }));
        }
        return Vec::new();
    }
    // After a cancel or a failure, what is left of the limit, so that both reads together
    // deliver what one would have; once it is used up, `n` loads the next `limit` items.
    let next = read
        .progress
        .resume(&read.spec)
        .or_else(|| read.progress.past_limit(&read.spec));
    let Some(mut spec) = next else {
        return Vec::new();
    };
    state.next_request_id += 1;
    if view.view.progress.is_none() {
        // Loading everything goes faster in DynamoDB's own 1 MB pages. A triage scan keeps
        // its own page size: it already reads to its end.
        (spec.max_pages, spec.page_size) = if all {
            (None, None)
        } else {
            (Some(1), Some(EXPLORER_PAGE_SIZE))
        };
    }
    if let Some(b) = budget {
        spec.max_rcu = Some(b);
    }
    let spent = read.spent_rcu;
    let mut next = ReadState::new(id, spec.clone(), spent);
    next.continuous = all && view.view.progress.is_none();
    view.view.read = Some(next);
    if let Some(p) = view.view.progress.as_mut() {
        p.continue_with(id, budget.map(|b| spent + b));
    }
    vec![super::export_run::start_read_effect(view, id, spec)]
}
