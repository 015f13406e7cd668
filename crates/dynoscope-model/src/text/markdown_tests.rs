use super::*;

#[test]
fn a_cell_cannot_be_split_broken_or_turned_into_markup() {
    let hostile = "a|b\nc`d]e\"f\u{1b}[2Jg\u{202e}h<script>";
    let cell = markdown_cell(hostile);
    assert!(!cell.contains('\n'));
    assert!(!cell.contains('\u{1b}') && !cell.contains('\u{202e}'));
    // Every `|` left is escaped, so the row keeps its cells.
    assert_eq!(cell.matches('|').count(), cell.matches("\\|").count());
    assert!(cell.contains("\\`") && cell.contains("\\]") && cell.contains("&lt;script&gt;"));
    assert_eq!(markdown_cell("plain name 42"), "plain name 42");
}

#[test]
fn a_mermaid_label_holds_no_quote_bracket_or_control() {
    let label = mermaid_label("x\"]; A-->B\n```\u{202e}");
    for c in ['"', ']', '[', '\n', '`', '>', '\u{202e}'] {
        assert!(!label.contains(c), "{c:?} in {label}");
    }
    assert_eq!(mermaid_label("USER"), "USER");
}
