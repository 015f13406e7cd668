//! Completion candidates for key values and attribute names, from keys the explorer has seen.
//!
//! Single-table keys are built from segments (`ORDER#2026-08-27#456`), so completions are
//! grouped at the next segment boundary: typing `OR` offers the `ORDER#` keys, then
//! `ORDER#2026-`, then `ORDER#2026-08-`… one level at a time, like a file-name completion
//! stops at each `/`. Each completion reaches as far as every key behind it agrees, as a
//! shell's does: when one key is behind `GAME#0ab37cf1-`, its whole UUID is one completion.

use std::borrow::Cow;
use std::collections::BTreeMap;

use unicode_width::UnicodeWidthChar;

use crate::design::collection::dynamo_cmp;
use crate::item::value::AttrValue;
use crate::text::sanitize::{display_width, truncate_display};

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
    /// The longest prefix every key behind this completion shares: what accepting it writes.
    pub text: String,
    pub count: usize,
}

/// Byte length of the longest common prefix of `a` and `b`, on a character boundary.
pub fn shared_prefix(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at)
}

/// Up to `max` completions of `typed` among `values`: the values are grouped by their text up
/// to just after the first boundary past what was typed (or the whole value), and each group
/// completes to the longest prefix all its values share; listed in `order`, `numeric` keys
/// ordered as numbers. A completion equal to `typed` is never offered.
pub fn complete_key<'a>(
    typed: &str,
    values: impl IntoIterator<Item = &'a str>,
    max: usize,
    order: CompletionOrder,
    numeric: bool,
) -> Vec<KeyCompletion> {
    // Per group: its keys and the prefix they all share.
    let mut groups: BTreeMap<&str, (usize, &str)> = BTreeMap::new();
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
        let group = groups
            .entry(&value[..typed.len() + cut])
            .or_insert((0, value));
        group.0 += 1;
        group.1 = &group.1[..shared_prefix(group.1, value)];
    }
    // The map is in byte order, which is DynamoDB's for strings; a group's shared prefix keeps
    // its place, since no group's text is a prefix of another's unless it is a whole key.
    let mut ranked: Vec<(&str, usize)> = groups
        .into_values()
        .map(|(count, shared)| (shared, count))
        .collect();
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
/// the whole text with the word completed, so accepting one is a plain replacement. A name a
/// bare word cannot spell (`State#Date`) completes in backticks, as the filter writes it, and
/// so does a word typed after an opening backtick.
pub fn complete_last_word<'a>(
    text: &str,
    names: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Vec<String> {
    let open_backtick = text.matches('`').count() % 2 == 1;
    let (head, word) = match text.rfind('`') {
        Some(at) if open_backtick => (&text[..at], &text[at + 1..]),
        _ => {
            let start = text
                .char_indices()
                .rev()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.'))
                .map_or(0, |(i, c)| i + c.len_utf8());
            text.split_at(start)
        }
    };
    if word.is_empty() && !open_backtick {
        return Vec::new();
    }
    let mut matches: Vec<&str> = names
        .into_iter()
        .filter(|n| n.starts_with(word) && (*n != word || open_backtick))
        .collect();
    matches.sort_unstable();
    matches.dedup();
    matches
        .into_iter()
        .take(max)
        .map(|n| {
            if open_backtick || !is_bare_name(n) {
                format!("{head}`{n}`")
            } else {
                format!("{head}{n}")
            }
        })
        .collect()
}

/// Whether the builder's filter reads `name` as one attribute without backticks.
fn is_bare_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// `text` in `room` columns, keeping where it departs from the other completions listed: they
/// all start with its first `shared` bytes, so a text too long to fit gives up its start (shown
/// as `…`) rather than the part that tells it apart, starting at the segment that differs.
pub fn differing_part(text: &str, shared: usize, room: usize) -> Cow<'_, str> {
    if display_width(text) <= room || room < 2 {
        return truncate_display(text, room);
    }
    let shared = shared.min(text.len());
    // The start of the longest tail that fits after the `…`.
    let mut used = 0;
    let mut tail = text.len();
    for (at, c) in text.char_indices().rev() {
        used += c.width().unwrap_or(0);
        if used > room - 1 {
            break;
        }
        tail = at;
    }
    // The differing segment from its boundary, but never so far back that the difference
    // itself would be cut off at the end.
    let segment = text[..shared]
        .char_indices()
        .rev()
        .find(|(_, c)| BOUNDARIES.contains(c))
        .map_or(0, |(at, _)| at);
    let near = text[..shared]
        .char_indices()
        .rev()
        .nth(room / 2)
        .map_or(0, |(at, _)| at);
    let start = tail.min(segment.max(near));
    if start == 0 {
        return truncate_display(text, room);
    }
    Cow::Owned(format!("…{}", truncate_display(&text[start..], room - 1)))
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
    fn completes_one_segment_at_a_time_as_far_as_its_keys_agree() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["ORDER#202", "PROFILE"]),
            ("O", &["ORDER#202"]),
            ("ORDER", &["ORDER#202"]),
            ("ORDER#", &["ORDER#2025-01-02#o4", "ORDER#2026-0"]),
            (
                "ORDER#2026-",
                &["ORDER#2026-08-27#o", "ORDER#2026-09-01#o3"],
            ),
            ("ORDER#2026-08-", &["ORDER#2026-08-27#o"]),
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
    fn one_key_behind_a_prefix_completes_whole() {
        let uuid = "GAME#0ab37cf1-5d2e-4c1a-9b7f-3e8d2c6a1f40";
        let values = [uuid, "GAME#1c9e0d44-0000-4000-8000-000000000000"];
        let got = complete_key("GAME#0ab37cf1-", values, 10, CompletionOrder::Key, false);
        assert_eq!(texts(got), [uuid]);
        // Several keys agreeing past the boundary complete as far as they agree, multi-byte
        // characters kept whole.
        let values = ["C#Zürich#1", "C#Zürich#2", "C#Zuhause"];
        let got = complete_key("C#", values, 10, CompletionOrder::Key, false);
        assert_eq!(texts(got), ["C#Zuhause", "C#Zürich#"]);
        // `ü` and `ö` share their first byte.
        let got = complete_key("X", ["X#ü1", "X#ö1"], 10, CompletionOrder::Key, false);
        assert_eq!(texts(got), ["X#"]);
        // A whole key that is also the start of longer ones stays its own completion.
        let got = complete_key("A", ["AB", "AB#1", "AB#2"], 10, CompletionOrder::Key, false);
        assert_eq!(texts(got), ["AB", "AB#"]);
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
                ("2026-02-0", 2),
                ("2026-04-01", 1),
                ("2026-07-0", 3),
                ("2026-10-04", 1)
            ]
        );
        let got = complete_key("2026-", months, 2, CompletionOrder::Count, false);
        assert_eq!(texts(got), ["2026-07-0", "2026-02-0"]);
        let values = ["USER#1", "USER#2", "USER#3", "ORDER#1", "PRODUCT#1"];
        let got = complete_key("", values, 2, CompletionOrder::Count, false);
        assert_eq!(texts(got), ["USER#", "ORDER#1"]);
        let pk = ["STATUS#PENDING#0", "STATUS#PENDING#1", "STATUS#SHIPPED"];
        let got = complete_key("STATUS#P", pk, 10, CompletionOrder::Key, false);
        assert_eq!(got[0].count, 2);
        assert_eq!(CompletionOrder::Key.toggled(), CompletionOrder::Count);
    }

    #[test]
    fn long_completions_show_the_part_that_differs() {
        let head = "$task-manager#country_united states#";
        let items: Vec<String> = ["region_1", "region_2", "region_3"]
            .iter()
            .map(|r| format!("{head}{r}"))
            .collect();
        let shared = items
            .iter()
            .fold(items[0].len(), |n, i| n.min(shared_prefix(&items[0], i)));
        let shown: Vec<String> = items
            .iter()
            .map(|i| differing_part(i, shared, 20).into_owned())
            .collect();
        assert_eq!(
            shown,
            [
                "…ted states#region_1",
                "…ted states#region_2",
                "…ted states#region_3"
            ]
        );
        assert!(shown.iter().all(|s| display_width(s) <= 20));
        // A differing segment longer than the room: from near the difference, cut at the end.
        let a = format!("{head}{}", "x".repeat(40));
        let b = format!("{head}{}y", "x".repeat(39));
        let shared = shared_prefix(&a, &b);
        let shown = differing_part(&b, shared, 12);
        assert!(shown.starts_with('…') && shown.contains('y'), "{shown}");
        assert!(display_width(&shown) <= 12, "{shown}");
        // What fits is shown whole; a difference near the start keeps the start.
        assert_eq!(differing_part("USER#1", 5, 20), "USER#1");
        assert_eq!(differing_part(&a, 2, 10), truncate_display(&a, 10));
    }

    #[test]
    fn numeric_keys_complete_in_numeric_order() {
        let values = ["10", "9", "100", "-5", "-12", "-3.5"];
        let got = complete_key("", values, 10, CompletionOrder::Key, true);
        assert_eq!(
            texts(got),
            ["9", "10", "100", "-"],
            "a lone minus is no number"
        );
        let got = complete_key("", ["10", "-5"], 10, CompletionOrder::Key, true);
        assert_eq!(texts(got), ["-5", "10"], "one negative key completes whole");
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
        // Names a bare word cannot spell complete in backticks.
        let names = ["State#Date", "Status", "order id"];
        assert_eq!(
            complete_last_word("Sta", names, 5),
            ["`State#Date`", "Status"]
        );
        assert_eq!(
            complete_last_word("x = 1 and `State#", names, 5),
            ["x = 1 and `State#Date`"]
        );
        assert_eq!(complete_last_word("`or", names, 5), ["`order id`"]);
        assert_eq!(
            complete_last_word("`a` = 1 and ord", names, 5),
            ["`a` = 1 and `order id`"]
        );
    }
}
