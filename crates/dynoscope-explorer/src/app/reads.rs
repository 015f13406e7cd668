//! The read owner: the one place that starts the read feeding the item store (recording who
//! asked for it: [`ReadOrigin`]), continues it (a page, everything, or after a cancel, a
//! failure or a spent budget), tees it into a streaming export that holds it, applies its
//! pages and ends it. Engine events reach it through `update::read_events`; the features that
//! start or continue a read (the query form, the palette, a walk, an export) call it here, not
//! through the dispatcher.

use crate::app::explorer::running_read;
use crate::app::msg::{Effect, ExportEffect, ReadEffect};
use crate::app::state::{
    LaunchPlan, Modal, Notice, Prompt, ReadOrigin, ReadOutcome, ReadState, ScanProgress,
    SegmentProgress, State,
};
use crate::app::table::derived::{follow_collection, keep_cursors_visible, refilter};
use crate::app::table::walk::leave_view;
use crate::model::design::collection::ItemStore;
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{DoneOutcome, EngineError, Page, ReadSpec};
use crate::model::traffic::capacity::format_units;

/// How a read's failure notice ends: a page of the resumed read clears such a notice.
const RESUME_HINT: &str = " — loaded items kept; n resumes";

/// Replaces the loaded items with a new read, paged as `origin` reads.
pub(crate) fn start(state: &mut State, mut spec: ReadSpec, origin: ReadOrigin) -> Vec<Effect> {
    let mut effects: Vec<Effect> = running_read(state)
        .map(|x| Effect::Read(ReadEffect::Cancel(x)))
        .into_iter()
        .collect();
    let id = state.next_request_id;
    state.next_request_id += 1;
    leave_view(state);
    let Some(table) = state.table.as_mut() else {
        return effects;
    };
    // A new read replaces the one a streaming export holds.
    effects.extend(
        table
            .end_streaming_export()
            .map(|x| Effect::Export(ExportEffect::Cancel(x))),
    );
    let Some(info) = table.info.loaded() else {
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
    let rules = state.config.kind_rules_for(&table.name);
    table.view.store = Some(ItemStore::new(group_keys, info.keys.clone()).with_kind_rules(rules));
    // The read it asked a budget for is replaced.
    if table.budget_prompt().is_some() {
        table.modal = None;
    }
    (spec.budget.max_pages, spec.page_size) = origin.first_paging();
    table.view.read = Some(ReadState::new(id, spec.clone(), 0.0, origin));
    refilter(state);
    effects.push(Effect::Read(ReadEffect::Start {
        id,
        spec: Box::new(spec),
    }));
    effects
}

/// `n` (one more page per segment) and `L` (everything): continues the current read where each
/// segment stopped. A read with a capacity budget continues only with a new budget, asked for.
pub(crate) fn load_more(state: &mut State, all: bool) -> Vec<Effect> {
    let Some(table) = state.table.as_mut() else {
        return Vec::new();
    };
    let holds = table.export_holds_read();
    let Some(read) = table.view.read.as_mut() else {
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
    continue_read(state, all || holds, None)
}

/// Starts the read that continues the current one; `budget` replaces its `budget.max_rcu`. A read
/// with a capacity budget continues only with a new one: without `budget` it asks for it
/// (the prompt's Enter comes back here with it), whoever continues it (`n`, `L`, a streaming
/// export, a read upgraded to load everything).
pub(crate) fn continue_read(state: &mut State, all: bool, budget: Option<f64>) -> Vec<Effect> {
    let id = state.next_request_id;
    let Some(table) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(read) = table.view.read.as_mut() else {
        return Vec::new();
    };
    if let (None, Some(old)) = (budget, read.spec.budget.max_rcu) {
        let left = match read.outcome {
            Some(ReadOutcome::BudgetReached { .. }) => old,
            _ => (old - read.spent_rcu).max(0.0),
        };
        if Modal::yields_to_budget(table.modal.as_ref()) {
            table.modal = Some(Modal::BudgetPrompt(Prompt {
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
    // Logged with each request: continuing what stopped short, or the next page asked for.
    spec.cause = match read.outcome {
        Some(
            ReadOutcome::Cancelled | ReadOutcome::Failed(_) | ReadOutcome::BudgetReached { .. },
        ) => ReadCause::Resume,
        _ => ReadCause::NextPage,
    };
    let origin = read.origin;
    if let Some(paging) = origin.next_paging(all) {
        (spec.budget.max_pages, spec.page_size) = paging;
    }
    if let Some(b) = budget {
        spec.budget.max_rcu = Some(b);
    }
    let spent = read.spent_rcu;
    let mut next = ReadState::new(id, spec.clone(), spent, origin);
    next.continuous = all && origin != ReadOrigin::Launcher;
    table.view.read = Some(next);
    if let Some(p) = table.view.progress.as_mut() {
        p.continue_with(id, budget.map(|b| spent + b));
    }
    // Tee'd into a streaming export that holds the read, else a plain read.
    let spec = Box::new(spec);
    match table
        .export_job
        .as_ref()
        .filter(|_| table.export_holds_read())
    {
        Some(job) => vec![Effect::Read(ReadEffect::Tee {
            job: job.id,
            id,
            spec,
        })],
        None => vec![Effect::Read(ReadEffect::Start { id, spec })],
    }
}

/// A page of the current read: into the view, and the cursors follow what they were on.
pub(crate) fn page(state: &mut State, page: Page) {
    // A resumed read that delivers makes its earlier failure stale.
    if state
        .notice
        .as_ref()
        .is_some_and(|n| n.error && n.text.ends_with(RESUME_HINT))
    {
        state.notice = None;
    }
    let cap = state.max_items;
    let Some(table) = state.table.as_mut() else {
        return;
    };
    let selected = table.apply_page(page, cap);
    refilter(state);
    follow_collection(state, selected);
    keep_cursors_visible(state);
}

/// The current read is done; a read upgraded to load everything goes on.
pub(crate) fn done(
    state: &mut State,
    outcome: DoneOutcome,
    elapsed: std::time::Duration,
) -> Vec<Effect> {
    let mut effects = Vec::new();
    if let Some(table) = state.table.as_mut() {
        if let Some(read) = table.view.read.as_mut() {
            read.running = false;
            read.outcome = Some(match outcome {
                DoneOutcome::Cancelled => ReadOutcome::Cancelled,
                DoneOutcome::LimitReached => ReadOutcome::LimitReached,
                DoneOutcome::Complete => ReadOutcome::Complete,
                DoneOutcome::BudgetReached => ReadOutcome::BudgetReached {
                    spent: read.spent_rcu,
                    budget: table
                        .view
                        .progress
                        .as_ref()
                        .and_then(|p| p.budget_rcu)
                        .or(read.spec.budget.max_rcu)
                        .unwrap_or_default(),
                },
            });
            if let Some(progress) = table.view.progress.as_mut() {
                progress.finish(elapsed, !read.has_more());
            }
            let own_budget = read.spec.budget.max_rcu.is_some()
                || table
                    .view
                    .progress
                    .as_ref()
                    .is_some_and(|p| p.budget_rcu.is_some());
            if let (Some(ReadOutcome::BudgetReached { .. }), false, Some(max)) =
                (&read.outcome, own_budget, state.session_budget.max_rcu)
            {
                // Not the read's budget: the session's, which no new read budget lifts.
                read.outcome = Some(ReadOutcome::BudgetReached {
                    spent: state.log.total.total,
                    budget: max,
                });
                state.notice = Some(Notice {
                    text: format!(
                        "stopped at the session's --max-rcu {}: {} RCU spent; nothing more is read in this session",
                        format_units(max),
                        format_units(state.log.total.total)
                    ),
                    error: false,
                });
            } else if let Some(ReadOutcome::BudgetReached { spent, budget }) = read.outcome {
                state.notice = Some(Notice {
                    text: format!(
                        "stopped at the capacity budget: {} of {} RCU spent; n resumes with a new budget",
                        format_units(spent),
                        format_units(budget)
                    ),
                    error: false,
                });
            } else {
                let again = matches!(outcome, DoneOutcome::Complete | DoneOutcome::LimitReached);
                if read.continuous && again && read.has_more() {
                    effects = continue_read(state, true, None);
                }
            }
        }
    }
    effects.extend(ended(state));
    effects
}

/// The current read failed: what it loaded stays, `n` resumes it.
pub(crate) fn failed(
    state: &mut State,
    error: &EngineError,
    elapsed: std::time::Duration,
) -> Vec<Effect> {
    if let Some(table) = state.table.as_mut() {
        if let Some(read) = table.view.read.as_mut() {
            read.running = false;
            read.outcome = Some(ReadOutcome::Failed(error.message.clone()));
            if let Some(progress) = table.view.progress.as_mut() {
                progress.finish(elapsed, false);
            }
        }
        state.notice = Some(Notice {
            text: format!("{}{RESUME_HINT}", error.message),
            error: true,
        });
    }
    ended(state)
}

/// The read ended (done or failed): a streaming export that follows it takes over, finishes
/// or pauses with it.
fn ended(state: &mut State) -> Vec<Effect> {
    crate::app::export::run::read_ended(state)
}

/// Launches a triage scan the launcher (or the query form's PartiQL mode) planned.
pub(crate) fn launch_scan(state: &mut State, plan: LaunchPlan) -> Vec<Effect> {
    let segments = plan.spec.segments;
    if let Some(v) = state.table.as_mut() {
        v.modal = None;
        v.view.index = plan.spec.index.clone();
    }
    // A triage scan streams to its end (or its budget): its paging is the launcher's.
    let effects = start(state, plan.spec.clone(), ReadOrigin::Launcher);
    let from_files = state.session.export.is_some();
    if let Some(v) = state.table.as_mut() {
        let id = v.view.read.as_ref().map_or(0, |r| r.id);
        v.view.progress = Some(ScanProgress {
            request_id: id,
            segments: vec![SegmentProgress::default(); segments as usize],
            estimate_rcu: plan.estimate_rcu,
            budget_rcu: plan.spec.budget.max_rcu,
            from_files,
            ..Default::default()
        });
    }
    effects
}
