//! The one way a line reaches stderr. Notes, progress and errors quote table names, attribute
//! names, endpoints and service messages, and any of those may hold escape sequences (an
//! attribute named `\x1b]52;c;…\x07` writes the clipboard of whoever reads the note). Every
//! line passes the sanitiser here, with credentials in URLs masked; `tests/layers.rs` checks
//! that nothing else in `src/` writes to stderr.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::model::text::redact::redact_userinfo;
use crate::model::text::sanitize::sanitize;
use crate::model::text::shorten::shorten_quoted_values;

/// Writes `line` (one line: a newline in it is shown as `\n`) to stderr. A failed write is
/// ignored (`eprintln!` would panic, e.g. on a terminal that hung up): the exit code still
/// tells.
pub fn say(line: &str) {
    let _ = say_to(&mut io::stderr().lock(), line);
}

/// [`say`] to any writer, for tests.
pub fn say_to(out: &mut impl Write, line: &str) -> io::Result<()> {
    let line = redact_userinfo(line);
    // A value pasted by mistake (a 20 KB key) must not bury the sentence that says the fix.
    let line = if line.len() > LONG_LINE {
        Cow::Owned(shorten_quoted_values(&line, QUOTED_MAX))
    } else {
        line
    };
    writeln!(out, "{}", sanitize(&line))
}

/// Lines longer than this have their long quoted values shortened to [`QUOTED_MAX`] chars.
const LONG_LINE: usize = 300;
const QUOTED_MAX: usize = 80;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_line_on_stderr_holds_no_control_character(line in any::<String>()) {
            let mut out = Vec::new();
            say_to(&mut out, &line).unwrap();
            let text = String::from_utf8(out).unwrap();
            let (body, end) = text.split_at(text.len() - 1);
            prop_assert_eq!(end, "\n");
            prop_assert!(!body.chars().any(crate::model::text::sanitize::needs_escape), "{:?}", body);
        }
    }

    #[test]
    fn credentials_in_a_url_are_masked() {
        let mut out = Vec::new();
        say_to(
            &mut out,
            "at http://me:secret@127.0.0.1:8000 \u{1b}]0;t\u{7}",
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "at http://***@127.0.0.1:8000 \\x1b]0;t\\x07\n"
        );
    }
}
