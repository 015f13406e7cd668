//! The query form's completion popup: under the field being typed (above it when there is more
//! room there), each completion with the loaded keys behind it.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::Completion;
use crate::model::completion::{differing_part, shared_prefix};
use crate::model::sanitize::{display_width, sanitize};

/// Draws `c` within `column` next to the row of `field`.
pub(super) fn draw_completions(frame: &mut Frame, column: Rect, field: Rect, c: &Completion) {
    let wanted = c.items.len() as u16 + 2;
    let below = column.bottom().saturating_sub(field.bottom());
    let above = field.y.saturating_sub(column.y);
    let rect = if below >= wanted || below >= above {
        Rect {
            y: field.bottom(),
            height: wanted.min(below),
            ..field
        }
    } else {
        let height = wanted.min(above);
        Rect {
            y: field.y - height,
            height,
            ..field
        }
    };
    if rect.height < 3 {
        return;
    }
    let inner = rect.width.saturating_sub(2) as usize;
    let shown: Vec<String> = c.items.iter().map(|i| sanitize(i).into_owned()).collect();
    // What every completion listed starts with: a long one gives up that part first.
    let shared = shown
        .iter()
        .fold(shown.first().map_or(0, String::len), |n, s| {
            n.min(shared_prefix(&shown[0], s))
        });
    let items: Vec<Line> = shown
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let style = if i == c.selected {
                theme::selected()
            } else {
                Style::new()
            };
            // The loaded keys behind a key completion, right-aligned.
            let count = c.counts.get(i).map(|n| format!(" {n}")).unwrap_or_default();
            let room = inner.saturating_sub(display_width(&count));
            let text = differing_part(item, shared, room).into_owned();
            let pad = room.saturating_sub(display_width(&text));
            Line::from(vec![
                Span::raw(text),
                Span::raw(" ".repeat(pad)),
                Span::styled(count, theme::dim()),
            ])
            .style(style)
        })
        .collect();
    let order = if c.counts.is_empty() {
        String::new()
    } else {
        format!(" {} · Ctrl-O ", c.order.label())
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(items).block(
            Block::bordered()
                .title(" Tab/→ accepts ")
                .title_bottom(order)
                .border_style(theme::warning()),
        ),
        rect,
    );
}
