//! The palette's Ctrl-K: check the highlighted access pattern as `patterns check` does (its
//! key sample, three calls, its verdict), under the session's guard, and keep the result
//! beside the pattern's name.

use crate::app::effect::{Effect, ReadEffect};
use crate::app::state::{Modal, Notice, PaletteEntry, PatternCheck, State};
use crate::model::design::pattern_check::sample::sample_shape;
use crate::model::design::pattern_check::PatternReport;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

/// Calls a palette check makes: what `patterns check` makes by default.
pub const PALETTE_CALLS: usize = 3;
/// What one check may spend when the session has no `--max-rcu`: `patterns check`'s own
/// default. A check reads a key sample and a few calls, not a partition: a call on a large
/// collection stops here, said so, rather than reading it whole three times.
pub const CHECK_MAX_RCU: f64 = 25.0;

pub(super) fn check_highlighted(state: &mut State) -> Vec<Effect> {
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let Some(p) = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref().and_then(Modal::palette))
    else {
        return Vec::new();
    };
    let Some(PaletteEntry::Pattern(at)) = p.highlighted() else {
        return Vec::new();
    };
    let pattern = state.patterns[at].clone();
    if let Some(PatternCheck::Running { .. }) =
        state.queries.pattern_checks.get(&info.name, &pattern.name)
    {
        return Vec::new();
    }
    // Priced before it is sent, as every read of the session: the key sample's price at
    // DescribeTable's average item size (a request costs half a unit at least).
    let (segments, per_segment) = sample_shape(info.item_count);
    let sample = info.sample_units(None, per_segment as u64).max(0.5) * segments as f64;
    let (bound, max_rcu) = match state.session_budget.left(state.log.total.total) {
        Some(left) if sample > left => {
            state.notice = Some(Notice {
                text: format!(
                    "pattern '{}' not checked: its key sample alone, ≈ {} RCU, would pass the session's --max-rcu {} ({} left); nothing was sent",
                    pattern.name,
                    format_units(sample),
                    format_units(state.session_budget.max_rcu.unwrap_or_default()),
                    format_units(left)
                ),
                error: true,
            });
            return Vec::new();
        }
        Some(left) => (
            format!("{} RCU (the session's --max-rcu left)", format_units(left)),
            None,
        ),
        None => (
            format!(
                "{} RCU (a check's own bound without --max-rcu)",
                format_units(CHECK_MAX_RCU)
            ),
            Some(CHECK_MAX_RCU),
        ),
    };
    let id = state.next_request_id;
    state.next_request_id += 1;
    state.notice = Some(Notice {
        text: sanitize(&format!(
            "checking '{}' (Esc stops it): key sample ≈ {} RCU + {PALETTE_CALLS} calls, at most {bound}",
            pattern.name,
            format_units(sample)
        ))
        .into_owned(),
        error: false,
    });
    state
        .queries
        .pattern_checks
        .set(&info.name, &pattern.name, PatternCheck::Running { id });
    vec![Effect::Read(ReadEffect::CheckPattern {
        id,
        info: Box::new(info),
        pattern: Box::new(pattern),
        calls: PALETTE_CALLS,
        max_rcu,
    })]
}

/// Esc in the palette's list: stops the table's checks still running (their answers say what
/// they spent), else closes the palette.
pub(super) fn stop_or_close(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let running = state.queries.pattern_checks.running(&v.name);
    if running.is_empty() {
        v.modal = None;
        return Vec::new();
    }
    state.notice = Some(Notice {
        text: "stopping the pattern check…".into(),
        error: false,
    });
    running
        .into_iter()
        .map(|id| Effect::Read(ReadEffect::Cancel(id)))
        .collect()
}

pub(super) fn checked(
    state: &mut State,
    table: &str,
    pattern: &str,
    result: Result<Box<PatternReport>, String>,
    spent_rcu: f64,
    stopped: bool,
) -> Vec<Effect> {
    let spent = format_units(spent_rcu);
    let check = match result {
        _ if stopped => PatternCheck::Stopped { spent_rcu },
        Ok(report) => PatternCheck::Done(report),
        Err(why) => PatternCheck::Failed(why),
    };
    let text = match &check {
        PatternCheck::Done(r) => {
            let cost = r
                .measured
                .as_ref()
                .map(|m| format!(", {} RCU a call", format_units(m.rcu_median)))
                .unwrap_or_else(|| {
                    format!(
                        ", not measured: {}",
                        r.unmeasured.as_deref().unwrap_or("nothing ran")
                    )
                });
            format!(
                "pattern '{pattern}' checked{cost}: {} · the check spent {spent} RCU",
                r.verdict.text
            )
        }
        PatternCheck::Stopped { .. } => {
            format!("pattern '{pattern}': check stopped; it spent {spent} RCU")
        }
        _ => format!(
            "pattern '{pattern}': {} · the check spent {spent} RCU",
            check.summary()
        ),
    };
    state.notice = Some(Notice {
        text: sanitize(&text).into_owned(),
        error: check.failed(),
    });
    state.queries.pattern_checks.set(table, pattern, check);
    Vec::new()
}

#[cfg(test)]
#[path = "pattern_check_tests.rs"]
mod tests;
