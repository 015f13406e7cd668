//! The selected collection's items: kind, sort key, its parts and the common attributes, the
//! visible rows only.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{Block, Row, Table};
use ratatui::Frame;

use super::format::thousands;
use super::theme;
use crate::app::columns::sort_key_parts;
use crate::app::layout::table_rows;
use crate::app::state::{OpenTable, Pane};
use crate::model::text::cell::cell_text;
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

const MAX_CELL_WIDTH: usize = 36;
const COLUMN_SPACING: usize = 2;

pub(super) fn draw_items(frame: &mut Frame, area: Rect, view: &OpenTable) {
    let focused = view.view.focus == Pane::Items;
    let Some(store) = view.view.store.as_ref() else {
        frame.render_widget(Block::bordered().border_style(theme::border(focused)), area);
        return;
    };
    let title = match view.view.selected_collection() {
        Some(c) => {
            let collection = &store.collections()[c];
            let marked = view.view.marks.count_in(&collection.items);
            let marked = if marked > 0 {
                format!(" · {} marked", thousands(marked as u64))
            } else {
                String::new()
            };
            format!(
                " Items in {} ({}){marked} ",
                sanitize(&truncate_display(&collection.key, 40)),
                thousands(view.view.item_count() as u64)
            )
        }
        None => " Items ".to_string(),
    };
    let block = Block::bordered()
        .title(title)
        .border_style(theme::border(focused));
    let columns = &view.view.columns;
    // Narrower than this, a cut column shows too little to read.
    const MIN_CUT_WIDTH: usize = 6;
    // Every sort attribute is a key column (a multi-attribute index has several); parts split
    // a one-and-one key's only.
    let sort_names: Vec<String> =
        store.group_keys().names()[store.group_keys().partition().len()..].to_vec();
    let sk_name = crate::app::columns::single_sort_key(store.group_keys()).map(str::to_owned);
    let offset = view
        .view
        .column_offset
        .min(columns.attrs.len().saturating_sub(1));
    let attrs: Vec<&String> = columns.attrs.iter().skip(offset).collect();

    // Attribute names are data: sanitised before their widths are measured, like the cells.
    let mut header: Vec<String> = vec![columns.kind_header.clone()];
    header.extend(sort_names.iter().cloned());
    header.extend(columns.part_names.iter().cloned());
    header.extend(attrs.iter().map(|a| a.to_string()));
    let header: Vec<String> = header
        .iter()
        .map(|h| truncate_display(&sanitize(h), MAX_CELL_WIDTH).into_owned())
        .collect();

    let visible: Vec<u32> = (view.view.items.offset..view.view.item_count())
        .take(table_rows(area))
        .filter_map(|n| view.view.item_at(n))
        .collect();
    let mut cells: Vec<Vec<String>> = Vec::with_capacity(visible.len());
    for &id in &visible {
        let item = store.item(id);
        // A marked item's kind cell starts with a mark.
        let mark = if view.view.marks.contains(id) {
            "● "
        } else {
            ""
        };
        let mut row = vec![format!("{mark}{}", store.kind_of(id).unwrap_or(""))];
        row.extend(
            sort_names
                .iter()
                .map(|k| item.get(k).map(cell_text).unwrap_or_default()),
        );
        let sk = sk_name.as_ref().and_then(|k| item.get(k));
        let parts = sk
            .and_then(|v| v.as_s())
            .map(|s| sort_key_parts(s, store.separator()))
            .unwrap_or_default();
        for i in 0..columns.part_names.len() {
            row.push(parts.get(i).map(|p| p.to_string()).unwrap_or_default());
        }
        for a in &attrs {
            row.push(item.get(a).map(cell_text).unwrap_or_default());
        }
        cells.push(
            row.into_iter()
                .map(|c| truncate_display(&sanitize(&c), MAX_CELL_WIDTH).into_owned())
                .collect(),
        );
    }
    let natural: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let widest = cells
                .iter()
                .map(|r| display_width(&r[i]))
                .max()
                .unwrap_or(0);
            widest.max(display_width(h)).clamp(1, MAX_CELL_WIDTH)
        })
        .collect();
    // Whole columns only: the ones that do not fit are reached by scrolling right, rather than
    // squeezing every column to a few unreadable characters.
    let inner = area.width.saturating_sub(2) as usize;
    // The last column that does not fit whole takes the room left, cut, so no blank band is
    // left where attributes could be read.
    let mut used = 0;
    let mut widths: Vec<Constraint> = Vec::new();
    for (i, w) in natural.iter().enumerate() {
        let spacing = if i > 0 { COLUMN_SPACING } else { 0 };
        let room = inner.saturating_sub(used + spacing);
        if *w <= room || i == 0 {
            widths.push(Constraint::Length(*w as u16));
            used += w + spacing;
        } else {
            if room >= MIN_CUT_WIDTH {
                widths.push(Constraint::Length(room as u16));
            }
            break;
        }
    }
    let shown = widths.len();
    let key_columns = header.len() - attrs.len();
    let attrs_shown = shown.saturating_sub(key_columns);
    let block = if columns.attrs.is_empty() && columns.hidden > 0 {
        block.title_bottom(format!(" attributes: all {} hidden (C) ", columns.hidden))
    } else if columns.attrs.is_empty() {
        block
    } else {
        // Which attribute columns are on screen, of how many: `→` reaches the rest.
        let first = offset + 1;
        let last = offset + attrs_shown;
        let range = if attrs_shown == 0 {
            format!("none of {}", columns.attrs.len())
        } else if first == last {
            format!("{first} of {}", columns.attrs.len())
        } else {
            format!("{first}–{last} of {}", columns.attrs.len())
        };
        // Columns a choice hides are said, with the key that shows them again.
        let hidden = match columns.hidden {
            0 => String::new(),
            n => format!(" · {n} hidden (C)"),
        };
        block.title_bottom(format!(" attributes {range}{hidden} · ←/→ "))
    };
    let header: Vec<String> = header.into_iter().take(shown).collect();
    let cells: Vec<Vec<String>> = cells
        .into_iter()
        .map(|row| row.into_iter().take(shown).collect())
        .collect();
    let rows: Vec<Row> = cells
        .into_iter()
        .zip(&visible)
        .enumerate()
        .map(|(i, (row, &id))| {
            let kind = store.kind_of(id).unwrap_or("");
            let mut spans: Vec<ratatui::text::Text> = Vec::new();
            for (c, cell) in row.into_iter().enumerate() {
                spans.push(if c == 0 && view.view.marks.contains(id) {
                    Span::styled(cell, theme::marked()).into()
                } else if c == 0 {
                    Span::styled(cell, theme::kind_style(kind)).into()
                } else {
                    cell.into()
                });
            }
            let r = Row::new(spans);
            if view.view.items.offset + i == view.view.items.cursor && focused {
                r.style(theme::selected())
            } else {
                r
            }
        })
        .collect();
    let header_row = Row::new(header).style(theme::header());
    let table = Table::new(rows, widths)
        .header(header_row)
        .column_spacing(COLUMN_SPACING as u16)
        .block(block);
    frame.render_widget(table, area);
}
