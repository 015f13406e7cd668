//! `Y`, copy for tickets: the marked items (or every item listed) as a Markdown table of the
//! items pane's columns, through the same clipboard path as `y`; in the request log, the row
//! as the aws-cli command that sends it again (`app::request_cli`).
//!
//! The table has the kind, the partition key (the items pane shows it as the collection, but
//! a pasted row must say whose it is), the sort key, its parts and every attribute column the
//! pane shows (`C` chooses them), not only those scrolled into view. It stops at
//! [`MARKDOWN_ROWS`] rows, and the status line says where it stopped.

use super::Pane;
use crate::app::columns::sort_key_parts;
use crate::app::msg::{Effect, TerminalEffect};
use crate::app::state::{Notice, State};
use crate::model::design::collection::{ItemId, ItemStore};
use crate::model::text::cell::cell_text;
use crate::model::text::markdown::markdown_table;
use crate::model::text::wording::{count, noun, thousands};

/// Rows a copied table holds at most: past a few hundred a ticket wants a file (`x`).
pub const MARKDOWN_ROWS: usize = 200;

pub(crate) fn copy_markdown(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    if view.view.focus == Pane::Log {
        return copy_log_row(state);
    }
    let Some(store) = view.view.store.as_ref() else {
        return Vec::new();
    };
    let (ids, what) = if view.view.marks.is_empty() {
        (view.view.listed_items(), "")
    } else {
        (view.view.marks.in_view_order(store), "marked ")
    };
    if ids.is_empty() {
        state.notice = Some(Notice {
            text: "no items listed to copy".into(),
            error: false,
        });
        return Vec::new();
    }
    let (header, rows) = table_cells(
        store,
        &view.view.columns,
        &ids[..ids.len().min(MARKDOWN_ROWS)],
    );
    let text = markdown_table(&header, &rows);
    let cut = if ids.len() > MARKDOWN_ROWS {
        format!(
            "; cut at {MARKDOWN_ROWS} of {}, x exports them all",
            thousands(ids.len() as u64)
        )
    } else {
        String::new()
    };
    state.notice = Some(Notice {
        text: format!(
            "copied {} {what}{} as a Markdown table of {} ({} bytes{cut})",
            thousands(rows.len() as u64),
            noun(rows.len() as u64, "item"),
            count(header.len() as u64, "column"),
            thousands(text.len() as u64),
        ),
        error: false,
    });
    vec![Effect::Terminal(TerminalEffect::Copy(text))]
}

/// The header and the raw cells (`markdown_table` escapes them) of `ids`.
pub fn table_cells(
    store: &ItemStore,
    columns: &crate::app::columns::ItemColumns,
    ids: &[ItemId],
) -> (Vec<String>, Vec<Vec<String>>) {
    let keys = store.group_keys();
    let key_names = keys.names();
    // Part columns split the one sort attribute of a one-and-one key; a multi-attribute key's
    // sort attributes are real attributes, each its own column.
    let sk = crate::app::columns::single_sort_key(keys);
    let mut header = vec![columns.kind_header.clone()];
    header.extend(key_names.iter().cloned());
    header.extend(columns.part_names.iter().cloned());
    header.extend(columns.attrs.iter().cloned());
    let rows = ids
        .iter()
        .map(|&id| {
            let item = store.item(id);
            let text = |name: &str| item.get(name).map(cell_text).unwrap_or_default();
            let mut row = vec![store.kind_of(id).unwrap_or("").to_owned()];
            row.extend(key_names.iter().map(|k| text(k)));
            if let Some(sk) = sk {
                let value = item.get(sk).and_then(|v| v.as_s());
                let parts = value.map_or_else(Vec::new, |s| sort_key_parts(s, store.separator()));
                for n in 0..columns.part_names.len() {
                    row.push(parts.get(n).map(|p| p.to_string()).unwrap_or_default());
                }
            }
            row.extend(columns.attrs.iter().map(|a| text(a)));
            row
        })
        .collect();
    (header, rows)
}

/// `Y` in the request log: the selected row (else the newest) as its aws-cli command.
fn copy_log_row(state: &mut State) -> Vec<Effect> {
    let row = state
        .log_pane
        .cursor
        .or_else(|| state.log.len().checked_sub(1))
        .and_then(|i| state.log.get(i));
    let Some(row) = row else {
        state.notice = Some(Notice {
            text: "no request yet".into(),
            error: false,
        });
        return Vec::new();
    };
    match crate::app::request_cli::row_command(row, &state.endpoint) {
        Ok(command) => {
            state.notice = Some(Notice {
                text: format!(
                    "copied request #{} as its aws-cli command ({} bytes)",
                    row.number,
                    thousands(command.len() as u64)
                ),
                error: false,
            });
            vec![Effect::Terminal(TerminalEffect::Copy(command))]
        }
        Err(why) => {
            state.notice = Some(Notice {
                text: format!("nothing copied: {why}"),
                error: true,
            });
            Vec::new()
        }
    }
}
