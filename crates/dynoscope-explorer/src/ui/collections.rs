//! The item collections of the loaded items: key, count, size and entity kinds.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::{bytes, thousands};
use super::theme;
use crate::app::layout::list_rows;
use crate::app::state::{OpenTable, Pane};
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

pub(super) fn draw_collections(frame: &mut Frame, area: Rect, view: &OpenTable) {
    let focused = view.view.focus == Pane::Collections;
    let total = view.view.collection_count();
    let key_name = view
        .view
        .store
        .as_ref()
        // A multi-attribute index's collections are tuples: every partition attribute, in order.
        .map(|s| {
            let names: Vec<&str> = s
                .group_keys()
                .partition()
                .iter()
                .map(|k| k.name.as_str())
                .collect();
            names.join(" + ")
        })
        .unwrap_or_default();
    // The order on the bottom border: the top one is full at the usual widths.
    let block = Block::bordered()
        .title(format!(
            " Collections by {} ({}) ",
            sanitize(&key_name),
            thousands(total as u64)
        ))
        .title_bottom(format!(" {} · o ", view.view.ordering.order().label()))
        .border_style(theme::border(focused));
    let Some(store) = view.view.store.as_ref() else {
        frame.render_widget(Paragraph::new("").block(block), area);
        return;
    };
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    if total == 0 {
        let text = match (&view.view.read, view.view.filter.is_empty()) {
            (Some(r), _) if r.running => "loading…",
            (_, false) => "nothing matches the filter",
            _ => "no items",
        };
        lines.push(Line::styled(text, theme::dim()));
    }
    for n in (view.view.collections.offset..total).take(list_rows(area)) {
        let Some(c) = view.view.collection_at(n) else {
            break;
        };
        let collection = &store.collections()[c];
        let mut spans = Vec::new();
        let count = format!(
            " {} · {}",
            thousands(collection.items.len() as u64),
            bytes(collection.bytes as u64)
        );
        let key_room = width.saturating_sub(display_width(&count) + 1);
        spans.push(Span::raw(
            truncate_display(&sanitize(&collection.key), key_room).into_owned(),
        ));
        spans.push(Span::styled(count, theme::dim()));
        for (kind, _) in collection.kinds.iter().take(3) {
            let name = store.kind_name(*kind);
            spans.push(Span::raw(" "));
            spans.push(Span::styled(
                sanitize(name).into_owned(),
                theme::kind_style(name),
            ));
        }
        let mut line = Line::from(spans);
        if n == view.view.collections.cursor {
            line = line.style(if focused {
                theme::selected()
            } else {
                theme::dim().add_modifier(ratatui::style::Modifier::REVERSED)
            });
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
