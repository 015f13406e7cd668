//! The query form's keys (`:` opens it): typing, accepting completions, history, and running
//! the query. The router in `update` sends the form's keys here.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::completion::refresh;
use super::field::{Field, SORT_OPS};
use super::form::QueryForm;
use super::history::remember;
use super::key_sample::{restore, sample_keys};
use super::partiql_keys::{copy_dialect, next_dialect, next_mode, run_partiql};
use crate::app::msg::{Effect, TerminalEffect};
use crate::app::reads::start as start_read;
use crate::app::state::{Modal, Notice, OpenTable, ReadOrigin, State};

fn view(state: &mut State) -> Option<&mut OpenTable> {
    state.table.as_mut()
}

pub(crate) fn open_query_form(state: &mut State) -> Vec<Effect> {
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let Some(v) = view(state) else {
        return Vec::new();
    };
    let index = info.target_position(v.view.index.as_deref());
    v.modal = Some(Modal::QueryForm(QueryForm::new(index)));
    // Opening the form reads nothing: completions come from what is loaded and from the
    // samples asked for this session.
    restore(state);
    refresh(state);
    Vec::new()
}

fn ctrl(key: &Key, c: char) -> bool {
    key.modifiers.contains(Modifiers::CONTROL) && key.code == KeyCode::Char(c)
}

pub(crate) fn query_form_key(state: &mut State, key: Key) -> Vec<Effect> {
    let table = state
        .table
        .as_ref()
        .map(|v| v.name.clone())
        .unwrap_or_default();
    let history_key = crate::app::history_file::history_key(&state.endpoint, &table);
    let history = state
        .queries
        .history
        .get(&history_key)
        .cloned()
        .unwrap_or_default();
    let info = state.table_info();
    let Some(b) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::query_form_mut))
    else {
        return Vec::new();
    };
    let fields = match &info {
        Some(info) => b.fields(info),
        None => vec![b.focus],
    };
    let at = fields.iter().position(|f| *f == b.focus).unwrap_or(0);
    let completing = b.completion.is_some();
    let effects = Vec::new();
    match key.code {
        KeyCode::Esc if completing => b.completion_dismissed = true,
        KeyCode::Esc => {
            state.table.as_mut().expect("open").modal = None;
            return Vec::new();
        }
        // Enter always runs what EXPLAIN shows; only Tab, or → at the end of the text, takes a
        // completion (accepting on Enter ran a different query from the one explained).
        KeyCode::Tab if completing => accept(b),
        KeyCode::Right if completing && cursor_at_end(b) => accept(b),
        KeyCode::Tab => {
            b.focus = fields[(at + 1) % fields.len()];
            b.completion_dismissed = false;
        }
        KeyCode::BackTab => {
            b.focus = fields[(at + fields.len() - 1) % fields.len()];
            b.completion_dismissed = false;
        }
        KeyCode::Enter if b.partiql => return run_partiql(state),
        // EXPLAIN of a statement can run past its pane (requests, a dialect's snippet).
        KeyCode::PageUp | KeyCode::PageDown if b.partiql => {
            let (width, page) = super::partiql::explain_area(state.width, state.height);
            let last = b.explain_rows(width).saturating_sub(page);
            b.pql.explain_scroll = if key.code == KeyCode::PageDown {
                (b.pql.explain_scroll + page).min(last)
            } else {
                b.pql.explain_scroll.saturating_sub(page)
            };
            return effects;
        }
        KeyCode::Enter => return run_query_form(state),
        KeyCode::Up | KeyCode::Down if completing => {
            let c = b.completion.as_mut().expect("completing");
            let n = c.items.len();
            c.selected = if key.code == KeyCode::Down {
                (c.selected + 1) % n
            } else {
                (c.selected + n - 1) % n
            };
            return effects;
        }
        // A statement of several lines keeps its lines to itself.
        KeyCode::Up | KeyCode::Down if b.partiql && b.text(Field::Statement).contains('\n') => {
            return effects
        }
        // History recalls the mode's own: form queries in the form, statements in PartiQL.
        KeyCode::Up | KeyCode::Down => {
            let history: Vec<_> = history.iter().filter(|h| h.partiql == b.partiql).collect();
            if history.is_empty() {
                return effects;
            }
            let last = history.len() - 1;
            let next = match (b.history_cursor, key.code) {
                (None, KeyCode::Up) => Some(last),
                (None, _) => None,
                (Some(i), KeyCode::Up) => Some(i.saturating_sub(1)),
                (Some(i), _) if i < last => Some(i + 1),
                (Some(_), _) => None,
            };
            b.history_cursor = next;
            match next {
                Some(i) => b.restore(history[i]),
                None => {
                    let partiql = b.partiql;
                    *b = QueryForm::new(b.index);
                    if partiql {
                        // Past the newest: a fresh statement, still in PartiQL mode.
                        next_mode(b, info.as_ref());
                        next_mode(b, info.as_ref());
                    }
                }
            }
        }
        // The one key in the form that reads: a priced key sample the popup offers.
        _ if ctrl(&key, 's') => return sample_keys(state),
        _ if ctrl(&key, 'o') => {
            state.queries.completion_order = state.queries.completion_order.toggled();
        }
        _ if ctrl(&key, 'u') && b.input(b.focus).is_some() => {
            let field = b.focus;
            b.set_text(field, "");
            edited(b, field);
        }
        _ if ctrl(&key, 'r') => next_mode(b, info.as_ref()),
        _ if ctrl(&key, 't') => next_dialect(b),
        _ if b.partiql && ctrl(&key, 'y') => return copy_dialect(state),
        _ if ctrl(&key, 'y') || (b.focus.is_selector() && key.code == KeyCode::Char('y')) => {
            return match &b.check {
                Ok(q) => {
                    let (name, text) = q
                        .dialects
                        .get(b.dialect)
                        .cloned()
                        .unwrap_or(("aws-cli", q.cli.clone()));
                    state.notice = Some(Notice {
                        text: if name == "aws-cli" {
                            "copied the aws-cli command to the clipboard".into()
                        } else {
                            format!("copied the {name} version to the clipboard")
                        },
                        error: false,
                    });
                    vec![Effect::Terminal(TerminalEffect::Copy(text))]
                }
                Err(e) => {
                    state.notice = Some(Notice {
                        text: format!("nothing to copy: {}", e.message),
                        error: true,
                    });
                    Vec::new()
                }
            };
        }
        KeyCode::Left | KeyCode::Right if b.focus.is_selector() => {
            let forward = key.code == KeyCode::Right;
            let step = |n: usize, len: usize| {
                if forward {
                    (n + 1) % len
                } else {
                    (n + len - 1) % len
                }
            };
            match b.focus {
                Field::Index => {
                    let count = info.as_ref().map_or(0, |i| i.indexes.len()) + 1;
                    b.index = step(b.index, count);
                    restore(state);
                    refresh(state);
                    return Vec::new();
                }
                Field::Op => b.op = step(b.op, SORT_OPS.len()),
                Field::Order => b.descending = !b.descending,
                _ => {}
            }
        }
        _ => {
            let field = b.focus;
            if let Some(input) = b.input_mut(field) {
                // One-line fields: Enter is handled above, so nothing inserts a newline.
                if input.input(key) {
                    edited(b, field);
                }
            }
        }
    }
    refresh(state);
    effects
}

/// Pasted text into the focused field, as if typed: the PartiQL statement keeps its lines,
/// every other field is one line.
pub(crate) fn paste(state: &mut State, text: &str) -> Vec<Effect> {
    let Some(b) = view(state).and_then(|v| v.modal.as_mut().and_then(Modal::query_form_mut)) else {
        return Vec::new();
    };
    let field = b.focus;
    let multi_line = field == Field::Statement;
    if let Some(input) = b.input_mut(field) {
        if crate::app::text_input::paste_area(input, text, multi_line) {
            edited(b, field);
        }
    }
    refresh(state);
    // Pasting, like typing, reads nothing.
    Vec::new()
}

/// After a change to `field`'s text: completions show again. Typing reads nothing.
fn edited(b: &mut QueryForm, field: Field) {
    b.history_cursor = None;
    b.pql.explain_scroll = 0;
    b.completion_dismissed = false;
    b.pql.confirming = false;
    if matches!(field, Field::Pk | Field::PkAt(_)) {
        b.generation += 1;
    }
}

fn cursor_at_end(b: &QueryForm) -> bool {
    b.input(b.focus).is_some_and(|input| {
        let ratatui_textarea::DataCursor(row, col) = input.cursor();
        let lines = input.lines();
        row + 1 >= lines.len() && col >= lines.get(row).map_or(0, |l| l.chars().count())
    })
}

fn accept(b: &mut QueryForm) {
    let Some(c) = b.completion.take() else {
        return;
    };
    let value = c.items[c.selected].clone();
    b.set_text(c.field, &value);
}

fn run_query_form(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(b) = v.modal.as_ref().and_then(Modal::query_form) else {
        return Vec::new();
    };
    let prepared = match &b.check {
        Ok(q) => q.clone(),
        Err(e) => {
            state.notice = Some(Notice {
                text: format!("{}: {}", e.field.label(), e.message),
                error: true,
            });
            return Vec::new();
        }
    };
    let entry = b.history_entry();
    let table = v.name.clone();
    v.view.index = prepared.spec.index.clone();
    v.modal = None;
    state.notice = None;
    let save = remember(state, &table, entry);
    let mut effects: Vec<Effect> = save.into_iter().collect();
    effects.extend(start_read(state, prepared.spec, ReadOrigin::Plain));
    effects
}
