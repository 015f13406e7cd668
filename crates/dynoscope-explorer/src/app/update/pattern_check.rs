//! The palette's Ctrl-K: check the highlighted access pattern as `patterns check` does (its
//! key sample, three calls, its verdict), under the session's guard, and keep the result
//! beside the pattern's name.

use crate::app::effect::{Effect, ReadEffect};
use crate::app::state::{Modal, Notice, PatternCheck, State};
use crate::model::design::pattern_check::PatternReport;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;

/// Calls a palette check makes: what `patterns check` makes by default.
pub const PALETTE_CALLS: usize = 3;

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
    let Some(&at) = p.entries.get(p.list.cursor) else {
        return Vec::new();
    };
    let pattern = state.patterns[at].clone();
    if state.queries.pattern_checks.get(&info.name, &pattern.name) == Some(&PatternCheck::Running) {
        return Vec::new();
    }
    state
        .queries
        .pattern_checks
        .set(&info.name, &pattern.name, PatternCheck::Running);
    vec![Effect::Read(ReadEffect::CheckPattern {
        info: Box::new(info),
        pattern: Box::new(pattern),
        calls: PALETTE_CALLS,
    })]
}

pub(super) fn checked(
    state: &mut State,
    table: &str,
    pattern: &str,
    result: Result<Box<PatternReport>, String>,
) -> Vec<Effect> {
    let check = match result {
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
            format!("pattern '{pattern}' checked{cost}: {}", r.verdict.text)
        }
        _ => format!("pattern '{pattern}': {}", check.summary()),
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
