//! The query form's completion popup: under the field being typed (above it when there is more
//! room there), each completion with the loaded keys behind it.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use crate::app::state::Completion;
use crate::model::query::completion::{differing_part, shared_prefix};
use crate::model::text::sanitize::{display_width, sanitize};
use crate::ui::theme;

/// Draws `c` within `column` next to the row of `field`, and below them `offer`: the one action
/// in the form that reads (a priced key sample).
pub(super) fn draw_completions(
    frame: &mut Frame,
    column: Rect,
    field: Rect,
    c: Option<&Completion>,
    offer: Option<&str>,
) {
    let empty = Completion {
        field: crate::app::state::Field::Pk,
        items: Vec::new(),
        counts: Vec::new(),
        order: Default::default(),
        selected: 0,
    };
    let c = c.unwrap_or(&empty);
    let wanted = (c.items.len() + usize::from(offer.is_some())) as u16 + 2;
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
    // The sample action is wider than most keys: the popup grows leftwards over the labels.
    let needed = offer.map_or(0, |o| display_width(o) as u16 + 2);
    let rect = if rect.width < needed {
        let width = needed.min(column.width);
        Rect {
            x: field
                .x
                .min(column.right().saturating_sub(width))
                .max(column.x),
            width,
            ..rect
        }
    } else {
        rect
    };
    let inner = rect.width.saturating_sub(2) as usize;
    let shown: Vec<String> = c.items.iter().map(|i| sanitize(i).into_owned()).collect();
    // What every completion listed starts with: a long one gives up that part first.
    let shared = shown
        .iter()
        .fold(shown.first().map_or(0, String::len), |n, s| {
            n.min(shared_prefix(&shown[0], s))
        });
    let mut items: Vec<Line> = shown
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
    if let Some(offer) = offer {
        items.push(Line::styled(offer.to_string(), theme::dim()));
    }
    let order = if c.counts.is_empty() {
        String::new()
    } else {
        format!(" {} · Ctrl-O ", c.order.label())
    };
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(items).block(
            Block::bordered()
                .title(if c.items.is_empty() {
                    " no loaded key matches "
                } else {
                    " Tab/→ accepts "
                })
                .title_bottom(order)
                .border_style(theme::warning()),
        ),
        rect,
    );
}
