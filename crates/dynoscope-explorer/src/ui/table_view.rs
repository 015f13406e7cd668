//! The table view: item collections, the selected collection's items (or one item's detail),
//! the request log and the status bar. Only visible rows are touched.

use super::collections::draw_collections;
use super::detail::draw_detail;
use super::items::draw_items;
use super::prompt::draw_prompt;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::format::{bytes, thousands};
use super::{request_log, status, theme};
use crate::app::layout::{explorer_layout, split_progress};
use crate::app::state::{CoverPane, Loadable, Modal, OpenTable, ReadOutcome, State};
use crate::model::design::collection::TUPLE_SEPARATOR;
use crate::model::text::sanitize::sanitize;

/// The live or metrics pane ([`crate::app::state::Layer::Live`], `Metrics`) in place of the
/// table's panes: it takes everything between the title and the status bar.
pub fn draw_pane(frame: &mut Frame, area: Rect, state: &State) {
    let Some(view) = state.table.as_ref() else {
        return;
    };
    let layout = explorer_layout(state, area);
    draw_title(frame, layout.title, state, view);
    match &view.cover {
        Some(CoverPane::Live(live)) => super::live::draw(frame, area, &view.name, live),
        Some(CoverPane::Metrics(pane)) => super::metrics_pane::draw(frame, area, &view.name, pane),
        None => {}
    }
    status::draw(frame, layout.status, state, view);
}

/// The table's panes: kinds, collections, items or the detail, the request log, the status
/// bar. What is open over them is drawn after, by `ui::draw`.
pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let Some(view) = state.table.as_ref() else {
        return;
    };
    let layout = explorer_layout(state, area);
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
            if let Some(progress) = &view.view.progress {
                let status = match view.view.read.as_ref() {
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
            if view.view.detail_open {
                draw_detail(frame, main, view);
            } else {
                draw_items(frame, main, view);
            }
        }
    }
    request_log::draw(frame, layout.log, state);
    status::draw(frame, layout.status, state, view);
}

/// The one dialog open over the table: the same [`Modal`] `update` routes the keys to.
pub fn draw_modal(frame: &mut Frame, area: Rect, state: &State) {
    let Some(view) = state.table.as_ref() else {
        return;
    };
    let Some(modal) = &view.modal else {
        return;
    };
    let info = view.info.loaded();
    match (modal, info) {
        (Modal::Write(w), _) => super::write::draw_write(frame, area, w),
        (Modal::Export(d), _) => super::export::draw_export(frame, area, d),
        (Modal::Bulk(d), info) => {
            super::bulk::draw_bulk(frame, area, d, info, state.writes_enabled)
        }
        (Modal::QueryForm(b), Some(info)) => {
            super::query_form::draw_query_form(frame, area, b, info)
        }
        (Modal::Launcher(l), Some(info)) => {
            let from_files = state.session.export.is_some();
            super::scan::draw_launcher(frame, area, l, info, from_files)
        }
        (Modal::Distribution(d), _) => super::scan::draw_distribution(frame, area, d),
        (Modal::IndexChooser(c), Some(info)) => super::index_chooser::draw_index_chooser(
            frame,
            area,
            c,
            info,
            state.config.price_per_million_reads,
        ),
        (Modal::Palette(p), _) => super::palette::draw_palette(frame, area, p, state),
        (Modal::BudgetPrompt(prompt), _) => draw_prompt(
            frame,
            area,
            " Resume the scan: max RCU for the rest ",
            prompt,
        ),
        (Modal::PkPrompt(prompt), _) => {
            // Every partition attribute, joined as the collections show a tuple.
            let key = view
                .read_keys()
                .map(|k| {
                    k.partition()
                        .iter()
                        .map(|a| format!("{} ({})", sanitize(&a.name), a.key_type.as_str()))
                        .collect::<Vec<_>>()
                        .join(TUPLE_SEPARATOR)
                })
                .unwrap_or_default();
            draw_prompt(frame, area, &format!(" Query partition key {key} "), prompt);
        }
        (Modal::FilterPrompt(prompt), _) => {
            draw_prompt(frame, area, " Filter loaded items ", prompt)
        }
        (Modal::Columns(c), _) => super::column_chooser::draw_column_chooser(frame, area, c),
        // The builder, launcher and index chooser need the table's description.
        (Modal::QueryForm(_) | Modal::Launcher(_) | Modal::IndexChooser(_), None) => {}
    }
}

fn draw_title(frame: &mut Frame, area: Rect, state: &State, view: &OpenTable) {
    // An export is named as one, so no one takes its items for the live table's.
    let name = state.session.export.as_ref().unwrap_or(&view.name);
    let target = match &view.view.index {
        Some(i) => format!("{name} · index {i}"),
        None => name.clone(),
    };
    let mut text = format!(" dynoscope · {}", sanitize(&target));
    if let (Some(info), Some(_)) = (view.info.loaded(), &state.session.export) {
        // Counts as the manifest gives them; reading the files spends no read capacity.
        text.push_str(&format!(
            " · no RCU · {} items · {}",
            thousands(info.item_count.max(0) as u64),
            bytes(info.size_bytes.max(0) as u64)
        ));
    } else if let Some(info) = view.info.loaded() {
        // Capacity mode and provisioned rate of the table, and of the index being read (a GSI
        // has its own), so RCU/s in the request log can be compared with the limit.
        let capacity = |t: Option<&crate::model::design::schema::Throughput>| match t {
            Some(t) => format!("{} RCU/s provisioned", t.read_capacity_units),
            None if info.provisioned.is_none() => "on demand".to_string(),
            None => "shares the table's capacity".to_string(),
        };
        let table = capacity(info.provisioned.as_ref());
        // The index is named once, in the target: a GSI's own capacity follows the table's
        // only when it differs (an on-demand table's GSIs are on demand too).
        let gsi = view
            .view
            .index
            .as_deref()
            .and_then(|n| info.index(n))
            .filter(|i| i.kind == crate::model::design::schema::IndexKind::Gsi);
        match gsi.map(|i| capacity(i.provisioned.as_ref())) {
            Some(index) if index != table => {
                text.push_str(&format!(" · table {table} · index {index}"))
            }
            _ => text.push_str(&format!(" · {table}")),
        }
        text.push_str(&format!(
            " · {} items · {}",
            thousands(info.item_count.max(0) as u64),
            bytes(info.size_bytes.max(0) as u64)
        ));
    }
    text.push_str(&super::format::connection(state));
    // First, so no narrow terminal can cut it off.
    let mut spans = Vec::new();
    if state.writes_enabled {
        spans.push(Span::styled(" WRITES ENABLED ", theme::writes_enabled()));
    }
    if let Some(report) = &state.session.export_damage {
        // What the view shows is short of the export: said first, and for as long as it runs.
        spans.push(Span::styled(
            format!(
                " EXPORT INCOMPLETE: {} of {} items read ",
                thousands(report.items_read()),
                thousands(report.items_listed())
            ),
            theme::incomplete(),
        ));
    }
    spans.push(Span::raw(text));
    frame.render_widget(
        Paragraph::new(Line::from(spans)).style(theme::title()),
        area,
    );
}

fn draw_kinds(frame: &mut Frame, area: Rect, view: &OpenTable) {
    let mut spans = vec![Span::styled(" kinds: ", theme::dim())];
    match &view.view.store {
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
