//! The help overlay, generated from the keymap so it always tells the truth.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::State;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let rows = state.keymap.help_rows();
    let width = 64.min(area.width);
    let height = (rows.len() as u16 + 8).min(area.height);
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let mut lines: Vec<Line> = rows
        .iter()
        .map(|row| {
            Line::from(vec![
                Span::styled(format!("{:>16}  ", row.keys), theme::kind_style("KEY")),
                Span::raw(row.help.clone()),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "Table picker: type to filter, Enter opens, Esc quits. Mouse wheel scrolls.",
        theme::dim(),
    ));
    lines.push(Line::styled(
        "Live pane (W): 1/5/t window, Tab ranking, f follow, p/space pause, Enter change, Esc close.",
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
