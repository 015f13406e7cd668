//! Aligned text tables for people (`--output table`, `hotkeys --output table`): the one
//! renderer. Cells arrive sanitised; widths are display widths, so wide characters and the
//! visible escapes of control characters line up.

use std::fmt::Write as _;

use crate::model::text::sanitize::{display_width, sanitize, truncate_display};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// Empty for a column without a header (a histogram's bars): it gets no rule either.
    pub header: String,
    pub width: usize,
    pub align: Align,
}

impl Column {
    pub fn new(header: impl Into<String>, width: usize, align: Align) -> Column {
        Column {
            header: header.into(),
            width,
            align,
        }
    }
}

/// Columns as wide as their widest cell or header.
pub fn fit(headers: &[(&str, Align)], rows: &[Vec<String>]) -> Vec<Column> {
    headers
        .iter()
        .enumerate()
        .map(|(i, (header, align))| {
            let widest = rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|c| display_width(c))
                .max()
                .unwrap_or(0);
            Column::new(*header, widest.max(display_width(header)), *align)
        })
        .collect()
}

/// The header line and the rule under it.
pub fn write_header(out: &mut String, columns: &[Column]) {
    let headers: Vec<&str> = columns.iter().map(|c| c.header.as_str()).collect();
    write_row(out, columns, &headers);
    let rules: Vec<String> = columns
        .iter()
        .map(|c| {
            if c.header.is_empty() {
                String::new()
            } else {
                "-".repeat(c.width)
            }
        })
        .collect();
    let rules: Vec<&str> = rules.iter().map(String::as_str).collect();
    write_row(out, columns, &rules);
}

/// One line: each cell cut to its column's width and padded by its alignment, two spaces
/// between columns, no trailing spaces.
pub fn write_row(out: &mut String, columns: &[Column], cells: &[&str]) {
    let mut line = String::new();
    for (i, (column, cell)) in columns.iter().zip(cells).enumerate() {
        if i > 0 {
            line.push_str("  ");
        }
        let text = truncate_display(cell, column.width);
        let pad = " ".repeat(column.width.saturating_sub(display_width(&text)));
        match column.align {
            Align::Left => {
                line.push_str(&text);
                line.push_str(&pad);
            }
            Align::Right => {
                line.push_str(&pad);
                line.push_str(&text);
            }
        }
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

/// A whole table: header, rule, rows.
pub fn write_table(out: &mut String, headers: &[(&str, Align)], rows: &[Vec<String>]) {
    let columns = fit(headers, rows);
    write_header(out, &columns);
    for row in rows {
        let cells: Vec<&str> = row.iter().map(String::as_str).collect();
        write_row(out, &columns, &cells);
    }
}

/// The table report's closing section, for stored and written keys alike.
pub fn write_warnings<'m>(out: &mut String, messages: impl ExactSizeIterator<Item = &'m str>) {
    out.push('\n');
    if messages.len() == 0 {
        out.push_str("warnings: none\n");
        return;
    }
    out.push_str("warnings:\n");
    for message in messages {
        // Messages sanitise the key text they quote; sanitise again for anything else.
        let _ = writeln!(out, "! {}", sanitize(message));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligns_left_and_right_rules_named_columns_and_trims() {
        let rows = vec![
            vec!["1".into(), "USER#celebrity".into(), "#####".into()],
            vec!["10".into(), "ORDER#1".into(), "#".into()],
        ];
        let mut out = String::new();
        write_table(
            &mut out,
            &[
                ("RANK", Align::Right),
                ("KEY", Align::Left),
                ("", Align::Left),
            ],
            &rows,
        );
        assert_eq!(
            out,
            "RANK  KEY\n\
             ----  --------------\n   \
             1  USER#celebrity  #####\n  \
             10  ORDER#1         #\n"
        );
    }

    #[test]
    fn cells_are_cut_to_the_width_by_display_width() {
        let columns = [
            Column::new("K", 4, Align::Left),
            Column::new("V", 2, Align::Left),
        ];
        let mut out = String::new();
        write_row(&mut out, &columns, &["abcdefgh", "日本語"]);
        // 4 + two spaces + 2, each cell cut with an ellipsis.
        assert!(display_width(out.trim_end()) <= 8, "{out}");
        assert!(out.starts_with("abc"), "{out}");
    }
}
