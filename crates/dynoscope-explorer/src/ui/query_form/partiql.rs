//! The query form in PartiQL mode: the statement across the top, the parser's one-line error
//! (or the scan's confirmation) under it, and EXPLAIN below: the headline, filter and requests
//! as sent, then the chosen dialect.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::popup::draw_completions;
use super::{sanitized_copy, LABEL};
use crate::app::state::{Field, PartiqlCheck, QueryForm, DIALECT_TABS};
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::capacity::format_units;
use crate::ui::theme;
use unicode_width::UnicodeWidthChar;

pub(super) fn draw_partiql(frame: &mut Frame, inner: Rect, b: &QueryForm) {
    let [field, params, status, explain] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Min(0),
    ])
    .areas(inner);
    let statement = draw_input(frame, field, b, Field::Statement, "");
    let parameters = draw_input(
        frame,
        params,
        b,
        Field::Parameters,
        "JSON array, one value per ? — e.g. [\"USER#1\", 5] (Tab)",
    );

    let indent = " ".repeat(LABEL);
    let line = match (&b.pql.check, b.pql.confirming) {
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

    let block = Block::bordered()
        .title(" EXPLAIN: what the statement reads, before anything is sent ")
        .border_style(theme::border(false));
    let room = block.inner(explain);
    // Wrapped here, not by the Paragraph, so the rows drawn are the rows `update` counts
    // for PgUp/PgDn (`QueryForm::explain_rows`); only the visible slice is drawn.
    let rows: Vec<Line> = explain_lines(b)
        .into_iter()
        .flat_map(|l| wrap_line(l, room.width as usize))
        .collect();
    let total = rows.len();
    let visible = room.height as usize;
    let first = b.pql.explain_scroll.min(total.saturating_sub(visible));
    let block = if total > visible {
        block.title_bottom(format!(
            " rows {}–{} of {total} · PgUp/PgDn scroll ",
            first + 1,
            (first + visible).min(total)
        ))
    } else {
        block
    };
    let shown: Vec<Line> = rows.into_iter().skip(first).take(visible).collect();
    frame.render_widget(Paragraph::new(shown).block(block), explain);
    // Drawn last: the completions drop over EXPLAIN.
    if let Some(c) = &b.completion {
        let under = if c.field == Field::Parameters {
            parameters
        } else {
            statement
        };
        draw_completions(frame, inner, under, Some(c), None);
    }
}

/// One labelled line of input; the cursor shows on the focused one, a dim hint on an empty
/// one. Returns where the text is drawn (the completions drop from it).
fn draw_input(frame: &mut Frame, row: Rect, b: &QueryForm, field: Field, hint: &str) -> Rect {
    let focused = b.focus == field;
    let label_style = if focused {
        theme::kind_style("KEY")
    } else {
        theme::dim()
    };
    frame.render_widget(
        Paragraph::new(Line::styled(
            format!("{:<LABEL$}", field.label()),
            label_style,
        )),
        row,
    );
    let input = Rect {
        x: row.x + LABEL as u16,
        width: row.width.saturating_sub(LABEL as u16),
        ..row
    };
    let Some(text) = b.input(field) else {
        return input;
    };
    if !focused && text.is_empty() {
        frame.render_widget(
            Paragraph::new(Line::styled(hint.to_string(), theme::dim())),
            input,
        );
        return input;
    }
    let mut area = sanitized_copy(text);
    area.set_cursor_line_style(Style::new());
    area.set_cursor_style(if focused {
        theme::selected()
    } else {
        Style::new()
    });
    frame.render_widget(&area, input);
    input
}

/// EXPLAIN's lines styled: the headline bold (a scan's as a warning), the chosen dialect
/// highlighted among the names, the dialect's title as a header. The text is
/// `QueryForm::explain_texts`' to the letter, so `update` counts the same rows.
fn explain_lines(b: &QueryForm) -> Vec<Line<'static>> {
    let texts = b.explain_texts();
    let Some(r) = b.pql.check.ready() else {
        let mut texts = texts.into_iter();
        let head = texts.next().unwrap_or_default();
        return std::iter::once(Line::styled(head, theme::error()))
            .chain(texts.map(Line::raw))
            .collect();
    };
    let tabs_at = r.head.len() + 1;
    texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| match i {
            0 if r.scan_rcu.is_some() => Line::styled(text, theme::warning()),
            0 => Line::styled(text, Style::new().add_modifier(Modifier::BOLD)),
            i if i == tabs_at => dialect_tabs(b),
            i if i == tabs_at + 1 => Line::styled(text, theme::header()),
            _ => Line::raw(text),
        })
        .collect()
}

fn dialect_tabs(b: &QueryForm) -> Line<'static> {
    let chosen = b.chosen_dialect();
    let mut tabs = vec![Span::styled(DIALECT_TABS, theme::dim())];
    for (i, (name, _)) in b
        .pql
        .check
        .ready()
        .into_iter()
        .flat_map(|r| &r.dialects)
        .enumerate()
    {
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
    Line::from(tabs)
}

/// `line` cut into rows of `width` columns where `model::text::wrap::row_starts` cuts its text,
/// each piece keeping its span's style.
fn wrap_line(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let (mut rows, mut row, mut used) = (Vec::new(), Vec::new(), 0);
    for span in line.spans {
        let mut piece = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > width && used > 0 {
                if !piece.is_empty() {
                    row.push(Span::styled(std::mem::take(&mut piece), span.style));
                }
                rows.push(Line::from(std::mem::take(&mut row)).style(line.style));
                used = 0;
            }
            piece.push(c);
            used += w;
        }
        if !piece.is_empty() {
            row.push(Span::styled(piece, span.style));
        }
    }
    rows.push(Line::from(row).style(line.style));
    rows
}
