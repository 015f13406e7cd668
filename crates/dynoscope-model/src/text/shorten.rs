//! Quoted values in messages, kept to a readable length: an error quoting a 20 KB input is
//! one screenful of that input and hides the sentence around it.

/// `text` when at most `max` characters, else its first `max` characters, an ellipsis and the
/// whole length: `'aaaa…' (20000 characters)` reads as a cut, not as the value. A path or key
/// (a `/` and no space) is kept whole up to [`PATH_KEPT`] characters: an error about a file is
/// only useful with the path to open or fetch, and a real path is never longer (Linux's
/// PATH_MAX is 4,096 bytes, an S3 key at most 1,024). A longer one is no path anyone typed, and
/// loses its middle, keeping its end, the file's own name.
pub fn shorten_quoted(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let path = text.contains('/') && !text.contains(char::is_whitespace);
    if path && count <= PATH_KEPT {
        return text.to_string();
    }
    if let Some(slash) = text.rfind('/').filter(|_| path) {
        // The name is kept whole up to the longest a file name has on disk (255 bytes).
        let name = &text[slash..];
        let name_chars = name.chars().count().min(NAME_KEPT);
        let tail: String = name
            .chars()
            .skip(name.chars().count() - name_chars)
            .collect();
        let head: String = text
            .chars()
            .take(max.saturating_sub(name_chars).max(PATH_HEAD_MIN))
            .collect();
        return format!("{head}…{tail} ({count} characters)");
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({count} characters)")
}

/// The longest path [`shorten_quoted`] keeps whole.
pub const PATH_KEPT: usize = 4096;

/// The most of a path's last segment [`shorten_quoted`] keeps, and the least of its start.
const NAME_KEPT: usize = 256;
const PATH_HEAD_MIN: usize = 20;

/// A message with every single-quoted value longer than `max` characters shortened by
/// [`shorten_quoted`]. A quote opens after a non-alphanumeric character (or at the start) and
/// closes before one (or at the end), so the apostrophe in "DynamoDB's" opens nothing. An
/// unclosed quote is left as it is.
pub fn shorten_quoted_values(message: &str, max: usize) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(4096));
    let mut i = 0;
    while i < chars.len() {
        let opens = chars[i] == '\''
            && (i == 0 || !chars[i - 1].is_alphanumeric())
            && chars.get(i + 1).is_some();
        let close = opens.then(|| {
            (i + 1..chars.len()).find(|&j| {
                chars[j] == '\'' && chars.get(j + 1).is_none_or(|c| !c.is_alphanumeric())
            })
        });
        match close.flatten() {
            Some(j) if j - i - 1 > max => {
                let value: String = chars[i + 1..j].iter().collect();
                out.push('\'');
                out.push_str(&shorten_quoted(&value, max));
                out.push('\'');
                i = j + 1;
            }
            _ => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

/// `text` cut to `width` display columns by taking out its middle: an error's beginning
/// names what failed and its end the cause ("Connection refused") and what to do, so both
/// ends are kept.
pub fn fit_middle(text: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    if crate::text::sanitize::display_width(text) <= width {
        return text.to_string();
    }
    if width < 2 {
        return "…".chars().take(width).collect();
    }
    let head_room = ((width - 1) / 5).min(20);
    let mut tail_room = width - 1 - head_room;
    let mut head = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > head_room {
            break;
        }
        used += w;
        head.push(c);
    }
    tail_room += head_room - used;
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > tail_room {
            break;
        }
        used += w;
        tail.push(c);
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_middle_goes_and_both_ends_stay() {
        let text = "Scan failed: cannot reach DynamoDB at http://127.0.0.1:8000: connection failed: Connection refused (os error 111) — loaded items kept; n resumes";
        assert_eq!(fit_middle(text, 500), text);
        let cut = fit_middle(text, 80);
        assert_eq!(crate::text::sanitize::display_width(&cut), 80, "{cut}");
        assert!(cut.starts_with("Scan failed: ca"), "{cut}");
        assert!(
            cut.ends_with("Connection refused (os error 111) — loaded items kept; n resumes"),
            "{cut}"
        );
        assert_eq!(
            crate::text::sanitize::display_width(&fit_middle("漢字漢字漢字", 5)),
            5
        );
    }

    #[test]
    fn quoted_values_in_a_message_are_cut_and_the_rest_kept() {
        let long = "x".repeat(20_000);
        let message = format!("invalid value '{long}' for '--timeout <SECS>': out of range");
        assert_eq!(
            shorten_quoted_values(&message, 80),
            format!(
                "invalid value '{}… (20000 characters)' for '--timeout <SECS>': out of range",
                "x".repeat(80)
            )
        );
        let apostrophe = format!("DynamoDB's limit: '{long}'");
        assert!(shorten_quoted_values(&apostrophe, 80).starts_with("DynamoDB's limit: 'xxx"));
        assert!(shorten_quoted_values(&apostrophe, 80).ends_with("(20000 characters)'"));
        assert_eq!(shorten_quoted_values("it's 'short'", 80), "it's 'short'");
        assert_eq!(
            shorten_quoted_values("open 'never closed", 3),
            "open 'never closed"
        );
    }

    #[test]
    fn a_path_is_kept_whole() {
        let prefix = "p".repeat(120);
        let path = format!(
            "{prefix}/AWSDynamoDB/01700000000000-abcd1234/data/140d9730c3af33ad58cf53726f.json.gz"
        );
        assert_eq!(shorten_quoted(&path, 80), path);
        let message = format!("data file '{path}' is missing; {}", "x ".repeat(200));
        assert!(shorten_quoted_values(&message, 80).contains(&format!("'{path}'")));
        let s3 = format!("s3://bucket/{}/data/e87d5e88.json.gz", "k".repeat(1000));
        assert_eq!(shorten_quoted(&s3, 80), s3);
        // A sentence with a slash in it is not a path: cut at its end as before.
        let sentence = format!("a / b {}", "c".repeat(100));
        assert!(shorten_quoted(&sentence, 80).ends_with("c… (106 characters)"));
    }

    #[test]
    fn a_value_longer_than_any_path_keeps_its_file_name() {
        let path = format!(
            "{}/data/140d9730c3af33ad58cf53726f.json.gz",
            "p/".repeat(3000)
        );
        let cut = shorten_quoted(&path, 80);
        assert!(
            cut.ends_with("…/140d9730c3af33ad58cf53726f.json.gz (6040 characters)"),
            "{cut}"
        );
        assert!(cut.starts_with("p/p/p/"), "{cut}");
        assert!(cut.chars().count() < 80 + 30, "{cut}");
    }

    #[test]
    fn long_values_are_cut_with_their_length() {
        assert_eq!(shorten_quoted("short", 80), "short");
        let long = "é".repeat(20_000);
        let cut = shorten_quoted(&long, 80);
        assert_eq!(cut, format!("{}… (20000 characters)", "é".repeat(80)));
    }
}
