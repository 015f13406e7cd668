//! The palette's rows: every action of the keymap (its help text and its keys, as the help
//! shows them) and the open table's access patterns, each with the reason it does nothing here
//! when it does nothing here, ranked for what is typed. Recently run rows come first.

use std::cmp::Reverse;

use crate::app::keymap::Action;
use crate::app::state::{PaletteEntry, PaletteRow, PaletteScope, State};
use crate::model::text::fuzzy;

/// What a row run this session adds to its score: less than one well-placed letter, so a recent
/// row leads among similar matches without hiding a much better one.
pub(crate) const RECENT_BONUS: u32 = 12;

/// The rows `scope` lists in `state`, ranked for `query`.
pub(super) fn rows(state: &State, scope: PaletteScope, query: &str) -> Vec<PaletteRow> {
    let mut candidates = Vec::new();
    if scope == PaletteScope::Everything {
        for row in state.keymap.help_rows() {
            let Some(action) = Action::from_name(row.action) else {
                continue;
            };
            // The palette is open already.
            if action == Action::ActionPalette {
                continue;
            }
            let text = format!("{} {}", row.action.replace('_', " "), row.help);
            candidates.push((
                PaletteRow {
                    entry: PaletteEntry::Action(action),
                    label: row.help,
                    detail: String::new(),
                    keys: row.keys,
                    unavailable: unavailable(state, action),
                },
                text,
            ));
        }
    }
    let table = state.table.as_ref().map(|t| t.name.as_str());
    for (i, p) in state.patterns.iter().enumerate() {
        if Some(p.table.as_str()) != table {
            continue;
        }
        let label = format!("pattern {}", p.name);
        let mut detail = p.pk_display();
        if let Some(d) = &p.description {
            detail.push_str(" — ");
            detail.push_str(d);
        }
        let text = format!("{label} {detail}");
        candidates.push((
            PaletteRow {
                entry: PaletteEntry::Pattern(i),
                label,
                detail,
                keys: String::new(),
                unavailable: None,
            },
            text,
        ));
    }
    rank(candidates, query, &state.recent)
}

/// The rows that match `query`, best first: by score (with [`RECENT_BONUS`] for a row in
/// `recent`), then the most recently run, then the order they came in (the keymap's).
pub(crate) fn rank(
    candidates: Vec<(PaletteRow, String)>,
    query: &str,
    recent: &[PaletteEntry],
) -> Vec<PaletteRow> {
    let mut scored: Vec<(u32, usize, usize, PaletteRow)> = candidates
        .into_iter()
        .enumerate()
        .filter_map(|(order, (row, text))| {
            let score = fuzzy::score(query, &text)?;
            let recency = recent.iter().position(|e| *e == row.entry);
            let bonus = if recency.is_some() { RECENT_BONUS } else { 0 };
            Some((score + bonus, recency.unwrap_or(usize::MAX), order, row))
        })
        .collect();
    scored.sort_by_key(|(score, recency, order, _)| (Reverse(*score), *recency, *order));
    scored.into_iter().map(|(.., row)| row).collect()
}

/// Why `action` does nothing here, in a few words; `None` when it applies. Each reason is the
/// condition the action's own code refuses on (its notice says the rest when it is run).
pub(crate) fn unavailable(state: &State, action: Action) -> Option<String> {
    use Action::*;
    let table = state.table.as_ref()?;
    let export = state.session.export.is_some();
    let loaded = table.view.store.as_ref().is_some_and(|s| !s.is_empty());
    let info = table.info.loaded();
    let write = matches!(action, Edit | EditDynamo | NewItem | Delete | Undo);
    let read_done = table
        .view
        .read
        .as_ref()
        .is_none_or(|r| !r.running && !r.has_more());
    let reason = match action {
        _ if write && export => "an export is read-only",
        _ if write && !state.writes_enabled => "needs --allow-writes",
        BulkWrite if export => "an export is read-only",
        Undo if table.undo.is_empty() => "nothing to undo",
        Edit | EditDynamo | Delete | Copy | Export | Mark | MarkAll | InvertMarks | BulkWrite
            if !loaded =>
        {
            "no items loaded"
        }
        ClearMarks if table.view.marks.is_empty() => "nothing marked",
        Live if export => "an export has no stream",
        Live if info.is_some_and(|i| i.stream.is_none()) => "no stream on this table",
        Metrics | Insights if export => "an export has no CloudWatch metrics",
        LoadMore | LoadAll if read_done => "nothing more to read",
        Patterns if !state.patterns.iter().any(|p| p.table == table.name) => {
            "no access patterns for this table"
        }
        NavBack if table.visited.is_empty() => "no previous view",
        _ => return None,
    };
    Some(reason.into())
}

#[cfg(test)]
#[path = "palette_tests.rs"]
mod tests;
