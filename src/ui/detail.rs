//! One item as colourised JSON, with its size against the 400 KB limit.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::bytes;
use super::json_view::item_lines;
use super::theme;
use crate::app::layout::{list_rows, split_related};
use crate::app::state::{JsonMode, Pane, TableView};
use crate::model::item_size::share_of_limit;

/// The related collections above the item's JSON.
pub(super) fn draw_detail(frame: &mut Frame, area: Rect, view: &TableView) {
    let [related, json] = split_related(area, view.related.links.len());
    super::related::draw_related(frame, related, view);
    draw_json(frame, json, view);
}

fn draw_json(frame: &mut Frame, area: Rect, view: &TableView) {
    let focused = view.focus == Pane::Detail;
    let (Some(store), Some(id)) = (view.store.as_ref(), view.selected_item()) else {
        frame.render_widget(
            Block::bordered()
                .title(" Item ")
                .border_style(theme::border(focused)),
            area,
        );
        return;
    };
    let size = store.item_size(id);
    let mode = match view.json_mode {
        JsonMode::Plain => "plain JSON · t: DynamoDB JSON",
        JsonMode::Dynamo => "DynamoDB JSON · t: plain JSON",
    };
    let title = format!(
        " Item · {} ({:.2}% of 400 KB) · {} · y copies ",
        bytes(size as u64),
        share_of_limit(size) * 100.0,
        mode
    );
    let lines = item_lines(&store.item(id), view.json_mode);
    let rows = list_rows(area);
    let scroll = view.detail_scroll.min(lines.len().saturating_sub(rows));
    let visible: Vec<Line> = lines.into_iter().skip(scroll).take(rows).collect();
    frame.render_widget(
        Paragraph::new(visible).block(
            Block::bordered()
                .title(title)
                .border_style(theme::border(focused)),
        ),
        area,
    );
}
