//! DynamoDB's reserved words.
//!
//! A bare attribute name that is a reserved word makes DynamoDB reject the whole expression, so
//! we catch it before the request and tell the user to use a `#name` instead. The list is
//! DynamoDB's published one, typos included (`FLATTERN`, `INNTER`, `LOGED`), because DynamoDB
//! rejects exactly those spellings. It lives in `crates/dynoscope-model/assets/reserved-words.txt`, one word per line,
//! so updating it from AWS's page is a paste, not an edit of Rust source.

use std::sync::LazyLock;

/// Upper-case and sorted by byte, so `is_reserved` can binary-search it (a test checks both).
static RESERVED: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    include_str!("../../assets/reserved-words.txt")
        .lines()
        .map(str::trim)
        .filter(|word| !word.is_empty())
        .collect()
});

/// Whether `word` is reserved; DynamoDB matches reserved words case-insensitively.
pub fn is_reserved(word: &str) -> bool {
    RESERVED
        .binary_search_by(|probe| {
            // Compare against the upper-cased word without allocating: the list is upper-case
            // ASCII, so byte-wise upper-casing gives the same order the list is sorted in.
            probe
                .bytes()
                .cmp(word.bytes().map(|b| b.to_ascii_uppercase()))
        })
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_is_sorted_unique_and_upper_case() {
        assert!(
            RESERVED.windows(2).all(|w| w[0] < w[1]),
            "not sorted or has duplicates"
        );
        for word in RESERVED.iter() {
            assert!(
                word.bytes().all(|b| b.is_ascii_uppercase()),
                "'{word}' is not upper-case ASCII"
            );
        }
        assert_eq!(RESERVED.len(), 573);
    }

    /// The loader skips blank lines and trims; the file itself stays one bare word per line.
    #[test]
    fn data_file_is_one_word_per_line() {
        let text = include_str!("../../assets/reserved-words.txt");
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.is_empty() && line.trim() == line,
                "line {}: {line:?}",
                n + 1
            );
        }
        assert_eq!(text.lines().count(), RESERVED.len());
    }

    #[test]
    fn matches_case_insensitively() {
        let cases = [
            ("status", true),
            ("STATUS", true),
            ("Status", true),
            ("abort", true),
            ("zone", true),
            ("name", true),
            ("size", true),
            ("ttl", true),
            ("flattern", true),
            ("Innter", true),
            ("loged", true),
            ("PK", false),
            ("SK", false),
            ("statuses", false),
            ("stat", false),
            ("", false),
            ("ßtatus", false),
            ("gsi1pk", false),
        ];
        for (word, expected) in cases {
            assert_eq!(is_reserved(word), expected, "is_reserved({word:?})");
        }
    }
}
