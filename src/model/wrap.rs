//! Wrapping a line of text at a column width, character by character (JSON strings have no
//! words worth keeping whole). The detail view splits its lines at these points and `update`
//! counts the rows with them, so scrolling stops exactly at the last row drawn.

use unicode_width::UnicodeWidthChar;

/// Byte offsets where the rows of `text` start when wrapped at `width` columns (at least one
/// row; a character wider than the room left starts the next row).
pub fn row_starts(text: &str, width: usize) -> Vec<usize> {
    let width = width.max(1);
    let mut starts = vec![0];
    let mut used = 0;
    for (at, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > width && used > 0 {
            starts.push(at);
            used = 0;
        }
        used += w;
    }
    starts
}

/// Rows `text` takes wrapped at `width` columns.
pub fn row_count(text: &str, width: usize) -> usize {
    row_starts(text, width).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_by_display_width() {
        assert_eq!(row_starts("", 4), [0]);
        assert_eq!(row_starts("abcd", 4), [0]);
        assert_eq!(row_starts("abcdefghij", 4), [0, 4, 8]);
        // A wide character that does not fit starts the next row.
        assert_eq!(row_starts("abc日本", 4), [0, 3]);
        assert_eq!(row_starts("abc日本x", 4), [0, 3, 9], "byte offsets");
        assert_eq!(
            row_count("日本語", 1),
            3,
            "a character wider than a row gets its own"
        );
        assert_eq!(row_count("abc", 0), 3);
    }
}
