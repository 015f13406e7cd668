//! The region (`R`) or profile (`A`) switcher: the choices, filtered as the user types.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::{State, SwitchKind, SWITCHER_ROWS};
use crate::model::text::sanitize::sanitize;

const ROWS: u16 = SWITCHER_ROWS as u16;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let Some(switcher) = state.switcher() else {
        return;
    };
    let choices = state.session.choices(switcher);
    let popup = area.centered(
        Constraint::Length(48.min(area.width)),
        Constraint::Length((ROWS + 4).min(area.height)),
    );
    let (title, current) = match switcher.kind {
        SwitchKind::Region => (
            " Switch region · Enter connects · Esc ",
            &state.session.region,
        ),
        SwitchKind::Profile => (
            " Switch profile · Enter connects · Esc ",
            &state.session.profile,
        ),
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", theme::dim()),
        Span::raw(sanitize(&switcher.filter).into_owned()),
        Span::styled("█", theme::dim()),
    ])];
    if choices.is_empty() {
        let hint = match switcher.kind {
            SwitchKind::Region => "none listed; Enter uses the typed name if it is a region",
            SwitchKind::Profile => "no profile matches",
        };
        lines.push(Line::styled(hint, theme::dim()));
    }
    for (i, choice) in choices
        .iter()
        .enumerate()
        .skip(switcher.list.offset)
        .take(ROWS as usize)
    {
        let mark = if *choice == current.as_str() {
            " (now)"
        } else {
            ""
        };
        let line = Line::from(vec![
            Span::raw(sanitize(choice).into_owned()),
            Span::styled(mark, theme::dim()),
        ]);
        lines.push(if i == switcher.list.cursor {
            line.style(theme::selected())
        } else {
            line
        });
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(title)
                .border_style(theme::border(true)),
        ),
        popup,
    );
}
