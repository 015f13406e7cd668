//! The query form in PartiQL mode: the statement across the top, the parser's one-line error
//! (or the scan's confirmation) under it, and EXPLAIN below: the headline, filter and requests
//! as sent, then the chosen dialect.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::query_form::{sanitized_copy, LABEL};
use super::query_form_popup::draw_completions;
use super::theme;
use crate::app::state::{PartiqlCheck, QueryForm};
use crate::model::capacity::format_units;
use crate::model::sanitize::sanitize;

pub(super) fn draw_partiql(frame: &mut Frame, inner: Rect, b: &QueryForm) {
    let [field, status, explain] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Min(0),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!("{:<LABEL$}", "statement"),
            theme::kind_style("KEY"),
        )),
        field,
    );
    let input = Rect {
        x: field.x + LABEL as u16,
        width: field.width.saturating_sub(LABEL as u16),
        ..field
    };
    let mut area = sanitized_copy(&b.statement);
    area.set_cursor_line_style(Style::new());
    area.set_cursor_style(theme::selected());
    frame.render_widget(&area, input);

    let indent = " ".repeat(LABEL);
    let line = match (&b.pql, b.confirming) {
        (PartiqlCheck::Ready(r), true) if r.scan_rcu.is_some() => Line::styled(
            format!(
                "{indent}⚠ Enter again runs this Scan of the whole table or index — estimated {} RCU — under the capacity guards; an edit or Esc cancels",
                format_units(r.scan_rcu.unwrap_or_default())
            ),
            theme::warning(),
        ),
        (PartiqlCheck::Ready(r), _) if r.scan_rcu.is_some() => Line::styled(
            format!("{indent}⚠ scan-shaped: Enter shows its estimate and asks before it runs"),
            theme::warning(),
        ),
        (PartiqlCheck::Ready(_), _) => Line::styled(format!("{indent}✓ runs as EXPLAIN shows"), theme::dim()),
        (other, _) => Line::styled(
            format!("{indent}✗ {}", sanitize(other.problem().unwrap_or_default())),
            theme::error(),
        ),
    };
    frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: false }), status);

    frame.render_widget(
        Paragraph::new(explain_lines(b))
            .wrap(Wrap { trim: false })
            .block(
                Block::bordered()
                    .title(" EXPLAIN: what the statement reads, before anything is sent ")
                    .border_style(theme::border(false)),
            ),
        explain,
    );
    // Drawn last: the completions drop over EXPLAIN.
    if let Some(c) = &b.completion {
        draw_completions(frame, inner, input, c);
    }
}

fn explain_lines(b: &QueryForm) -> Vec<Line<'static>> {
    let r = match &b.pql {
        PartiqlCheck::Ready(r) => r,
        other => {
            return vec![
                Line::styled("Not sendable:", theme::error()),
                Line::raw(sanitize(other.problem().unwrap_or_default()).into_owned()),
            ]
        }
    };
    let mut lines = Vec::new();
    for (i, text) in r.head.iter().enumerate() {
        let text = sanitize(text).into_owned();
        lines.push(match i {
            0 if r.scan_rcu.is_some() => Line::styled(text, theme::warning()),
            0 => Line::styled(text, Style::new().add_modifier(Modifier::BOLD)),
            _ => Line::raw(text),
        });
    }
    lines.push(Line::raw(""));
    let chosen = b.dialect.min(r.dialects.len().saturating_sub(1));
    let mut tabs = vec![Span::styled(
        "Dialects (Ctrl-T next, Ctrl-Y copies): ",
        theme::dim(),
    )];
    for (i, (name, _)) in r.dialects.iter().enumerate() {
        if i > 0 {
            tabs.push(Span::styled(" · ", theme::dim()));
        }
        let style = if i == chosen {
            theme::selected()
        } else {
            Style::new()
        };
        tabs.push(Span::styled(name.to_string(), style));
    }
    lines.push(Line::from(tabs));
    if let Some((name, text)) = r.dialects.get(chosen) {
        lines.push(Line::styled(format!("── {name} ──"), theme::header()));
        lines.extend(
            text.trim_end()
                .lines()
                .map(|l| Line::raw(sanitize(l).into_owned())),
        );
    }
    lines
}
