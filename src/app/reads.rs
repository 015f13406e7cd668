//! The read feeding the item store: starting one, continuing it (a page, everything, or after a
//! cancel, a failure or a spent budget), and applying what the engine sends back.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::msg::Effect;
use super::request_log::RequestRow;
use super::state::{Notice, Pane, Prompt, ReadOutcome, ReadState, State};
use super::update::{keep_cursors_visible, refilter, running_read};
use crate::aws::{DoneOutcome, EngineEvent, ReadSpec};
use crate::model::capacity::format_units;
use crate::model::collection::ItemStore;
use crate::model::limits;

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
    let Some(view) = state.table.as_mut() else {
        return effects;
    };
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
    view.store = Some(ItemStore::new(group_keys, info.keys.clone()));
    view.dropped_items = 0;
    view.progress = None;
    view.budget_prompt = None;
    view.collections = Default::default();
    view.items = Default::default();
    view.detail_open = false;
    view.focus = Pane::Collections;
    refilter(state);
    spec.max_pages = Some(1);
    spec.page_size = Some(EXPLORER_PAGE_SIZE);
    let view = state.table.as_mut().expect("checked above");
    view.read = Some(ReadState::new(id, spec.clone(), 0.0));
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
    let Some(read) = view.read.as_mut() else {
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
    if let Some(budget) = read.spec.max_rcu {
        let left = match read.outcome {
            Some(ReadOutcome::BudgetReached { .. }) => budget,
            _ => (budget - read.spent_rcu).max(0.0),
        };
        view.budget_prompt = Some(Prompt {
            text: format_units(if left > 0.0 { left } else { budget }),
            error: None,
        });
        return Vec::new();
    }
    continue_read(state, all, None)
}

/// The resume prompt of a budgeted read: Enter resumes with the typed budget, Esc keeps it
/// stopped. `None` when the prompt is not open.
pub(super) fn budget_prompt_key(state: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let prompt = state.table.as_mut()?.budget_prompt.as_mut()?;
    match key.code {
        KeyCode::Esc => {
            state.table.as_mut()?.budget_prompt = None;
        }
        KeyCode::Enter => {
            let text = prompt.text.trim().to_string();
            let parsed = limits::MAX_RCU
                .parse(&text)
                .map_err(|why| format!("max RCU '{text}': {why}"));
            match parsed {
                Ok(budget) => {
                    state.table.as_mut()?.budget_prompt = None;
                    return Some(continue_read(state, true, Some(budget)));
                }
                Err(message) => prompt.error = Some(message),
            }
        }
        KeyCode::Backspace => {
            prompt.text.pop();
            prompt.error = None;
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            prompt.text.push(c);
            prompt.error = None;
        }
        _ => {}
    }
    Some(Vec::new())
}

/// Starts the read that continues the current one; `budget` replaces its `max_rcu`.
fn continue_read(state: &mut State, all: bool, budget: Option<f64>) -> Vec<Effect> {
    let id = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(read) = view.read.as_mut() else {
        return Vec::new();
    };
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
    if view.progress.is_none() {
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
    next.continuous = all && view.progress.is_none();
    view.read = Some(next);
    if let Some(p) = view.progress.as_mut() {
        p.continue_with(id, budget.map(|b| spent + b));
    }
    vec![Effect::StartRead {
        id,
        spec: Box::new(spec),
    }]
}

pub(super) fn engine_event(state: &mut State, event: EngineEvent) -> Vec<Effect> {
    let request_id = event.request_id();
    if let Some(effects) = super::builder_update::sample_event(state, &event) {
        return effects;
    }
    let is_current = state
        .table
        .as_ref()
        .and_then(|v| v.read.as_ref())
        .is_some_and(|r| r.id == request_id);
    match event {
        EngineEvent::Page(page) => {
            let segments = state
                .table
                .as_ref()
                .and_then(|v| v.read.as_ref())
                .filter(|_| is_current)
                .map_or(1, |r| r.spec.segment_count());
            // Every page is logged, even a stale one: its capacity was spent.
            state.log.push(RequestRow::from_page(&page, segments));
            if !is_current {
                return Vec::new();
            }
            let view = state.table.as_mut().expect("current read has a view");
            let read = view.read.as_mut().expect("current read");
            read.pages += 1;
            read.spent_rcu += page.consumed.total;
            read.progress.record(&page);
            if let Some(progress) = view.progress.as_mut() {
                progress.record(&page);
            }
            let cap = state.max_items;
            if let Some(store) = view.store.as_mut() {
                // Past the cap the request log and statistics keep counting, but items are not
                // kept, so a huge scan cannot take the explorer's memory with it.
                let mut items = page.items;
                let room = cap.saturating_sub(store.len());
                if items.len() > room {
                    view.dropped_items += (items.len() - room) as u64;
                    items.truncate(room);
                }
                store.extend(items);
            }
            refilter(state);
            keep_cursors_visible(state);
            Vec::new()
        }
        EngineEvent::Done {
            outcome, elapsed, ..
        } if is_current => {
            let view = state.table.as_mut().expect("current read has a view");
            let read = view.read.as_mut().expect("current read");
            read.running = false;
            read.outcome = Some(match outcome {
                DoneOutcome::Cancelled => ReadOutcome::Cancelled,
                DoneOutcome::LimitReached => ReadOutcome::LimitReached,
                DoneOutcome::Complete => ReadOutcome::Complete,
                DoneOutcome::BudgetReached => ReadOutcome::BudgetReached {
                    spent: read.spent_rcu,
                    budget: view
                        .progress
                        .as_ref()
                        .and_then(|p| p.budget_rcu)
                        .or(read.spec.max_rcu)
                        .unwrap_or_default(),
                },
            });
            if let Some(progress) = view.progress.as_mut() {
                progress.finish(elapsed, !read.has_more());
            }
            if let Some(ReadOutcome::BudgetReached { spent, budget }) = read.outcome {
                state.notice = Some(Notice {
                    text: format!(
                        "stopped at the capacity budget: {} of {} RCU spent; n resumes with a new budget",
                        format_units(spent),
                        format_units(budget)
                    ),
                    error: false,
                });
                return Vec::new();
            }
            let again = matches!(outcome, DoneOutcome::Complete | DoneOutcome::LimitReached);
            if read.continuous && again && read.has_more() {
                return continue_read(state, true, None);
            }
            Vec::new()
        }
        EngineEvent::Abandoned { attempts, .. } => {
            state
                .log
                .record_failure(attempts.attempts, attempts.throttles);
            Vec::new()
        }
        EngineEvent::Failed {
            error,
            attempts,
            elapsed,
            ..
        } => {
            state
                .log
                .record_failure(attempts.attempts, attempts.throttles);
            if is_current {
                let view = state.table.as_mut().expect("current read has a view");
                let read = view.read.as_mut().expect("current read");
                read.running = false;
                read.outcome = Some(ReadOutcome::Failed(error.message.clone()));
                if let Some(progress) = view.progress.as_mut() {
                    progress.finish(elapsed, false);
                }
                state.notice = Some(Notice {
                    text: format!(
                        "{} — what was loaded is kept; press n to resume",
                        error.message
                    ),
                    error: true,
                });
            }
            Vec::new()
        }
        EngineEvent::Done { .. } => Vec::new(),
    }
}
