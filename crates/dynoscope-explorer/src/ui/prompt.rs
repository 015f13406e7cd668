//! A one-line prompt drawn over the view.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::Prompt;
use crate::model::text::sanitize::sanitize;

pub(super) fn draw_prompt(frame: &mut Frame, area: Rect, title: &str, prompt: &Prompt) {
    let width = 70.min(area.width);
    let error = prompt.error.as_deref().map_or_else(Vec::new, |e| {
        super::dialog::message(e, "", usize::from(width.saturating_sub(2)), theme::error())
    });
    let height = (3 + error.len() as u16).min(area.height);
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let mut lines = vec![Line::from(vec![
        Span::raw(sanitize(&prompt.text).into_owned()),
        Span::styled("█", theme::dim()),
    ])];
    lines.extend(error);
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title.to_string())
                .title_bottom(" Enter runs · Esc closes ")
                .border_style(theme::border(true)),
        ),
        popup,
    );
}
