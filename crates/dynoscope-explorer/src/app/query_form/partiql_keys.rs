//! The query form's PartiQL mode: switching to it, choosing and copying a dialect, and running
//! the translated statement exactly as EXPLAIN shows it (a Query like a form query; a Scan only
//! after its estimate was shown and Enter pressed again, as the scan launcher does; a write or
//! an untranslated SELECT refused with its line). A statement run is kept in query history.

use super::field::Field;
use super::form::QueryForm;
use super::history::remember;
use super::partiql::PartiqlCheck;
use crate::app::msg::{Effect, TerminalEffect};
use crate::app::reads::{launch_scan, start as start_read};
use crate::app::state::{LaunchPlan, Modal, Notice, ReadOrigin, State};
use crate::model::design::schema::TableInfo;
use crate::model::traffic::capacity::on_demand_cost;

/// Ctrl-R: form → raw KeyConditionExpression → PartiQL → form. An empty statement starts as
/// a SELECT of the table (or the chosen index) for the WHERE to be typed.
pub(super) fn next_mode(b: &mut QueryForm, info: Option<&TableInfo>) {
    b.completion = None;
    b.pql.confirming = false;
    if b.partiql {
        b.partiql = false;
        b.raw = false;
        b.focus = Field::Pk;
    } else if b.raw {
        b.raw = false;
        b.partiql = true;
        b.focus = Field::Statement;
        if b.text(Field::Statement).is_empty() {
            if let Some(info) = info {
                let from = match b.index_name(info) {
                    Some(index) => format!("\"{}\".\"{index}\"", info.name),
                    None => format!("\"{}\"", info.name),
                };
                b.set_text(Field::Statement, &format!("SELECT * FROM {from} WHERE "));
            }
        }
    } else {
        b.raw = true;
        b.focus = Field::RawKey;
    }
}

/// Ctrl-T: the next dialect in EXPLAIN (the one Ctrl-Y copies), in either mode.
pub(super) fn next_dialect(b: &mut QueryForm) {
    let n = if b.partiql {
        b.pql.check.ready().map_or(1, |r| r.dialects.len())
    } else {
        b.check.as_ref().map_or(1, |q| q.dialects.len())
    }
    .max(1);
    b.dialect = (b.dialect + 1) % n;
    b.pql.explain_scroll = 0;
}

/// Ctrl-Y in PartiQL mode: copies the chosen dialect.
pub(super) fn copy_dialect(state: &mut State) -> Vec<Effect> {
    let Some(b) = state.table.as_ref().and_then(|v| v.query_form()) else {
        return Vec::new();
    };
    let chosen = b
        .pql
        .check
        .ready()
        .and_then(|r| r.dialects.get(b.dialect).or_else(|| r.dialects.first()));
    match chosen {
        Some((name, text)) => {
            let text = text.clone();
            state.notice = Some(Notice {
                text: format!("copied the {name} version to the clipboard"),
                error: false,
            });
            vec![Effect::Terminal(TerminalEffect::Copy(text))]
        }
        None => {
            state.notice = Some(Notice {
                text: format!(
                    "nothing to copy: {}",
                    b.pql
                        .check
                        .problem()
                        .unwrap_or("the statement is not translated")
                ),
                error: true,
            });
            Vec::new()
        }
    }
}

/// Enter in PartiQL mode.
pub(super) fn run_partiql(state: &mut State) -> Vec<Effect> {
    let price = state.config.price_per_million_reads;
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(b) = v.modal.as_mut().and_then(Modal::query_form_mut) else {
        return Vec::new();
    };
    let ready = match &b.pql.check {
        PartiqlCheck::Ready(r) => (**r).clone(),
        other => {
            let text = other.problem().unwrap_or_default().to_string();
            state.notice = Some(Notice { text, error: true });
            return Vec::new();
        }
    };
    let (entry, table) = (b.history_entry(), v.name.clone());
    if let Some(estimate_rcu) = ready.scan_rcu {
        // Scans are never silent: the first Enter shows the estimate, the second runs it.
        if !b.pql.confirming {
            b.pql.confirming = true;
            return Vec::new();
        }
        let mut effects: Vec<Effect> = remember(state, &table, entry).into_iter().collect();
        effects.extend(launch_scan(
            state,
            LaunchPlan {
                spec: ready.spec,
                estimate_rcu,
                estimate_cost: on_demand_cost(estimate_rcu, price),
                needs_confirmation: true,
                hint: None,
            },
        ));
        return effects;
    }
    v.view.index = ready.spec.index.clone();
    v.modal = None;
    state.notice = None;
    // Several Queries (an IN of partition keys) are the shards of one read, as a sharded
    // pattern's are: each reads to its end.
    let sharded = !ready.spec.shards.is_empty();
    let origin = if sharded {
        ReadOrigin::Pattern { sharded }
    } else {
        ReadOrigin::Plain
    };
    let mut effects: Vec<Effect> = remember(state, &table, entry).into_iter().collect();
    effects.extend(start_read(state, ready.spec, origin));
    effects
}
