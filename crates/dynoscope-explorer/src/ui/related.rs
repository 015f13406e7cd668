//! The related collections above the item detail: what `g r` or Enter opens.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::layout::list_rows;
use crate::app::state::{OpenTable, Pane};
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

pub(super) fn draw_related(frame: &mut Frame, area: Rect, view: &OpenTable) {
    if area.height == 0 {
        return;
    }
    let focused = view.view.focus == Pane::Related;
    let related = &view.view.related;
    let title = format!(
        " Related ({}) · g r or Enter opens · Backspace back{} ",
        related.links.len(),
        match view.visited.len() {
            0 => String::new(),
            n => format!(" ({n})"),
        }
    );
    let block = Block::bordered()
        .title(title)
        .border_style(theme::border(focused));
    if related.links.is_empty() {
        let text = Line::styled(
            "none: no value names a collection seen in this table",
            theme::dim(),
        );
        frame.render_widget(Paragraph::new(text).block(block), area);
        return;
    }
    let width = area.width.saturating_sub(2) as usize;
    let lines: Vec<Line> = related
        .links
        .iter()
        .enumerate()
        .skip(related.list.offset)
        .take(list_rows(area))
        .map(|(n, link)| {
            let target = link.index.as_deref().unwrap_or("table");
            let why = format!(
                "  {} · {}",
                sanitize(target),
                sanitize(&link.evidence.describe(&link.attribute))
            );
            let room = width.saturating_sub(display_width(&why) + 2);
            let marker = if n == related.list.cursor {
                "▸ "
            } else {
                "  "
            };
            let mut line = Line::from(vec![
                Span::raw(marker),
                Span::raw(truncate_display(&sanitize(&link.key), room).into_owned()),
                Span::styled(why, theme::dim()),
            ]);
            if n == related.list.cursor && focused {
                line = line.style(theme::selected());
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
