//! `tail --output table`: one aligned line per change for people, through the one table
//! renderer with columns fixed up front (a stream has no end to measure), every value
//! sanitised and truncated.

use super::text_table::{write_header, write_row, Align, Column};
use crate::model::item::value::AttrValue;
use crate::model::stream::change_json::push_rfc3339;
use crate::model::stream::diff::diff;
use crate::model::stream::Change;
use crate::model::text::cell::cell_text;
use crate::model::text::sanitize::{sanitize, truncate_display};

const TIME_WIDTH: usize = 20;
const EVENT_WIDTH: usize = 6;
const KEY_WIDTH: usize = 32;
const WCU_WIDTH: usize = 5;
const VALUE_WIDTH: usize = 24;
const CHANGE_WIDTH: usize = 100;

/// The table's columns, fixed: a stream has no end to measure its cells against.
fn columns(key_names: &[String]) -> Vec<Column> {
    let mut columns = vec![
        Column::new("TIME", TIME_WIDTH, Align::Left),
        Column::new("EVENT", EVENT_WIDTH, Align::Left),
    ];
    columns.extend(
        key_names
            .iter()
            .map(|name| Column::new(sanitize(name), KEY_WIDTH, Align::Left)),
    );
    columns.push(Column::new("WCU", WCU_WIDTH, Align::Left));
    columns.push(Column::new("CHANGE", CHANGE_WIDTH, Align::Left));
    columns
}

/// The header and its rule, for the table's key attributes.
pub fn header(key_names: &[String]) -> String {
    let mut out = String::new();
    write_header(&mut out, &columns(key_names));
    out
}

fn value(v: Option<&AttrValue>) -> String {
    match v {
        None => "(none)".into(),
        Some(v) => {
            let text = sanitize(&cell_text(v)).into_owned();
            truncate_display(&text, VALUE_WIDTH).into_owned()
        }
    }
}

/// What the change did, in one line: a MODIFY's changed attributes `old -> new`, what an
/// INSERT or REMOVE carried, or what the view type cannot show.
fn summary(change: &Change) -> String {
    if change.ttl_delete {
        return "TTL delete".into();
    }
    if let Some(diffs) = diff(change) {
        if diffs.is_empty() {
            return "no attribute changed".into();
        }
        return diffs
            .iter()
            .map(|d| format!("{}: {} -> {}", sanitize(d.name), value(d.old), value(d.new)))
            .collect::<Vec<_>>()
            .join("; ");
    }
    match change.latest_image() {
        Some(image) => {
            let attrs: Vec<String> = image
                .iter()
                .filter(|(name, _)| change.keys.get(name).is_none())
                .map(|(name, v)| format!("{}={}", sanitize(name), value(Some(v))))
                .collect();
            let which = if change.new_image.is_some() {
                "new"
            } else {
                "old"
            };
            format!("{which}: {}", attrs.join(" "))
        }
        None => format!(
            "(keys only: {} records carry no values)",
            change.view.map_or("this stream's", |v| v.as_str())
        ),
    }
}

/// One line for `change`.
pub fn row(out: &mut String, change: &Change, key_names: &[String]) {
    let mut time = String::new();
    if let Some(ms) = change.created_at_ms {
        push_rfc3339(&mut time, ms);
    }
    let mut cells = vec![time, change.event.as_str().to_string()];
    cells.extend(key_names.iter().map(|name| {
        change
            .keys
            .get(name)
            .map(|v| sanitize(&cell_text(v)).into_owned())
            .unwrap_or_default()
    }));
    let units = change.write_units();
    cells.push(if units.estimated {
        format!("~{}", units.units)
    } else {
        units.units.to_string()
    });
    cells.push(summary(change));
    let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
    write_row(out, &columns(key_names), &cells);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::item::value::Item;
    use crate::model::stream::{ChangeEvent, ViewType};

    fn item(attrs: &[(&str, &str)]) -> Item {
        Item::from_attrs(
            attrs
                .iter()
                .map(|(k, v)| (k.to_string(), AttrValue::S(v.to_string())))
                .collect(),
        )
    }

    #[test]
    fn a_modify_shows_its_diff_sanitised_and_columns_line_up() {
        let keys = vec!["PK".to_string(), "SK".to_string()];
        let change = Change {
            event: ChangeEvent::Modify,
            keys: item(&[("PK", "USER#1\u{1b}[2J"), ("SK", "PROFILE")]),
            old_image: Some(item(&[
                ("PK", "USER#1"),
                ("SK", "PROFILE"),
                ("status", "PENDING"),
            ])),
            new_image: Some(item(&[
                ("PK", "USER#1"),
                ("SK", "PROFILE"),
                ("status", "SHIPPED"),
            ])),
            sequence_number: "1".into(),
            created_at_ms: Some(1_796_066_280_000),
            size_bytes: 30,
            view: Some(ViewType::NewAndOldImages),
            ttl_delete: false,
        };
        let mut out = header(&keys);
        row(&mut out, &change, &keys);
        let keys_only = Change {
            old_image: None,
            new_image: None,
            view: Some(ViewType::KeysOnly),
            ..change.clone()
        };
        row(&mut out, &keys_only, &keys);
        assert!(!out.contains('\u{1b}'), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(
            lines[2].starts_with("2026-11-30T19:18:00Z  MODIFY  USER#1\\x1b[2J"),
            "{out}"
        );
        assert!(lines[2].ends_with("status: PENDING -> SHIPPED"), "{out}");
        assert!(
            lines[3].contains("~1") && lines[3].contains("KEYS_ONLY"),
            "{out}"
        );
        assert_eq!(lines[0].find("WCU"), lines[2].find(" 1 ").map(|p| p + 1));
    }
}
