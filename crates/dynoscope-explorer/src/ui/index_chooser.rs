//! The index chooser (`i`): the table and each index, one row each, with what a first page
//! of it should cost; the highlighted one is described in full below the list.

use ratatui::layout::{Constraint, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::format::{bytes, dollars, thousands, units};
use super::theme;
use crate::app::state::{IndexChoice, IndexChooser};
use crate::app::update::EXPLORER_PAGE_SIZE;
use crate::model::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::model::text::sanitize::{display_width, sanitize, truncate_display};
use crate::model::text::wording::count;
use crate::model::text::wrap::word_wrap;

const NAME: usize = 24;
const KEYS: usize = 22;

fn cell(text: &str, width: usize) -> String {
    let shown = truncate_display(text, width);
    let pad = width.saturating_sub(display_width(&shown));
    format!("{shown}{}", " ".repeat(pad))
}

/// Each side's attributes in order, joined by ` + ` (several on a multi-attribute GSI).
fn keys(keys: &KeySchema) -> String {
    let side = |list: &[crate::model::design::schema::KeyAttr]| {
        list.iter()
            .map(|k| format!("{} ({})", k.name, k.key_type.as_str()))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let text = match keys.sort() {
        [] => format!("{} · no sort key", side(keys.partition())),
        sort => format!("{} · {}", side(keys.partition()), side(sort)),
    };
    sanitize(&text).into_owned()
}

fn kind(choice: &IndexChoice) -> &'static str {
    match choice.kind {
        None => "table",
        Some(IndexKind::Gsi) => "GSI",
        Some(IndexKind::Lsi) => "LSI",
    }
}

fn row(choice: &IndexChoice, table: &str, selected: bool) -> String {
    let name = match &choice.index {
        Some(name) => sanitize(name).into_owned(),
        None => sanitize(table).into_owned(),
    };
    format!(
        "{}{} {:<5} {} {:<9} {:>9} {:>8} {:>9}",
        if selected { "▶ " } else { "  " },
        cell(&name, NAME),
        kind(choice),
        cell(&keys(&choice.keys), KEYS),
        cell(&sanitize(&choice.projection), 9),
        thousands(choice.item_count),
        bytes(choice.size_bytes),
        format!("≈{} RCU", units(choice.first_page_rcu)),
    )
}

/// What the highlighted target is and what Enter will read of it, and the synthetic keys of
/// it a multi-attribute key would replace (from the items already loaded).
fn details(choice: &IndexChoice, table: &str, chooser: &IndexChooser) -> Vec<String> {
    let page = (EXPLORER_PAGE_SIZE as u64).min(choice.item_count);
    let average = choice
        .size_bytes
        .checked_div(choice.item_count)
        .unwrap_or(0);
    let projects = match (choice.projection.as_str(), choice.included.is_empty()) {
        (_, false) => format!("its keys and {}", sanitize(&choice.included.join(", "))),
        ("KEYS_ONLY", _) => "only the table's and its own keys".to_string(),
        _ => "every attribute".to_string(),
    };
    let name = sanitize(choice.index.as_deref().unwrap_or(table)).into_owned();
    let mut lines = vec![format!(
        "{name} ({}): {} · projects {projects}",
        kind(choice),
        keys(&choice.keys)
    )];
    lines.push(format!(
        "Enter scans its first page: ≈{} RCU ({} on demand), {} of ≈{} each, eventually consistent (counts and sizes from DescribeTable, updated about every six hours)",
        units(choice.first_page_rcu),
        dollars(choice.first_page_cost),
        count(page, "item"),
        bytes(average),
    ));
    for advice in chooser.advice.iter().filter(|a| a.index == choice.index) {
        lines.push(format!(
            "Advice, from the items loaded: {}",
            sanitize(&advice.message())
        ));
    }
    lines
}

pub fn draw_index_chooser(
    frame: &mut Frame,
    area: Rect,
    chooser: &IndexChooser,
    info: &TableInfo,
    price: f64,
) {
    let choices = IndexChooser::choices(info, EXPLORER_PAGE_SIZE as u64, price);
    let width = area.width.saturating_sub(4).min(100);
    let about: Vec<String> = choices
        .get(chooser.cursor)
        .map(|c| details(c, &info.name, chooser))
        .unwrap_or_default()
        .iter()
        .flat_map(|text| word_wrap(text, width.saturating_sub(2) as usize))
        .collect();
    // Header, a row per target, a blank line and the highlighted one's details.
    let height = (choices.len() + about.len() + 4) as u16;
    let rect = area.centered(
        Constraint::Length(width),
        Constraint::Length(height.min(area.height.saturating_sub(2))),
    );
    frame.render_widget(Clear, rect);
    let inner = rect.inner(Margin::new(1, 1));
    let rows = (inner.height as usize)
        .saturating_sub(2 + about.len())
        .max(1);
    // The highlighted row stays in view on a short terminal.
    let first = chooser.cursor.saturating_sub(rows - 1);
    let mut lines = vec![Line::styled(
        format!(
            "  {} {:<5} {} {:<9} {:>9} {:>8} {:>9}",
            cell("read from", NAME),
            "kind",
            cell("keys", KEYS),
            "projects",
            "items",
            "size",
            "1st page"
        ),
        theme::header(),
    )];
    for (i, choice) in choices.iter().enumerate().skip(first).take(rows) {
        let text = row(choice, &info.name, i == chooser.cursor);
        let style = if i == chooser.cursor {
            theme::selected()
        } else {
            theme::kind_style(choice.index.as_deref().unwrap_or("table"))
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    lines.push(Line::raw(""));
    for text in about {
        lines.push(Line::styled(text, theme::dim()));
    }
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(" Read from: the table or an index (i) ")
                .title_bottom(" ↑↓ choose · Enter reads it · Esc closes ")
                .border_style(theme::border(true)),
        ),
        rect,
    );
}
