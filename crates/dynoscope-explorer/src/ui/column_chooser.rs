//! The column chooser (`C`): the pinned columns, then one row per attribute (shown or hidden,
//! how many items have it) in the order the columns go, and the entry back to automatic
//! columns; the keys on the last lines.

use ratatui::layout::{Constraint, Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::format::thousands;
use super::theme;
use crate::app::column_choice::ColumnChooser;
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};
use crate::model::text::wrap::word_wrap;

const RESET: &str = "↺ automatic columns (forget this choice)";
const KEYS: &str = "Space show/hide · [ ] or Shift-↑/↓ move · Enter apply · Esc cancel";

fn title(chooser: &ColumnChooser) -> String {
    let scope = &chooser.scope;
    let mut title = format!(" Columns of {}", scope.table);
    if let Some(index) = &scope.index {
        title.push_str(&format!(" ({index})"));
    }
    match &scope.kind {
        Some(kind) => title.push_str(&format!(" · kind {kind} ")),
        None => title.push_str(" · every kind "),
    }
    sanitize(&title).into_owned()
}

/// Which items the counts are of.
fn counted(chooser: &ColumnChooser) -> String {
    let of = if chooser.counted < chooser.loaded {
        format!(
            "the first {} of {} loaded items",
            thousands(chooser.counted as u64),
            thousands(chooser.loaded as u64)
        )
    } else {
        format!("{} loaded items", thousands(chooser.loaded as u64))
    };
    let unlisted = match chooser.unlisted {
        0 => String::new(),
        n => format!("; {} rarer attributes not listed", thousands(n as u64)),
    };
    format!("items with each attribute, of {of}{unlisted}")
}

pub fn draw_column_chooser(frame: &mut Frame, area: Rect, chooser: &ColumnChooser) {
    let width = area.width.saturating_sub(4).min(72);
    let inner_width = width.saturating_sub(2) as usize;
    let pinned = format!("pinned first: {}", sanitize(&chooser.pinned.join(" · ")));
    let above: Vec<String> = word_wrap(&pinned, inner_width)
        .into_iter()
        .chain(word_wrap(&counted(chooser), inner_width))
        .collect();
    let below = word_wrap(KEYS, inner_width);
    // The lines above, a row per attribute and the reset entry, a blank line and the keys.
    let wanted = above.len() + chooser.rows.len() + 1 + 1 + below.len() + 2;
    let height = (wanted as u16).min(area.height.saturating_sub(2));
    let rect = area.centered(Constraint::Length(width), Constraint::Length(height));
    frame.render_widget(Clear, rect);
    let inner = rect.inner(Margin::new(1, 1));
    let rows = (inner.height as usize)
        .saturating_sub(above.len() + below.len() + 1)
        .max(1);
    // The highlighted row stays in view.
    let first = chooser.cursor.saturating_sub(rows - 1);
    let count_width = 9;
    let name_width = inner_width.saturating_sub(8 + count_width);
    let mut lines: Vec<Line> = above
        .into_iter()
        .map(|l| Line::styled(l, theme::dim()))
        .collect();
    let entries = chooser.rows.len() + 1;
    for i in (first..entries).take(rows) {
        let selected = i == chooser.cursor;
        let pointer = if selected { "▶ " } else { "  " };
        let line = match chooser.rows.get(i) {
            Some(row) => {
                let mut label = sanitize(&row.name).into_owned();
                // Its values are in a part column already.
                if row.in_part {
                    label.push_str(" (in a part column)");
                }
                let name = truncate_display(&label, name_width);
                let pad = name_width.saturating_sub(display_width(&name));
                let text = format!(
                    "{pointer}[{}] {name}{} {:>count_width$}",
                    if row.shown { "x" } else { " " },
                    " ".repeat(pad),
                    thousands(row.count as u64),
                );
                let style = match (selected, row.shown) {
                    (true, _) => theme::selected(),
                    (false, true) => ratatui::style::Style::default(),
                    (false, false) => theme::dim(),
                };
                Line::styled(text, style)
            }
            None => Line::styled(
                format!("{pointer}{RESET}"),
                if selected {
                    theme::selected()
                } else {
                    theme::header()
                },
            ),
        };
        lines.push(line);
    }
    lines.push(Line::raw(""));
    lines.extend(below.into_iter().map(|l| Line::styled(l, theme::dim())));
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title(chooser))
                .border_style(theme::border(true)),
        ),
        rect,
    );
}
