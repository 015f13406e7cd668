//! What the engine sends back: pages into the store and the request log, and how reads end.

use super::completion::sample_event;
use super::filter::{follow_collection, keep_cursors_visible, refilter};
use super::reads::continue_read;
use crate::app::msg::Effect;
use crate::app::request_log::RequestRow;
use crate::app::state::{Notice, ReadOutcome, State};
use crate::aws::{DoneOutcome, EngineEvent};
use crate::model::capacity::format_units;

/// How a read's failure notice ends: a page of the resumed read clears such a notice.
const RESUME_HINT: &str = " — loaded items kept; n resumes";

pub(super) fn engine_event(state: &mut State, event: EngineEvent) -> Vec<Effect> {
    let ends_current = matches!(event, EngineEvent::Done { .. } | EngineEvent::Failed { .. })
        && state
            .table
            .as_ref()
            .and_then(|v| v.view.read.as_ref())
            .is_some_and(|r| r.id == event.request_id());
    let mut effects = apply(state, event);
    if ends_current {
        // A streaming export follows its read: it takes over, finishes or pauses with it.
        effects.extend(super::export_run::read_ended(state));
    }
    effects
}

fn apply(state: &mut State, event: EngineEvent) -> Vec<Effect> {
    let request_id = event.request_id();
    if let Some(effects) = sample_event(state, &event) {
        return effects;
    }
    let is_current = state
        .table
        .as_ref()
        .and_then(|v| v.view.read.as_ref())
        .is_some_and(|r| r.id == request_id);
    match event {
        EngineEvent::Page(page) => {
            let segments = state
                .table
                .as_ref()
                .and_then(|v| v.view.read.as_ref())
                .filter(|_| is_current)
                .map_or(1, |r| r.spec.segment_count());
            // Every page is logged, even a stale one: its capacity was spent.
            state.log.push(RequestRow::from_page(&page, segments));
            if !is_current {
                return Vec::new();
            }
            // A resumed read that delivers makes its earlier failure stale.
            if state
                .notice
                .as_ref()
                .is_some_and(|n| n.error && n.text.ends_with(RESUME_HINT))
            {
                state.notice = None;
            }
            let view = state.table.as_mut().expect("current read has a view");
            let read = view.view.read.as_mut().expect("current read");
            read.pages += 1;
            read.spent_rcu += page.consumed.total;
            read.progress.record(&page);
            if let Some(progress) = view.view.progress.as_mut() {
                progress.record(&page);
            }
            let cap = state.max_items;
            let selected = view.view.selected_collection();
            if let Some(store) = view.view.store.as_mut() {
                // Past the cap the request log and statistics keep counting, but items are not
                // kept, so a huge scan cannot take the explorer's memory with it. Views kept
                // for going back count too, and make room first, oldest first.
                let mut items = page.items;
                let separator = store.settle_separator(&items);
                let group_key = store.group_keys().partition_key.name.as_str();
                if view.knowledge.targets().is_empty() {
                    if let Some(info) = view.info.loaded() {
                        view.knowledge = crate::model::relations::KeyKnowledge::new(info);
                    }
                }
                view.knowledge.observe(&items, separator, Some(group_key));
                view.view.related.stale = true;
                view.visited
                    .fit(cap.saturating_sub(store.len() + items.len()));
                let room = cap.saturating_sub(store.len() + view.visited.items_held());
                if items.len() > room {
                    view.view.dropped_items += (items.len() - room) as u64;
                    items.truncate(room);
                }
                store.extend(items);
                view.view.ordering.refresh(store);
            }
            refilter(state);
            follow_collection(state, selected);
            keep_cursors_visible(state);
            Vec::new()
        }
        EngineEvent::Done {
            outcome, elapsed, ..
        } if is_current => {
            let view = state.table.as_mut().expect("current read has a view");
            let read = view.view.read.as_mut().expect("current read");
            read.running = false;
            read.outcome = Some(match outcome {
                DoneOutcome::Cancelled => ReadOutcome::Cancelled,
                DoneOutcome::LimitReached => ReadOutcome::LimitReached,
                DoneOutcome::Complete => ReadOutcome::Complete,
                DoneOutcome::BudgetReached => ReadOutcome::BudgetReached {
                    spent: read.spent_rcu,
                    budget: view
                        .view
                        .progress
                        .as_ref()
                        .and_then(|p| p.budget_rcu)
                        .or(read.spec.max_rcu)
                        .unwrap_or_default(),
                },
            });
            if let Some(progress) = view.view.progress.as_mut() {
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
                let read = view.view.read.as_mut().expect("current read");
                read.running = false;
                read.outcome = Some(ReadOutcome::Failed(error.message.clone()));
                if let Some(progress) = view.view.progress.as_mut() {
                    progress.finish(elapsed, false);
                }
                state.notice = Some(Notice {
                    text: format!("{}{RESUME_HINT}", error.message),
                    error: true,
                });
            }
            Vec::new()
        }
        EngineEvent::Done { .. } => Vec::new(),
    }
}
