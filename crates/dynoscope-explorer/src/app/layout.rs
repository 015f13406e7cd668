//! Screen geometry, shared by drawing and by `update` (which needs pane heights to page and to
//! keep cursors visible). Pure functions of the terminal size.

use ratatui::layout::{Constraint, Layout, Rect};

use super::state::State;

pub struct TableLayout {
    pub title: Rect,
    pub kinds: Rect,
    pub collections: Rect,
    pub main: Rect,
    pub log: Rect,
    pub status: Rect,
}

/// The request log's height, borders and header included: its rows, between 3 and 10, or the
/// height chosen with `+`/`-` (at most half the terminal). A terminal under 10 rows has no
/// room for it beside a 3-row body: the log is dropped, the status bar kept.
pub fn log_height(rows: usize, chosen: Option<u16>, area_height: u16) -> u16 {
    if area_height < 10 {
        return 0;
    }
    let max = (area_height / 2).max(LOG_MIN_HEIGHT);
    match chosen {
        Some(h) => h.clamp(LOG_MIN_HEIGHT, max),
        None => (rows.min(u16::MAX as usize) as u16)
            .saturating_add(3)
            .clamp(LOG_MIN_HEIGHT, LOG_AUTO_HEIGHT.min(max)),
    }
}

pub const LOG_MIN_HEIGHT: u16 = 3;
/// The log grows with its rows up to this height unless the user makes it taller.
pub const LOG_AUTO_HEIGHT: u16 = 10;

/// The table view's layout for `state`'s request log.
pub fn explorer_layout(state: &State, area: Rect) -> TableLayout {
    let log = log_height(state.log.len(), state.log_pane.height, area.height);
    table_layout(area, log)
}

pub fn table_layout(area: Rect, log_height: u16) -> TableLayout {
    let [title, kinds, body, log, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(log_height),
        Constraint::Length(1),
    ])
    .areas(area);
    let left = (body.width * 3 / 10).clamp(20.min(body.width), 48);
    let [collections, main] =
        Layout::horizontal([Constraint::Length(left), Constraint::Min(10)]).areas(body);
    TableLayout {
        title,
        kinds,
        collections,
        main,
        log,
        status,
    }
}

/// Height of the scan progress panel for `segments` segments (eight are shown at most).
pub fn progress_height(segments: usize) -> u16 {
    (segments.min(8) + 3) as u16
}

/// The main pane split into the scan progress panel above and, below, what is left for the
/// items or the item detail.
pub fn split_progress(main: Rect, segments: usize) -> [Rect; 2] {
    let height = progress_height(segments).min(main.height / 2);
    Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(main)
}

/// Rows of the related-collections list above the item detail, borders included: up to five
/// links, or one line saying there are none.
pub fn related_height(links: usize) -> u16 {
    (links.clamp(1, 5) + 2) as u16
}

/// The item detail's area split into the related collections above and the JSON below; the
/// list gets at most a third of it.
pub fn split_related(detail: Rect, links: usize) -> [Rect; 2] {
    let height = related_height(links).min(detail.height / 3);
    Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(detail)
}

/// The help popup: the terminal's width and height but a margin, so descriptions are not cut
/// at a fixed width on a wide terminal.
pub fn help_popup(area: Rect) -> Rect {
    let width = area.width.saturating_sub(4).max(area.width.min(20));
    let height = area.height.saturating_sub(2).max(area.height.min(5));
    area.centered(Constraint::Length(width), Constraint::Length(height))
}

/// The palette and its pattern form (and the query form): up to 120 columns and 26 rows, a
/// margin around.
pub fn palette_popup(area: Rect) -> Rect {
    area.centered(
        Constraint::Length(area.width.saturating_sub(4).min(120)),
        Constraint::Length(area.height.saturating_sub(2).min(26)),
    )
}

/// The palette's rows inside `popup`: under its border, the typed line and a blank line.
pub fn palette_rows(popup: Rect) -> usize {
    popup.height.saturating_sub(4) as usize
}

/// The key-distribution overlay (`K`): up to 110 columns, all the rows but a margin.
pub fn distribution_popup(area: Rect) -> Rect {
    area.centered(
        Constraint::Length(area.width.saturating_sub(4).min(110)),
        Constraint::Length(area.height.saturating_sub(2)),
    )
}

pub struct PickerLayout {
    pub title: Rect,
    pub list: Rect,
    pub summary: Rect,
    pub status: Rect,
}

pub fn picker_layout(area: Rect) -> PickerLayout {
    let [title, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(area);
    let [list, summary] =
        Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(body);
    PickerLayout {
        title,
        list,
        summary,
        status,
    }
}

/// Rows inside a bordered list (picker tables, collections).
pub fn list_rows(rect: Rect) -> usize {
    rect.height.saturating_sub(2) as usize
}

/// Rows inside a bordered table with a header row (items).
pub fn table_rows(rect: Rect) -> usize {
    rect.height.saturating_sub(3) as usize
}

/// Rows for the picker's table list, below its filter line.
pub fn picker_rows(rect: Rect) -> usize {
    rect.height.saturating_sub(3) as usize
}
