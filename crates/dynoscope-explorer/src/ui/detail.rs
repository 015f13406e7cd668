//! One item as colourised JSON, with its size against the 400 KB limit.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::bytes;
use super::json_view::item_lines;
use super::theme;
use crate::app::layout::{list_rows, split_related};
use crate::app::state::{JsonMode, OpenTable, Pane};
use crate::model::item::item_size::share_of_limit;
use crate::model::text::sanitize::{display_width, sanitize};
use crate::model::text::wrap::row_starts;

/// The related collections above the item's JSON.
pub(super) fn draw_detail(frame: &mut Frame, area: Rect, view: &OpenTable) {
    let [related, json] = split_related(area, view.view.related.links.len());
    super::related::draw_related(frame, related, view);
    draw_json(frame, json, view);
}

fn draw_json(frame: &mut Frame, area: Rect, view: &OpenTable) {
    let focused = view.view.focus == Pane::Detail;
    let (Some(store), Some(id)) = (view.view.store.as_ref(), view.view.selected_item()) else {
        frame.render_widget(
            Block::bordered()
                .title(" Item ")
                .border_style(theme::border(focused)),
            area,
        );
        return;
    };
    let size = store.item_size(id);
    let mode = match view.view.json_mode {
        JsonMode::Plain => "plain JSON · t: DynamoDB JSON",
        JsonMode::Dynamo => "DynamoDB JSON · t: plain JSON",
    };
    let title = format!(
        " Item · {} ({:.2}% of 400 KB) · {} · y copies ",
        bytes(size as u64),
        share_of_limit(size) * 100.0,
        mode
    );
    let item = store.item(id);
    let lines = item_lines(&item, view.view.json_mode);
    let rows = list_rows(area);
    let width = area.width.saturating_sub(2) as usize;
    let bottom = if view.view.detail_wrap {
        " long lines wrap · w "
    } else {
        " ←/→ scroll sideways · w "
    };
    let mut block = Block::bordered()
        .title(title)
        .title_bottom(bottom)
        .border_style(theme::border(focused));
    // Which rule decided the kind: what a surprised reader asks first.
    if let (Some(kind), Some(source)) = (store.kind_of(id), store.kind_source(&item)) {
        let origin = format!(" kind {} {} ", sanitize(kind), sanitize(&source));
        // Beside the other bottom title, never over it: a narrow pane shows just the kind.
        let room = (area.width as usize).saturating_sub(display_width(bottom) + 4);
        let short = format!(" kind {} ", sanitize(kind));
        if let Some(text) = [origin, short]
            .into_iter()
            .find(|t| display_width(t) <= room)
        {
            block = block.title_bottom(Line::from(text).right_aligned());
        }
    }
    let paragraph = if view.view.detail_wrap {
        Paragraph::new(wrapped_rows(lines, width, view.view.detail_scroll, rows))
    } else {
        let scroll = view
            .view
            .detail_scroll
            .min(lines.len().saturating_sub(rows));
        let visible: Vec<Line> = lines.into_iter().skip(scroll).take(rows).collect();
        Paragraph::new(visible).scroll((0, view.view.detail_hscroll.min(u16::MAX as usize) as u16))
    };
    frame.render_widget(paragraph.block(block), area);
}

/// The `rows` visible rows of `lines` wrapped at `width`, after `scroll` rows (clamped so the
/// last row ends the pane): the same points `update` counts with.
fn wrapped_rows(
    lines: Vec<Line<'static>>,
    width: usize,
    scroll: usize,
    rows: usize,
) -> Vec<Line<'static>> {
    let split: Vec<(Line<'static>, Vec<usize>)> = lines
        .into_iter()
        .map(|line| {
            let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            let starts = row_starts(&text, width);
            (line, starts)
        })
        .collect();
    let total: usize = split.iter().map(|(_, starts)| starts.len()).sum();
    let mut skip = scroll.min(total.saturating_sub(rows));
    let mut out = Vec::with_capacity(rows);
    for (line, starts) in split {
        if skip >= starts.len() {
            skip -= starts.len();
            continue;
        }
        let text_len: usize = line.spans.iter().map(|s| s.content.len()).sum();
        for (r, &from) in starts.iter().enumerate().skip(skip) {
            let to = starts.get(r + 1).copied().unwrap_or(text_len);
            out.push(slice_line(&line, from, to));
            if out.len() == rows {
                return out;
            }
        }
        skip = 0;
    }
    out
}

/// The part of `line` between byte offsets `from` and `to` of its text, styles kept.
fn slice_line(line: &Line<'static>, from: usize, to: usize) -> Line<'static> {
    let mut spans = Vec::new();
    let mut at = 0;
    for span in &line.spans {
        let text = span.content.as_ref();
        let (start, end) = (at, at + text.len());
        at = end;
        let (lo, hi) = (from.max(start), to.min(end));
        if lo < hi {
            spans.push(Span::styled(
                text[lo - start..hi - start].to_string(),
                span.style,
            ));
        }
    }
    Line::from(spans)
}
