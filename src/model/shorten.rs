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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_with_their_length() {
        assert_eq!(shorten_quoted("short", 80), "short");
        let long = "é".repeat(20_000);
        let cut = shorten_quoted(&long, 80);
        assert_eq!(cut, format!("{}… (20000 characters)", "é".repeat(80)));
    }
}
