//! The palette (`Ctrl-P`; `P` shows its access patterns only): what is typed, then the
//! visible slice of the rows that match it, each its description, its keys, and, greyed, why it
//! does nothing here; or the chosen pattern's parameter form. Pattern names and descriptions
//! come from the config file and pass the sanitiser.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::query_form::LABEL;
use super::theme;
use crate::app::layout::{palette_popup, palette_rows};
use crate::app::state::{Palette, PaletteEntry, PaletteRow, PaletteScope, ParamForm, State};
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

/// The widest the keys column gets; longer key lists are cut.
const KEYS_WIDTH: usize = 16;

pub fn draw_palette(frame: &mut Frame, area: Rect, palette: &Palette, state: &State) {
    let outer = palette_popup(area);
    frame.render_widget(Clear, outer);
    let lines = match &palette.form {
        None => list_lines(palette, state, outer),
        Some(form) => form_lines(form, state),
    };
    let title = match palette.scope {
        PaletteScope::Everything => " Actions ",
        PaletteScope::Patterns => " Access patterns ",
    };
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title)
                .title_bottom(super::palette_check::hint(palette))
                .border_style(theme::border(true)),
        ),
        outer,
    );
}

/// The typed line, a count, then the rows on screen.
fn list_lines(palette: &Palette, state: &State, outer: Rect) -> Vec<Line<'static>> {
    let width = outer.width.saturating_sub(2) as usize;
    let height = palette_rows(outer);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("› ", theme::dim()),
            Span::raw(sanitize(&palette.query).into_owned()),
            Span::styled("█", theme::dim()),
        ]),
        Line::styled(
            match palette.rows.len() {
                0 => "nothing matches what is typed (Backspace widens it)".to_string(),
                1 => "1 match".to_string(),
                n => format!("{n} matches"),
            },
            theme::dim(),
        ),
    ];
    // The cursor on screen even if the terminal shrank since `update` placed the window.
    let cursor = palette.list.cursor;
    let mut offset = palette.list.offset.min(cursor);
    if cursor >= offset + height {
        offset = cursor + 1 - height;
    }
    let visible = palette.rows.iter().enumerate().skip(offset).take(height);
    for (n, row) in visible {
        lines.push(row_line(row, state, width, n == cursor));
    }
    lines
}

/// `description … reason      keys`, greyed when it does not apply here.
fn row_line(row: &PaletteRow, state: &State, width: usize, selected: bool) -> Line<'static> {
    let keys = truncate_display(&row.keys, KEYS_WIDTH).into_owned();
    let keys_width = display_width(&keys);
    let text_width = width.saturating_sub(keys_width + 2);
    let greyed = row.unavailable.is_some();
    let mut spans = Vec::new();
    let mut used = 0;
    let mut push = |spans: &mut Vec<Span<'static>>, text: String, style: Style| {
        let text = truncate_display(&text, text_width.saturating_sub(used)).into_owned();
        used += display_width(&text);
        spans.push(Span::styled(text, style));
    };
    let style = if greyed { theme::dim() } else { Style::new() };
    push(&mut spans, sanitize(&row.label).into_owned(), style);
    if let PaletteEntry::Pattern(i) = row.entry {
        if let Some(check) = super::palette_check::check_span(state, &state.patterns[i].name) {
            let check_style = check.style;
            push(
                &mut spans,
                format!(" {}", check.content.trim_end()),
                check_style,
            );
        }
    }
    if !row.detail.is_empty() {
        push(
            &mut spans,
            format!(" · {}", sanitize(&row.detail)),
            theme::dim(),
        );
    }
    if let Some(why) = &row.unavailable {
        push(&mut spans, format!(" — {why}"), theme::dim());
    }
    let pad = width.saturating_sub(used + keys_width);
    spans.push(Span::raw(" ".repeat(pad)));
    spans.push(Span::styled(keys, style));
    let line = Line::from(spans);
    if selected {
        line.style(theme::selected())
    } else {
        line
    }
}

fn form_lines(form: &ParamForm, state: &State) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let pattern = &state.patterns[form.pattern];
    lines.push(Line::styled(
        sanitize(&format!("{} · {}", pattern.name, pattern.pk_display())).into_owned(),
        theme::header(),
    ));
    for (i, (name, input)) in form.params.iter().enumerate() {
        let focused = i == form.focus;
        let mut spans = vec![
            Span::styled(
                format!("{name:<LABEL$}"),
                if focused {
                    theme::kind_style("KEY")
                } else {
                    theme::dim()
                },
            ),
            Span::raw(sanitize(&input.lines().join("")).into_owned()),
        ];
        if focused {
            spans.push(Span::styled("█", theme::dim()));
        }
        lines.push(Line::from(spans));
        if focused {
            for (j, c) in form.completion.iter().enumerate() {
                let style = if j == form.selected {
                    theme::selected()
                } else {
                    theme::warning()
                };
                let count = match form.completion_counts.get(j).copied().unwrap_or(0) {
                    1 => "1 key".to_string(),
                    n => format!("{n} keys"),
                };
                lines.push(Line::styled(
                    format!("{:LABEL$}{}  ({count})", "", sanitize(c)),
                    style,
                ));
            }
            if !form.completion.is_empty() {
                lines.push(Line::styled(
                    format!(
                        "{:LABEL$}{} · Ctrl-O toggles",
                        "",
                        state.queries.completion_order.label()
                    ),
                    theme::dim(),
                ));
            }
        }
    }
    if let Some(e) = &form.error {
        lines.push(Line::styled(sanitize(e).into_owned(), theme::error()));
    }
    lines
}
