//! The help overlay, generated from the keymap so it always tells the truth. When the
//! bindings do not fit in one column (a short terminal), they are laid out in two.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::keymap::HelpRow;
use crate::app::state::State;
use crate::model::sanitize::{display_width, truncate_display};

/// Lines besides the bindings: the blank line, three notes and the borders.
const EXTRA_LINES: usize = 7;

fn cells(row: &HelpRow, keys_width: usize, help_width: usize) -> Vec<Span<'static>> {
    let help = truncate_display(&row.help, help_width).into_owned();
    let pad = help_width.saturating_sub(display_width(&help));
    vec![
        Span::styled(
            format!("{:>keys_width$}  ", row.keys),
            theme::kind_style("KEY"),
        ),
        Span::raw(format!("{help}{}", " ".repeat(pad))),
    ]
}

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let rows = state.keymap.help_rows();
    let two_columns = rows.len() + EXTRA_LINES > area.height as usize && area.width >= 90;
    let (width, mut lines) = if two_columns {
        let width = area.width.min(140);
        let column = (width as usize - 4) / 2;
        let keys_width = 12;
        let help_width = column.saturating_sub(keys_width + 3);
        let half = rows.len().div_ceil(2);
        let lines: Vec<Line> = (0..half)
            .map(|i| {
                let mut spans = cells(&rows[i], keys_width, help_width);
                if let Some(right) = rows.get(i + half) {
                    spans.push(Span::raw(" "));
                    spans.extend(cells(right, keys_width, help_width));
                }
                Line::from(spans)
            })
            .collect();
        (width, lines)
    } else {
        let lines = rows
            .iter()
            .map(|row| {
                Line::from(vec![
                    Span::styled(format!("{:>16}  ", row.keys), theme::kind_style("KEY")),
                    Span::raw(row.help.clone()),
                ])
            })
            .collect();
        (64.min(area.width), lines)
    };
    let height = (lines.len() as u16 + EXTRA_LINES as u16).min(area.height);
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Table picker: type to filter, Enter opens, Esc quits. Mouse wheel scrolls.",
        theme::dim(),
    ));
    lines.push(Line::styled(
        "Ctrl-C quits and Ctrl-Z suspends (fg resumes), from anywhere.",
        theme::dim(),
    ));
    lines.push(Line::styled("Any key closes this help.", theme::dim()));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(" Keys ")
                .border_style(theme::border(true)),
        ),
        popup,
    );
}
