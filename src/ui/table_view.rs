//! The table view: item collections, the selected collection's items (or one item's detail),
//! the request log and the status bar. Only visible rows are touched.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Row, Table};
use ratatui::Frame;

use super::format::{bytes, thousands};
use super::json_view::item_lines;
use super::{request_log, status, theme};
use crate::app::layout::{list_rows, split_progress, table_layout, table_rows};
use crate::app::state::{JsonMode, Loadable, Pane, Prompt, ReadOutcome, State, TableView};
use crate::model::cell::cell_text;
use crate::model::entity::decode_key;
use crate::model::item_size::share_of_limit;
use crate::model::sanitize::{display_width, sanitize, truncate_display};

const MAX_CELL_WIDTH: usize = 36;
const COLUMN_SPACING: usize = 2;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let Some(view) = state.table.as_ref() else {
        return;
    };
    let layout = table_layout(area);
    draw_title(frame, layout.title, state, view);
    draw_kinds(frame, layout.kinds, view);
    match &view.info {
        Loadable::Failed(e) => {
            let text = vec![
                Line::styled(sanitize(e).into_owned(), theme::error()),
                Line::raw(""),
                Line::styled("press T for the table picker, q to quit", theme::dim()),
            ];
            let body = layout.collections.union(layout.main);
            frame.render_widget(
                Paragraph::new(text).block(
                    Block::bordered()
                        .title(" Error ")
                        .border_style(theme::error()),
                ),
                body,
            );
        }
        Loadable::Loading => {
            let body = layout.collections.union(layout.main);
            frame.render_widget(
                Paragraph::new(Line::styled("describing the table…", theme::dim()))
                    .block(Block::bordered()),
                body,
            );
        }
        Loadable::Loaded(_) => {
            draw_collections(frame, layout.collections, view);
            let mut main = layout.main;
            if let Some(progress) = &view.progress {
                let status = match view.read.as_ref() {
                    Some(r) if r.running => "running",
                    Some(r) => match &r.outcome {
                        Some(ReadOutcome::Cancelled) => "cancelled",
                        Some(ReadOutcome::Failed(_)) => "failed",
                        Some(ReadOutcome::BudgetReached { .. }) => "stopped at the budget",
                        _ if r.has_more() => "stopped",
                        _ => "done",
                    },
                    None => "done",
                };
                let [top, rest] = split_progress(main, progress.segments.len());
                super::scan::draw_progress(frame, top, progress, status);
                main = rest;
            }
            if view.detail_open {
                draw_detail(frame, main, view);
            } else {
                draw_items(frame, main, view);
            }
        }
    }
    request_log::draw(frame, layout.log, state);
    status::draw(frame, layout.status, state, view);
    if let (Some(b), Some(info)) = (&view.builder, view.info.loaded()) {
        super::builder::draw_builder(frame, area, b, info);
    } else if let (Some(l), Some(info)) = (&view.launcher, view.info.loaded()) {
        super::scan::draw_launcher(frame, area, l, info);
    } else if let Some(d) = &view.distribution {
        super::scan::draw_distribution(frame, area, d);
    } else if let Some(p) = &view.palette {
        super::builder::draw_palette(frame, area, p, state);
    } else if let Some(prompt) = &view.budget_prompt {
        draw_prompt(
            frame,
            area,
            " Resume the scan: max RCU for the rest ",
            prompt,
        );
    } else if let Some(prompt) = &view.pk_prompt {
        let key = view
            .read_keys()
            .map(|k| {
                format!(
                    "{} ({})",
                    k.partition_key.name,
                    k.partition_key.key_type.as_str()
                )
            })
            .unwrap_or_default();
        draw_prompt(frame, area, &format!(" Query partition key {key} "), prompt);
    } else if let Some(prompt) = &view.filter_prompt {
        draw_prompt(frame, area, " Filter loaded items ", prompt);
    }
}

fn draw_title(frame: &mut Frame, area: Rect, state: &State, view: &TableView) {
    let target = match &view.index {
        Some(i) => format!("{} · index {}", view.name, i),
        None => view.name.clone(),
    };
    let mut text = format!(" dynoscope · {}", sanitize(&target));
    if let Some(info) = view.info.loaded() {
        // Capacity mode and provisioned rate of the table, and of the index being read (a GSI
        // has its own), so RCU/s in the request log can be compared with the limit.
        let capacity = |t: Option<&crate::model::schema::Throughput>| match t {
            Some(t) => format!("{} RCU/s provisioned", t.read_capacity_units),
            None if info.provisioned.is_none() => "on demand".to_string(),
            None => "shares the table's capacity".to_string(),
        };
        text.push_str(&format!(" · {}", capacity(info.provisioned.as_ref())));
        if let Some(index) = view.index.as_deref().and_then(|n| info.index(n)) {
            if index.kind == crate::model::schema::IndexKind::Gsi {
                text.push_str(&format!(
                    " · {} {}",
                    sanitize(&index.name),
                    capacity(index.provisioned.as_ref())
                ));
            }
        }
        text.push_str(&format!(
            " · {} items · {}",
            thousands(info.item_count.max(0) as u64),
            bytes(info.size_bytes.max(0) as u64)
        ));
    }
    text.push_str(&format!(" · {}", sanitize(&state.endpoint)));
    frame.render_widget(Paragraph::new(text).style(theme::title()), area);
}

fn draw_kinds(frame: &mut Frame, area: Rect, view: &TableView) {
    let mut spans = vec![Span::styled(" kinds: ", theme::dim())];
    match &view.store {
        Some(store) if !store.is_empty() => {
            for (i, (kind, count)) in store.kinds_summary().into_iter().enumerate() {
                if i > 0 {
                    spans.push(Span::styled(" · ", theme::dim()));
                }
                spans.push(Span::styled(
                    sanitize(kind).into_owned(),
                    theme::kind_style(kind),
                ));
                spans.push(Span::raw(format!(" {}", thousands(count as u64))));
            }
        }
        _ => spans.push(Span::styled("none loaded yet", theme::dim())),
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_collections(frame: &mut Frame, area: Rect, view: &TableView) {
    let focused = view.focus == Pane::Collections;
    let total = view.collection_count();
    let key_name = view
        .store
        .as_ref()
        .map(|s| s.group_keys().partition_key.name.clone())
        .unwrap_or_default();
    let block = Block::bordered()
        .title(format!(
            " Collections by {} ({}) ",
            sanitize(&key_name),
            thousands(total as u64)
        ))
        .border_style(theme::border(focused));
    let Some(store) = view.store.as_ref() else {
        frame.render_widget(Paragraph::new("").block(block), area);
        return;
    };
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = Vec::new();
    if total == 0 {
        let text = match (&view.read, view.filter.is_empty()) {
            (Some(r), _) if r.running => "loading…",
            (_, false) => "nothing matches the filter",
            _ => "no items",
        };
        lines.push(Line::styled(text, theme::dim()));
    }
    for n in (view.collections.offset..total).take(list_rows(area)) {
        let Some(c) = view.collection_at(n) else {
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
        if n == view.collections.cursor {
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

fn draw_items(frame: &mut Frame, area: Rect, view: &TableView) {
    let focused = view.focus == Pane::Items;
    let Some(store) = view.store.as_ref() else {
        frame.render_widget(Block::bordered().border_style(theme::border(focused)), area);
        return;
    };
    let title = match view.selected_collection() {
        Some(c) => format!(
            " Items in {} ({}) ",
            sanitize(&truncate_display(&store.collections()[c].key, 40)),
            thousands(view.item_count() as u64)
        ),
        None => " Items ".to_string(),
    };
    let block = Block::bordered()
        .title(title)
        .border_style(theme::border(focused));
    let columns = &view.columns;
    let sk_name = store.group_keys().sort_key.as_ref().map(|k| k.name.clone());
    let offset = view
        .column_offset
        .min(columns.attrs.len().saturating_sub(1));
    let attrs: Vec<&String> = columns.attrs.iter().skip(offset).collect();

    // Attribute names are data: sanitised before their widths are measured, like the cells.
    let mut header: Vec<String> = vec!["kind".into()];
    header.extend(sk_name.clone());
    header.extend(columns.part_names.iter().cloned());
    header.extend(attrs.iter().map(|a| a.to_string()));
    let header: Vec<String> = header
        .iter()
        .map(|h| truncate_display(&sanitize(h), MAX_CELL_WIDTH).into_owned())
        .collect();

    let visible: Vec<u32> = (view.items.offset..view.item_count())
        .take(table_rows(area))
        .filter_map(|n| view.item_at(n))
        .collect();
    let mut cells: Vec<Vec<String>> = Vec::with_capacity(visible.len());
    for &id in &visible {
        let item = store.item(id);
        let mut row = vec![store.kind_of(id).unwrap_or("").to_string()];
        let sk = sk_name.as_ref().and_then(|k| item.get(k));
        if sk_name.is_some() {
            row.push(sk.map(cell_text).unwrap_or_default());
        }
        let parts = sk
            .and_then(|v| v.as_s())
            .map(|s| decode_key(s, store.separator()).parts)
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
    let mut used = 0;
    let mut shown = 0;
    for (i, w) in natural.iter().enumerate() {
        let need = w + if i > 0 { COLUMN_SPACING } else { 0 };
        if used + need > inner && i > 0 {
            break;
        }
        used += need;
        shown += 1;
    }
    let widths: Vec<Constraint> = natural[..shown]
        .iter()
        .map(|w| Constraint::Length(*w as u16))
        .collect();
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
                spans.push(if c == 0 {
                    Span::styled(cell, theme::kind_style(kind)).into()
                } else {
                    cell.into()
                });
            }
            let r = Row::new(spans);
            if view.items.offset + i == view.items.cursor && focused {
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

fn draw_detail(frame: &mut Frame, area: Rect, view: &TableView) {
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

fn draw_prompt(frame: &mut Frame, area: Rect, title: &str, prompt: &Prompt) {
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
