//! Credentials written into a URL (`http://user:secret@host:8000`) are masked wherever an
//! endpoint is shown: messages, the title bar, the log. One function, for a single URL and for
//! free text alike.

use std::borrow::Cow;

const MASK: &str = "***";

/// `scheme://user:pass@host…` becomes `scheme://***@host…`, for every URL in `text`.
pub fn redact_userinfo(text: &str) -> Cow<'_, str> {
    if !text.contains('@') || !text.contains("://") {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(at) = rest.find("://") {
        let authority_start = at + 3;
        out.push_str(&rest[..authority_start]);
        let after = &rest[authority_start..];
        // The authority ends where the path, query or fragment starts, or the text around
        // the URL resumes.
        let end = after
            .find(|c: char| {
                matches!(c, '/' | '?' | '#' | '\'' | '"' | '<' | '>') || c.is_whitespace()
            })
            .unwrap_or(after.len());
        let authority = &after[..end];
        match authority.rfind('@') {
            Some(userinfo_end) => {
                out.push_str(MASK);
                out.push_str(&authority[userinfo_end..]);
                changed = true;
            }
            None => out.push_str(authority),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_is_masked_and_nothing_else_changes() {
        let cases = [
            (
                "http://user:pass@127.0.0.1:8000",
                "http://***@127.0.0.1:8000",
            ),
            ("http://user@localhost/", "http://***@localhost/"),
            (
                "https://a:b@c@host:1/p?q=x@y#f",
                "https://***@host:1/p?q=x@y#f",
            ),
            (
                "cannot reach DynamoDB at http://u:p@127.0.0.1:9: refused (see http://x:y@h/)",
                "cannot reach DynamoDB at http://***@127.0.0.1:9: refused (see http://***@h/)",
            ),
            (
                "bad endpoint URL 'ftp://u:s3cret@localhost'",
                "bad endpoint URL 'ftp://***@localhost'",
            ),
            ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
            (
                "mail me at a@b.c about http://host/x@y",
                "mail me at a@b.c about http://host/x@y",
            ),
            ("no url", "no url"),
        ];
        for (input, want) in cases {
            assert_eq!(redact_userinfo(input), want, "{input}");
        }
        assert!(matches!(
            redact_userinfo("http://h:1/a@b"),
            Cow::Borrowed(_)
        ));
    }
}
