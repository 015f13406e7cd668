//! What the engine sends back about reads, routed by request id: the current read's pages and
//! end go to the read owner (`reads`), a query-form key sample to its completion code, and
//! a stale read's pages only to the request log (their capacity was spent).

use crate::app::msg::Effect;
use crate::app::query_form::sample_event;
use crate::app::request_log::RequestRow;
use crate::app::state::State;
use crate::model::engine::EngineEvent;

pub(super) fn read_event(state: &mut State, event: EngineEvent) -> Vec<Effect> {
    let request_id = event.request_id();
    let current = state
        .table
        .as_ref()
        .and_then(|t| t.view.read.as_ref())
        .filter(|r| r.id == request_id)
        .map(|r| r.spec.segment_count());
    if current.is_none() {
        if let Some(effects) = sample_event(state, &event) {
            return effects;
        }
    }
    match event {
        EngineEvent::Page(page) => {
            // Every page is logged, even a stale one: its capacity was spent.
            state
                .log
                .push(RequestRow::from_page(&page, current.unwrap_or(1)));
            if current.is_some() {
                crate::app::reads::page(state, page);
            }
            Vec::new()
        }
        EngineEvent::Done {
            outcome, elapsed, ..
        } if current.is_some() => crate::app::reads::done(state, outcome, elapsed),
        EngineEvent::Done { .. } => Vec::new(),
        EngineEvent::Integrity { report, .. } => {
            super::export_damage::damaged(state, request_id, report);
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
            match current {
                Some(_) => crate::app::reads::failed(state, &error, elapsed),
                None => Vec::new(),
            }
        }
    }
}
