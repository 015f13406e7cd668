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

/// `text` wrapped at `width` columns between words; a word longer than a row is split.
pub fn word_wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let mut used = 0;
    for word in text.split_whitespace() {
        let w = crate::text::sanitize::display_width(word);
        if used > 0 && used + 1 + w > width {
            rows.push(std::mem::take(&mut row));
            used = 0;
        }
        if w > width {
            // Alone on its rows, split by characters.
            if used > 0 {
                rows.push(std::mem::take(&mut row));
            }
            let starts = row_starts(word, width);
            for (i, &from) in starts.iter().enumerate() {
                let to = starts.get(i + 1).copied().unwrap_or(word.len());
                rows.push(word[from..to].to_string());
            }
            row = rows.pop().unwrap_or_default();
            used = crate::text::sanitize::display_width(&row);
            continue;
        }
        if used > 0 {
            row.push(' ');
            used += 1;
        }
        row.push_str(word);
        used += w;
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows
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

    #[test]
    fn wraps_between_words() {
        assert_eq!(
            word_wrap("Launch a parallel scan with a cost estimate", 20),
            ["Launch a parallel", "scan with a cost", "estimate"]
        );
        assert_eq!(word_wrap("", 10), [""]);
        assert_eq!(
            word_wrap("a verylongword b", 5),
            ["a", "veryl", "ongwo", "rd b"]
        );
    }
}
