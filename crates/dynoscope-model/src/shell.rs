//! Words for the command lines dynoscope prints to be pasted into a shell.

/// `text` as one POSIX shell word: as is when every character is inert in a shell (names,
/// ARNs, `s3://` paths), else single-quoted.
pub fn shell_word(text: &str) -> String {
    let inert = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(c, '_' | '-' | '.' | ':' | '/' | '@' | '+' | '=' | ',')
    };
    if !text.is_empty() && text.chars().all(inert) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::shell_word;

    #[test]
    fn inert_words_stay_bare_and_the_rest_is_quoted() {
        let cases = [
            ("app", "app"),
            (
                "arn:aws:dynamodb:us-east-1:1:table/app",
                "arn:aws:dynamodb:us-east-1:1:table/app",
            ),
            (
                "ExportFromTime=2026-01-01T00:00:00Z,ExportViewType=NEW_AND_OLD_IMAGES",
                "ExportFromTime=2026-01-01T00:00:00Z,ExportViewType=NEW_AND_OLD_IMAGES",
            ),
            ("", "''"),
            ("a b", "'a b'"),
            ("it's", r"'it'\''s'"),
            ("$(rm -rf ~)", "'$(rm -rf ~)'"),
            ("*", "'*'"),
        ];
        for (text, want) in cases {
            assert_eq!(shell_word(text), want, "{text}");
        }
    }
}
