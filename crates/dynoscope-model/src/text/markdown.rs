//! Untrusted text (item data, attribute names, service text) made safe for a Markdown
//! document and for the Mermaid diagram inside it: it reads as the text it is and cannot
//! end a table cell, start a heading, a link, code or HTML, close the diagram's code fence, or
//! carry a control or bidi character into the reader's view.

use std::fmt::Write;

use super::escaped::needs_escape;

/// `text` for one Markdown table cell or inline run: every ASCII punctuation mark that
/// Markdown or a forge's renderer reads is backslash-escaped (`|` cannot split the cell), `<`
/// `>` `&` become entities (no HTML), a line break or any character the terminal escaper
/// escapes is written as visible `\u{…}` text.
pub fn markdown_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\\\u{{{:x}}}", u32::from(c));
            }
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
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
#[path = "markdown_tests.rs"]
mod tests;
