//! Completion candidates for key values and attribute names, from keys the explorer has seen.
//!
//! Single-table keys are built from segments (`ORDER#2026-08-27#456`), so a completion stops at
//! the next segment boundary: typing `OR` offers `ORDER#`, then `ORDER#2026-`, then
//! `ORDER#2026-08-`… one level at a time, like a file-name completion stops at each `/`.

use std::collections::BTreeMap;

use super::collection::dynamo_cmp;
use super::value::AttrValue;

/// Characters that end a key segment.
pub const BOUNDARIES: &[char] = &['#', '|', ':', '-', '/', '_'];

/// How key completions are listed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CompletionOrder {
    /// DynamoDB's order of the key values (numbers numerically), as a Query would return them.
    #[default]
    Key,
    /// Most keys behind a completion first, then in key order.
    Count,
}

impl CompletionOrder {
    pub fn toggled(self) -> CompletionOrder {
        match self {
            CompletionOrder::Key => CompletionOrder::Count,
            CompletionOrder::Count => CompletionOrder::Key,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CompletionOrder::Key => "key order",
            CompletionOrder::Count => "by count",
        }
    }
}

/// One completion and how many of the keys it was computed from start with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCompletion {
    pub text: String,
    pub count: usize,
}

/// Up to `max` completions of `typed` among `values`, each cut just after the first boundary
/// past what was typed (or the whole value), in `order`; `numeric` keys order as numbers. A
/// completion equal to `typed` is never offered.
pub fn complete_key<'a>(
    typed: &str,
    values: impl IntoIterator<Item = &'a str>,
    max: usize,
    order: CompletionOrder,
    numeric: bool,
) -> Vec<KeyCompletion> {
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
    // The map is in byte order, which is DynamoDB's for strings.
    let mut ranked: Vec<(&str, usize)> = counts.into_iter().collect();
    if numeric {
        ranked.sort_by(|a, b| dynamo_cmp(&AttrValue::N(a.0.into()), &AttrValue::N(b.0.into())));
    }
    if order == CompletionOrder::Count {
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
    }
    ranked
        .into_iter()
        .take(max)
        .map(|(text, count)| KeyCompletion {
            text: text.to_string(),
            count,
        })
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

    fn texts(completions: Vec<KeyCompletion>) -> Vec<String> {
        completions.into_iter().map(|c| c.text).collect()
    }

    #[test]
    fn completes_one_segment_at_a_time() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["ORDER#", "PROFILE"]),
            ("O", &["ORDER#"]),
            ("ORDER", &["ORDER#"]),
            ("ORDER#", &["ORDER#2025-", "ORDER#2026-"]),
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
            let got = complete_key(typed, SKS.iter().copied(), 10, CompletionOrder::Key, false);
            assert_eq!(texts(got), *want, "typed {typed:?}");
        }
    }

    #[test]
    fn key_order_or_by_count_each_with_its_count_and_capped() {
        let months = [
            "2026-04-01",
            "2026-07-02",
            "2026-02-03",
            "2026-10-04",
            "2026-07-05",
            "2026-07-06",
            "2026-02-07",
        ];
        let got = complete_key("2026-", months, 10, CompletionOrder::Key, false);
        let pairs: Vec<(&str, usize)> = got.iter().map(|c| (c.text.as_str(), c.count)).collect();
        assert_eq!(
            pairs,
            [
                ("2026-02-", 2),
                ("2026-04-", 1),
                ("2026-07-", 3),
                ("2026-10-", 1)
            ]
        );
        let got = complete_key("2026-", months, 2, CompletionOrder::Count, false);
        assert_eq!(texts(got), ["2026-07-", "2026-02-"]);
        let values = ["USER#1", "USER#2", "USER#3", "ORDER#1", "PRODUCT#1"];
        let got = complete_key("", values, 2, CompletionOrder::Count, false);
        assert_eq!(texts(got), ["USER#", "ORDER#"]);
        let pk = ["STATUS#PENDING#0", "STATUS#PENDING#1", "STATUS#SHIPPED"];
        let got = complete_key("STATUS#P", pk, 10, CompletionOrder::Key, false);
        assert_eq!(got[0].count, 2);
        assert_eq!(CompletionOrder::Key.toggled(), CompletionOrder::Count);
    }

    #[test]
    fn numeric_keys_complete_in_numeric_order() {
        let values = ["10", "9", "100", "-5"];
        let got = complete_key("", values, 10, CompletionOrder::Key, true);
        assert_eq!(
            texts(got),
            ["9", "10", "100", "-"],
            "a lone minus is no number"
        );
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
