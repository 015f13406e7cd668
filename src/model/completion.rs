//! Completion candidates for key values and attribute names, from keys the explorer has seen.
//!
//! Single-table keys are built from segments (`ORDER#2026-08-27#456`), so a completion stops at
//! the next segment boundary: typing `OR` offers `ORDER#`, then `ORDER#2026-`, then
//! `ORDER#2026-08-`… one level at a time, like a file-name completion stops at each `/`.

use std::collections::BTreeMap;

/// Characters that end a key segment.
pub const BOUNDARIES: &[char] = &['#', '|', ':', '-', '/', '_'];

/// Up to `max` completions of `typed` among `values`, each cut just after the first boundary
/// past what was typed (or the whole value), most common first, then alphabetical. A
/// completion equal to `typed` is never offered.
pub fn complete_key<'a>(
    typed: &str,
    values: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for value in values {
        let Some(rest) = value.strip_prefix(typed) else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        // Cut just after the first boundary (a boundary right at the cursor is its own step).
        let cut = rest
            .char_indices()
            .find(|(_, c)| BOUNDARIES.contains(c))
            .map_or(rest.len(), |(i, c)| i + c.len_utf8());
        *counts.entry(&value[..typed.len() + cut]).or_default() += 1;
    }
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    ranked
        .into_iter()
        .take(max)
        .map(|(v, _)| v.to_string())
        .collect()
}

/// Completions of the word being typed at the end of `text` among attribute `names`; returns
/// the whole text with the word completed, so accepting one is a plain replacement.
pub fn complete_last_word<'a>(
    text: &str,
    names: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (head, word) = text.split_at(start);
    if word.is_empty() {
        return Vec::new();
    }
    let mut matches: Vec<&str> = names
        .into_iter()
        .filter(|n| n.starts_with(word) && *n != word)
        .collect();
    matches.sort_unstable();
    matches.dedup();
    matches
        .into_iter()
        .take(max)
        .map(|n| format!("{head}{n}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SKS: &[&str] = &[
        "ORDER#2026-08-27#o1",
        "ORDER#2026-08-27#o2",
        "ORDER#2026-09-01#o3",
        "ORDER#2025-01-02#o4",
        "PROFILE",
    ];

    #[test]
    fn completes_one_segment_at_a_time() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["ORDER#", "PROFILE"]),
            ("O", &["ORDER#"]),
            ("ORDER", &["ORDER#"]),
            ("ORDER#", &["ORDER#2026-", "ORDER#2025-"]),
            ("ORDER#2026-", &["ORDER#2026-08-", "ORDER#2026-09-"]),
            ("ORDER#2026-08-", &["ORDER#2026-08-27#"]),
            (
                "ORDER#2026-08-27#",
                &["ORDER#2026-08-27#o1", "ORDER#2026-08-27#o2"],
            ),
            ("ORDER#2026-08-27#o1", &[]),
            ("X", &[]),
        ];
        for (typed, want) in cases {
            assert_eq!(
                complete_key(typed, SKS.iter().copied(), 10),
                *want,
                "typed {typed:?}"
            );
        }
    }

    #[test]
    fn most_common_first_and_capped() {
        let values = ["USER#1", "USER#2", "USER#3", "ORDER#1", "PRODUCT#1"];
        assert_eq!(complete_key("", values, 2), ["USER#", "ORDER#"]);
        let pk = ["STATUS#PENDING#0", "STATUS#PENDING#1", "STATUS#SHIPPED"];
        assert_eq!(complete_key("STATUS#P", pk, 10), ["STATUS#PENDING#"]);
    }

    #[test]
    fn attribute_names_complete_the_last_word() {
        let names = ["status", "stock", "total", "address.city"];
        assert_eq!(complete_last_word("st", names, 5), ["status", "stock"]);
        assert_eq!(
            complete_last_word("total > 1 and sta", names, 5),
            ["total > 1 and status"]
        );
        assert_eq!(
            complete_last_word("status = ", names, 5),
            Vec::<String>::new()
        );
        assert_eq!(complete_last_word("status", names, 5), Vec::<String>::new());
    }
}
