//! The help overlay, generated from the keymap so it always tells the truth: as wide as the
//! terminal, descriptions wrapped beside their keys, scrolled by `update`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::help::{help_lines, keys_width};
use crate::app::layout::{help_popup, list_rows};
use crate::app::state::State;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let popup = help_popup(area);
    let lines = help_lines(&state.keymap, popup.width.saturating_sub(2) as usize);
    let rows = list_rows(popup);
    let scroll = state
        .help_scroll()
        .unwrap_or(0)
        .min(lines.len().saturating_sub(rows));
    let keys = keys_width(&state.keymap);
    let shown: Vec<Line> = lines
        .iter()
        .skip(scroll)
        .take(rows)
        .map(|line| {
            if line.note {
                Line::styled(line.text.clone(), theme::dim())
            } else {
                Line::from(vec![
                    Span::styled(format!("{:>keys$}  ", line.keys), theme::kind_style("KEY")),
                    Span::raw(line.text.clone()),
                ])
            }
        })
        .collect();
    let more = if lines.len() > rows {
        format!(
            " {}–{} of {} · ↑↓ PgUp PgDn scroll ",
            scroll + 1,
            (scroll + rows).min(lines.len()),
            lines.len()
        )
    } else {
        String::new()
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(shown).block(
            Block::bordered()
                .title(" Keys · any other key closes ")
                .title_bottom(more)
                .border_style(theme::border(true)),
        ),
        popup,
    );
}
