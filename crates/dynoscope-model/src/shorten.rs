//! Quoted values in messages, kept to a readable length: an error quoting a 20 KB input is
//! one screenful of that input and hides the sentence around it.

/// `text` when at most `max` characters, else its first `max` characters, an ellipsis and the
/// whole length: `'aaaa…' (20000 characters)` reads as a cut, not as the value.
pub fn shorten_quoted(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    format!("{head}… ({count} characters)")
}

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
    if super::sanitize::display_width(text) <= width {
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
        assert_eq!(crate::sanitize::display_width(&cut), 80, "{cut}");
        assert!(cut.starts_with("Scan failed: ca"), "{cut}");
        assert!(
            cut.ends_with("Connection refused (os error 111) — loaded items kept; n resumes"),
            "{cut}"
        );
        assert_eq!(
            crate::sanitize::display_width(&fit_middle("漢字漢字漢字", 5)),
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
    fn long_values_are_cut_with_their_length() {
        assert_eq!(shorten_quoted("short", 80), "short");
        let long = "é".repeat(20_000);
        let cut = shorten_quoted(&long, 80);
        assert_eq!(cut, format!("{}… (20000 characters)", "é".repeat(80)));
    }
}
