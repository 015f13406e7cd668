//! Words for the command lines dynoscope prints to be pasted into a shell.
//!
//! Every printer of a command (aws-cli lines, `dynoscope scan --export …`) quotes each value
//! with [`shell_word`], so what the shell hands the program is byte for byte the value, and
//! nothing in it is written raw to the terminal that shows the command.

use crate::text::sanitize::needs_escape;

/// `text` as one POSIX shell word: as is when every character is inert in a shell (names,
/// ARNs, `s3://` paths); single-quoted when it holds only printable text; and in bash's
/// `$'…'` quoting when it holds a control character, an escape or an invisible or bidi
/// character, each written as its UTF-8 bytes (`\x0a`), which every locale reads back alike.
/// The terminal sanitiser would otherwise show such a character as `\n` inside plain single
/// quotes, and the pasted command would send those two characters instead.
pub fn shell_word(text: &str) -> String {
    let inert = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(c, '_' | '-' | '.' | ':' | '/' | '@' | '+' | '=' | ',')
    };
    if !text.is_empty() && text.chars().all(inert) {
        return text.to_string();
    }
    if !text.chars().any(needs_escape) {
        return format!("'{}'", text.replace('\'', r"'\''"));
    }
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            c if needs_escape(c) => {
                let mut bytes = [0u8; 4];
                for b in c.encode_utf8(&mut bytes).bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
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
            ("a\nb", r"$'a\x0ab'"),
            ("it's\t\\", r"$'it\'s\x09\\'"),
            ("\u{1b}]0;x\u{7}", r"$'\x1b]0;x\x07'"),
            ("漢\u{202e}", r"$'漢\xe2\x80\xae'"),
        ];
        for (text, want) in cases {
            assert_eq!(shell_word(text), want, "{text:?}");
        }
    }

    /// What bash hands `printf` is byte for byte the value, for every kind of character.
    #[test]
    fn bash_reads_each_word_back_as_the_exact_bytes() {
        let values = [
            "plain",
            "it's a \"test\"",
            "new\nline\r\n\ttab",
            "\u{1b}]0;PWNED\u{7}\u{1b}[2J",
            "back\\slash \\' \\x41 \\u0041",
            "$(touch /tmp/x) `id` $HOME !! *?[a]",
            "\u{7f}\u{85}\u{9b}\u{202e}\u{2028}\u{feff}漢字🦀",
            "",
        ];
        let script: String = values
            .iter()
            .map(|v| format!("printf '%s\\0' {}\n", shell_word(v)))
            .collect();
        let out = std::process::Command::new("bash")
            .args(["--norc", "--noprofile", "-c", &script])
            .env("LC_ALL", "C")
            .output()
            .expect("run bash");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let want: Vec<u8> = values.iter().flat_map(|v| v.bytes().chain([0])).collect();
        assert_eq!(out.stdout, want, "{script}");
    }

    /// The printers of aws-cli commands quote through `shell_word`: a control character in a
    /// value is `$'…'`-quoted, not left raw for the terminal sanitiser to show as `\n`.
    #[test]
    fn printed_commands_quote_control_characters_for_bash() {
        let cmd = crate::query::partiql::dialects::execute_statement("SELECT * FROM \"a\nb\"", &[]);
        assert_eq!(
            cmd,
            r#"aws dynamodb execute-statement --statement $'SELECT * FROM "a\x0ab"'"#
        );
        let pitr = crate::exports::export_start::pitr_off_message("t\u{1b}[2J");
        assert!(pitr.contains(r"--table-name $'t\x1b[2J'"), "{pitr}");
    }
}
