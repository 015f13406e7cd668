//! A one-line prompt drawn over the view.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::Prompt;
use crate::model::sanitize::sanitize;

pub(super) fn draw_prompt(frame: &mut Frame, area: Rect, title: &str, prompt: &Prompt) {
    let width = 70.min(area.width);
    let height = if prompt.error.is_some() { 4 } else { 3 };
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let mut lines = vec![Line::from(vec![
        Span::raw(sanitize(&prompt.text).into_owned()),
        Span::styled("█", theme::dim()),
    ])];
    if let Some(e) = &prompt.error {
        lines.push(Line::styled(sanitize(e).into_owned(), theme::error()));
    }
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
