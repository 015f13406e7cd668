//! The one way text goes into the SQL dynoscope prints (`hotkeys --export --athena`): a
//! function per context, each of which writes no control character, newline or terminal
//! escape raw, so an export's metadata or key names can neither end a comment, close a
//! literal nor reach the terminal that shows the SQL.
//!
//! Athena has two parsers: its DDL is Hive's, whose string literals take backslash escapes
//! (`\\`, `\u0027`) and join adjacent literals (so `''` is not a quote there), while its
//! queries are Trino's, whose literals double `'` and take no backslash escapes. Each context
//! gets the spelling its parser reads back as the exact text.

use crate::text::sanitize::{needs_escape, sanitize};

/// Whether `c` is written escaped in a literal: every char the terminal sanitiser escapes
/// (C0/C1 controls, DEL, bidi and invisible format characters, line separators).
fn escaped_in_literal(c: char) -> bool {
    needs_escape(c)
}

/// A Trino (Athena query) string literal: `'` doubled, and each char that must not be written
/// raw joined in as `chr(N)`, as in `('a' || chr(10) || 'b')`, which reads back as exactly the
/// text. DuckDB reads the same spelling.
pub fn sql_literal(text: &str) -> String {
    if !text.chars().any(escaped_in_literal) {
        return format!("'{}'", text.replace('\'', "''"));
    }
    let mut parts = Vec::new();
    let mut run = String::new();
    for c in text.chars() {
        if escaped_in_literal(c) {
            if !run.is_empty() {
                parts.push(format!("'{}'", run.replace('\'', "''")));
                run.clear();
            }
            parts.push(format!("chr({})", c as u32));
        } else {
            run.push(c);
        }
    }
    if !run.is_empty() {
        parts.push(format!("'{}'", run.replace('\'', "''")));
    }
    format!("({})", parts.join(" || "))
}

/// A Hive (Athena DDL) string literal: `\` doubled, and `'`, `"` and every char that must not
/// be written raw as `\uXXXX` (Hive's own escape), so no quote or backslash-quote pair can
/// end the literal early in either Hive or a standard SQL reader.
pub fn hive_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' | '"' => push_unicode_escape(&mut out, c),
            c if escaped_in_literal(c) => push_unicode_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `\uXXXX`, as a surrogate pair beyond the BMP (Hive reads Java UTF-16 escapes).
fn push_unicode_escape(out: &mut String, c: char) {
    let mut units = [0u16; 2];
    for unit in c.encode_utf16(&mut units) {
        out.push_str(&format!("\\u{unit:04x}"));
    }
}

/// A `-- ` comment line holding `text`: every control character (newline included) and
/// terminal escape made visible, so the comment stays one line and ends where the line does.
pub fn sql_comment(text: &str) -> String {
    format!("-- {}", sanitize(text))
}

/// A table name Athena and Hive take unquoted: lowercase ASCII letters, digits and `_`; every
/// other char becomes `_`, so no quoting context is needed at all.
pub fn sql_identifier(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_double_quotes_and_join_controls_as_chr() {
        assert_eq!(sql_literal("it's"), "'it''s'");
        assert_eq!(
            sql_literal("a\nDROP TABLE x; -- \u{1b}]0;P\u{7}"),
            "('a' || chr(10) || 'DROP TABLE x; -- ' || chr(27) || ']0;P' || chr(7))"
        );
        assert_eq!(sql_literal("\u{202e}"), "(chr(8238))");
    }

    #[test]
    fn hive_literals_escape_quotes_backslashes_and_controls() {
        assert_eq!(hive_literal(r"a'b\c"), r"'a\u0027b\\c'");
        assert_eq!(hive_literal("x\n\u{1b}\"y"), r"'x\u000a\u001b\u0022y'");
        assert_eq!(hive_literal("s3://b/p/"), "'s3://b/p/'");
    }

    #[test]
    fn a_comment_stays_one_line() {
        let c = sql_comment("2026\nDROP TABLE important; -- \u{1b}]0;PWNED\u{7} */");
        assert!(!c.contains('\n') && !c.contains('\u{1b}') && !c.contains('\u{7}'));
        assert!(c.starts_with("-- 2026\\nDROP TABLE"), "{c}");
    }

    #[test]
    fn identifiers_are_lowercase_words() {
        assert_eq!(sql_identifier("ddb_My-Table;\n"), "ddb_my_table__");
    }
}
