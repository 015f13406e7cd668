//! The request log pane: the newest rows that fit, each page's cost beside it.

use ratatui::layout::{Constraint, Rect};
use ratatui::widgets::{Block, Paragraph, Row, Table};
use ratatui::Frame;

use super::format::{thousands, units};
use super::theme;
use crate::app::request_log::RequestRow;
use crate::app::state::State;
use crate::model::text::sanitize::sanitize;

pub fn draw(frame: &mut Frame, area: Rect, state: &State) {
    let log = &state.log;
    let visible = area.height.saturating_sub(3) as usize;
    let focused = state
        .table
        .as_ref()
        .is_some_and(|v| v.view.focus == crate::app::state::Pane::Log);
    // The newest rows, or while the log has the focus the window holding its cursor.
    let tail_from = log.len().saturating_sub(visible);
    let cursor = state
        .log_pane
        .cursor
        .filter(|_| focused)
        .map(|c| c.min(log.len().saturating_sub(1)));
    let from = cursor.map_or(tail_from, |c| c.min(tail_from));
    let rows: Vec<Row> = log
        .window(from, visible)
        .enumerate()
        .map(|(i, r)| {
            let selected = cursor.map_or(focused && from + i + 1 == log.len(), |c| c == from + i);
            let row = row(r, state.session.export.is_some());
            if selected {
                row.style(theme::selected())
            } else {
                row
            }
        })
        .collect();
    let header = Row::new([
        "req",
        "op",
        "index",
        "seg/page",
        "count",
        "scanned",
        "ret/read",
        "RCU",
        "RCU/item",
        "by table/index",
        "latency",
        "attempts",
    ])
    .style(theme::header());
    let widths = [
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Length(10),
        Constraint::Length(9),
        Constraint::Length(7),
        Constraint::Length(8),
        Constraint::Length(8),
        Constraint::Length(7),
        Constraint::Length(8),
        Constraint::Min(16),
        Constraint::Length(8),
        Constraint::Length(8),
    ];
    let writes = if log.write_total > 0.0 {
        format!(" · WCU {}", units(log.write_total))
    } else {
        String::new()
    };
    // An export's reads are pages of its files, not DynamoDB requests: the log says so.
    let title = if state.session.export.is_some() {
        format!(
            " Pages read from the export's files ({}) · no DynamoDB requests, no RCU ",
            thousands(log.requests)
        )
    } else {
        format!(
            " Requests ({}) · RCU {}{writes} · attempts {} · throttled {} ",
            thousands(log.requests),
            units(log.total.total),
            thousands(log.attempts),
            thousands(log.throttles)
        )
    };
    let hint = if focused {
        " Enter: the request as sent · +/- resize "
    } else {
        ""
    };
    let block = Block::bordered()
        .title(title)
        .title_bottom(hint)
        .border_style(if log.throttles > 0 {
            theme::warning()
        } else {
            theme::border(focused)
        });
    frame.render_widget(
        Table::new(rows, widths)
            .header(header)
            .column_spacing(1)
            .block(block),
        area,
    );
    // A damaged file's line, after its row's marker, over the cells its row left empty.
    for (i, r) in log.window(from, visible).enumerate() {
        let Some(line) = &r.problem else { continue };
        let x = area.x + 1 + 5;
        let width = (area.x + area.width).saturating_sub(x + 1);
        let selected = cursor.map_or(focused && from + i + 1 == log.len(), |c| c == from + i);
        let style = if selected {
            theme::selected()
        } else {
            theme::error()
        };
        frame.render_widget(
            Paragraph::new(format!("file: {}", sanitize(line))).style(style),
            Rect::new(x, area.y + 2 + i as u16, width, 1),
        );
    }
}

/// A write's row: its operation, the items written and its write units by table and index.
fn write_row(r: &RequestRow, operation: &str) -> Row<'static> {
    // Why it was throttled comes first: the cell is cut on a narrow terminal.
    let mut split = throttled_by(r);
    split.push_str(&format!("WCU table {}", units(r.consumed.table)));
    for (name, u) in &r.consumed.indexes {
        split.push_str(&format!(" {} {}", sanitize(name), units(*u)));
    }
    Row::new(vec![
        r.number.to_string(),
        // The column is five wide: PutItem, UpdateItem, DeleteItem, a move (a PutItem then a
        // DeleteItem), TransactWriteItems.
        match operation {
            "PutItem" => "Put",
            "UpdateItem" => "Updat",
            "DeleteItem" => "Del",
            "PutItem+DeleteItem" => "Move",
            _ => "TxWr",
        }
        .to_string(),
        "-".into(),
        "-".into(),
        thousands(r.count),
        "-".into(),
        "-".into(),
        format!("{}W", units(r.consumed.total)),
        "-".into(),
        split,
        format!("{} ms", r.latency.as_millis()),
        r.attempts.to_string(),
    ])
    .style(theme::warning())
}

/// A damaged data file's row, under the pages of the read that found it: its line is far
/// wider than any column, so `draw` writes it across the row; only the marker is a cell.
fn problem_row() -> Row<'static> {
    Row::new(vec!["⚠".to_string()]).style(theme::error())
}

/// `⚠ hot key range · GSI1 · ` for a row the service throttled and said why.
fn throttled_by(r: &RequestRow) -> String {
    r.reasons_short()
        .map(|why| format!("⚠ {} · ", sanitize(&why)))
        .unwrap_or_default()
}

/// One read page; `export`: a page of an export's files, named as such in the op column.
fn row(r: &RequestRow, export: bool) -> Row<'static> {
    if r.problem.is_some() {
        return problem_row();
    }
    if let Some(operation) = r.write {
        return write_row(r, operation);
    }
    let mut split = throttled_by(r);
    split.push_str(&format!("table {}", units(r.consumed.table)));
    for (name, u) in &r.consumed.indexes {
        split.push_str(&format!(" {} {}", sanitize(name), units(*u)));
    }
    let seg = if r.total_segments > 1 {
        format!("{}/{}", r.segment, r.page)
    } else {
        format!("-/{}", r.page)
    };
    let attempts = if r.throttles > 0 {
        format!("{} ({}T)", r.attempts, r.throttles)
    } else {
        r.attempts.to_string()
    };
    let style = if r.throttles > 0 {
        theme::error()
    } else if r.retried() {
        theme::warning()
    } else if r.filter_heavy() {
        theme::filter_heavy()
    } else {
        Default::default()
    };
    let share = match r.returned_share() {
        Some(s) if r.filter_heavy() => format!("{:.0}% ⚠", s * 100.0),
        Some(s) => format!("{:.0}%", s * 100.0),
        None => "-".into(),
    };
    let per_item = r.rcu_per_item().map_or("-".into(), |u| format!("{u:.3}"));
    if export {
        // Pages of files: no capacity, latency or attempts of a request to show.
        let no = || "-".to_string();
        return Row::new(vec![
            r.number.to_string(),
            "file".to_string(),
            r.index
                .as_deref()
                .map(|i| sanitize(i).into_owned())
                .unwrap_or_else(no),
            seg,
            thousands(r.count),
            thousands(r.scanned_count),
            share,
            no(),
            no(),
            no(),
            no(),
            no(),
        ]);
    }
    Row::new(vec![
        r.number.to_string(),
        r.operation.as_str().to_string(),
        r.index
            .as_deref()
            .map(|i| sanitize(i).into_owned())
            .unwrap_or_else(|| "-".into()),
        seg,
        thousands(r.count),
        thousands(r.scanned_count),
        share,
        units(r.consumed.total),
        per_item,
        split,
        format!("{} ms", r.latency.as_millis()),
        attempts,
    ])
    .style(style)
}
