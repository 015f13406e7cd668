//! Untrusted text in Markdown: item text as a table for a ticket or a chat (`Y` in the
//! explorer), and every name and value of a design document (`model export`), its Mermaid
//! diagram's labels included.
//!
//! A cell is item data, so it is made inert for both places it lands: the terminal escaper
//! first (`sanitize`: a newline becomes the two characters `\n`, ESC `\x1b`, a bidi override
//! `\u{202e}`, so one row stays one line and nothing reorders or drives the reader's
//! terminal), then every character Markdown reads inline is backslash-escaped: `|` would end
//! the cell, a backtick open a code span, `*`, `_` and `~` emphasis, `[`/`]` a link, `<`/`>`
//! raw HTML. Backslashes are doubled first, so the escapes `sanitize` wrote read back as
//! themselves and a cell ending in `\` cannot escape the next `|`.

use std::fmt::Write;

use crate::text::sanitize::sanitize;

/// Characters with a meaning inside a Markdown table cell, escaped with a backslash.
const MARKDOWN_ACTIVE: [char; 10] = ['\\', '|', '`', '*', '_', '~', '[', ']', '<', '>'];

/// `text` as the content of one Markdown table cell: one line, every control and invisible
/// character shown as its escape, every inline Markdown character escaped.
pub fn markdown_cell(text: &str) -> String {
    let visible = sanitize(text);
    let mut out = String::with_capacity(visible.len() + 8);
    for c in visible.chars() {
        if MARKDOWN_ACTIVE.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A GitHub-flavoured Markdown table: the header row, its delimiter row and one row per entry
/// of `rows`, every cell through [`markdown_cell`]. A row shorter than the header is padded
/// with empty cells; a longer one is cut to the header's columns.
pub fn markdown_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    push_row(&mut out, header.iter().map(String::as_str), header.len());
    out.push('|');
    for _ in header {
        out.push_str(" --- |");
    }
    out.push('\n');
    for row in rows {
        push_row(&mut out, row.iter().map(String::as_str), header.len());
    }
    out
}

fn push_row<'a>(out: &mut String, cells: impl Iterator<Item = &'a str>, width: usize) {
    let mut cells = cells.fuse();
    out.push('|');
    for _ in 0..width {
        let cell = markdown_cell(cells.next().unwrap_or(""));
        out.push(' ');
        out.push_str(&cell);
        out.push_str(" |");
    }
    out.push('\n');
}

/// `text` as a Mermaid label, to be put between double quotes: letters, digits, spaces and
/// plain `#`-free punctuation stay; everything else (quotes, brackets, `#`, `;`, backticks,
/// controls, non-ASCII) is written as Mermaid's `#code;` entity, so no label can end the
/// string, the node or the diagram.
pub fn mermaid_label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_ascii_alphanumeric()
                || matches!(c, ' ' | '_' | '-' | '.' | ',' | '+' | '/') =>
            {
                out.push(c)
            }
            c => {
                let _ = write!(out, "#{};", u32::from(c));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_cells_stay_one_inert_cell() {
        let cases = [
            ("plain", "plain"),
            ("a|b", r"a\|b"),
            ("line\nbreak", r"line\\nbreak"),
            ("`code`", r"\`code\`"),
            ("esc\u{1b}[2J", r"esc\\x1b\[2J"),
            ("evil\u{202e}txt", r"evil\\u{202e}txt"),
            (r"ends in \", r"ends in \\"),
            ("**bold** _em_ ~s~", r"\*\*bold\*\* \_em\_ \~s\~"),
            ("<img src=x>", r"\<img src=x\>"),
            ("[link](u)", r"\[link\](u)"),
            ("", ""),
        ];
        for (text, want) in cases {
            assert_eq!(markdown_cell(text), want, "{text:?}");
        }
    }

    #[test]
    fn every_row_has_the_header_s_columns() {
        let header = vec!["kind".to_string(), "SK".to_string()];
        let rows = vec![
            vec!["USER".to_string()],
            vec!["ORDER".into(), "ORDER#1".into(), "extra".into()],
        ];
        assert_eq!(
            markdown_table(&header, &rows),
            "| kind | SK |\n| --- | --- |\n| USER |  |\n| ORDER | ORDER#1 |\n"
        );
    }
    #[test]
    fn a_mermaid_label_holds_no_quote_bracket_or_control() {
        let label = mermaid_label("x\"]; A-->B\n```\u{202e}");
        for c in ['"', ']', '[', '\n', '`', '>', '\u{202e}'] {
            assert!(!label.contains(c), "{c:?} in {label}");
        }
        assert_eq!(mermaid_label("USER"), "USER");
    }
}
