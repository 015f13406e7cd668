//! Beside each pattern's name in the palette: its last check (Ctrl-K), cost and verdict, a
//! failing verdict in the warning colour.

use ratatui::text::Span;

use super::theme;
use crate::app::state::{Palette, PatternCheck, State};
use crate::model::text::sanitize::sanitize;

/// `[1.5 RCU a call · served]` for a pattern of the open table checked this session.
pub fn check_span(state: &State, pattern: &str) -> Option<Span<'static>> {
    let table = state.table.as_ref()?;
    let check = state.queries.pattern_checks.get(&table.name, pattern)?;
    let text = format!("[{}] ", sanitize(&check.summary()));
    Some(match check {
        _ if check.failed() => Span::styled(text, theme::warning()),
        PatternCheck::Running { .. } => Span::styled(text, theme::dim()),
        _ => Span::raw(text),
    })
}

/// The palette's bottom line: its keys, Ctrl-K in the list.
pub fn hint(palette: &Palette) -> &'static str {
    match palette.form {
        None => " type to filter · ↑↓ choose · Enter runs · Ctrl-K checks a pattern · Esc closes ",
        Some(_) => " ↑↓ choose · Enter run · Tab next parameter / accept · Esc back ",
    }
}
