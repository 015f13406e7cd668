//! Entity prefixes in single-table keys (`USER#123`, `ORDER#2026-08-27#456`).
//!
//! Single-table designs keep several entity types in one table and tell them apart by a literal
//! prefix on the key. Decoding is a heuristic, so it leans towards "no kind" whenever a segment
//! could just as well be data: a wrong kind groups and colours items misleadingly, a missing one
//! only loses a hint.
//!
//! A segment is a kind when it is identifier-like: it starts with an ASCII letter and holds only
//! ASCII letters, digits, `_` and `-`. Starting with a letter rules out numbers, dates, ULIDs and
//! timestamps; hex ids that happen to start with a letter (`a3f9c2e1-…`) are ruled out too. A key
//! with no separator at all (`PROFILE`) is a kind only in upper case, because a lone lower-case
//! word (`alice`, `o9`) is far more often data than a type marker.

use thiserror::Error;

use crate::model::value::{AttrValue, Item};

/// Separators single-table libraries use, in tie-break order.
pub const SEPARATORS: [char; 3] = ['#', '|', ':'];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedKey<'a> {
    pub kind: Option<&'a str>,
    /// Segments after the kind; every segment when there is no kind.
    pub parts: Vec<&'a str>,
}

pub fn decode_key(value: &str, separator: char) -> DecodedKey<'_> {
    // ElectroDB-style keys start with the separator (`#META#x`); it carries no meaning.
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    if body.is_empty() {
        return DecodedKey {
            kind: None,
            parts: Vec::new(),
        };
    }
    let mut segments = body.split(separator);
    let first = segments.next().unwrap_or_default();
    let prefixed = leading || body.contains(separator);
    let is_kind = if prefixed {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    if is_kind {
        DecodedKey {
            kind: Some(first),
            parts: segments.collect(),
        }
    } else {
        DecodedKey {
            kind: None,
            parts: body.split(separator).collect(),
        }
    }
}

fn is_prefix_kind(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_alphabetic())
        && segment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !looks_like_hex_id(segment)
}

fn is_standalone_kind(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
        && segment
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !looks_like_hex_id(segment)
}

// UUIDs, hashes and similar ids: long, only hex digits and dashes, with at least one digit.
fn looks_like_hex_id(segment: &str) -> bool {
    segment.len() >= 8
        && segment.chars().any(|c| c.is_ascii_digit())
        && segment.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// Counts, per candidate, the sampled values it splits into a kind prefix; a separator that
/// merely occurs in the data (the `:` of a timestamp) does not count. Ties and an empty sample
/// fall back to the order of [`SEPARATORS`], so `#` wins.
pub fn infer_separator<'a>(values: impl Iterator<Item = &'a str>) -> char {
    let mut counts = [0usize; SEPARATORS.len()];
    for value in values {
        for (count, &sep) in counts.iter_mut().zip(SEPARATORS.iter()) {
            if value.contains(sep) && decode_key(value, sep).kind.is_some() {
                *count += 1;
            }
        }
    }
    let mut best = 0;
    for (i, &count) in counts.iter().enumerate() {
        if count > counts[best] {
            best = i;
        }
    }
    SEPARATORS[best]
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    #[error("entity template {template:?} has unbalanced or nested braces")]
    UnbalancedBraces { template: String },
    #[error("entity template {template:?} must start with a literal kind, as in USER#{{id}}")]
    MissingKind { template: String },
    #[error("entity template {template:?} has an empty {{}} placeholder")]
    EmptyPlaceholder { template: String },
    #[error("entity template {template:?} names {{{name}}} twice")]
    DuplicatePlaceholder { template: String, name: String },
    #[error(
        "entity template {template:?}: {segment:?} mixes text and a placeholder; \
         a placeholder must be a whole segment, as in #{{id}}"
    )]
    PartialPlaceholder { template: String, segment: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Part,
}

/// A configured key template such as `ORDER#{date}#{orderId}`. The separator is whichever of
/// [`SEPARATORS`] the template uses; literal segments after the kind must match exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityPattern {
    kind: String,
    separator: char,
    segments: Vec<Segment>,
    part_names: Vec<String>,
}

impl EntityPattern {
    pub fn parse(template: &str) -> Result<EntityPattern, PatternError> {
        check_braces(template)?;
        let owned = || template.to_owned();
        let Some(separator) = template.chars().find(|c| SEPARATORS.contains(c)) else {
            if !is_prefix_kind(template) {
                return Err(PatternError::MissingKind { template: owned() });
            }
            return Ok(EntityPattern {
                kind: template.to_owned(),
                separator: SEPARATORS[0],
                segments: Vec::new(),
                part_names: Vec::new(),
            });
        };
        let body = template.strip_prefix(separator).unwrap_or(template);
        let mut pieces = body.split(separator);
        let kind = pieces.next().unwrap_or_default();
        if !is_prefix_kind(kind) {
            return Err(PatternError::MissingKind { template: owned() });
        }
        let mut segments = Vec::new();
        let mut part_names: Vec<String> = Vec::new();
        for piece in pieces {
            if let Some(name) = piece.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                let name = name.trim();
                if name.is_empty() {
                    return Err(PatternError::EmptyPlaceholder { template: owned() });
                }
                if part_names.iter().any(|n| n == name) {
                    return Err(PatternError::DuplicatePlaceholder {
                        template: owned(),
                        name: name.to_owned(),
                    });
                }
                part_names.push(name.to_owned());
                segments.push(Segment::Part);
            } else if piece.contains(['{', '}']) {
                return Err(PatternError::PartialPlaceholder {
                    template: owned(),
                    segment: piece.to_owned(),
                });
            } else {
                segments.push(Segment::Literal(piece.to_owned()));
            }
        }
        Ok(EntityPattern {
            kind: kind.to_owned(),
            separator,
            segments,
            part_names,
        })
    }

    pub fn kind(&self) -> &str {
        &self.kind
    }

    pub fn separator(&self) -> char {
        self.separator
    }

    pub fn part_names(&self) -> &[String] {
        &self.part_names
    }

    /// Placeholders must be non-empty: `USER#` is not an instance of `USER#{id}`.
    pub fn matches(&self, decoded: &DecodedKey) -> bool {
        decoded.kind == Some(self.kind.as_str())
            && decoded.parts.len() == self.segments.len()
            && self
                .segments
                .iter()
                .zip(&decoded.parts)
                .all(|(segment, part)| match segment {
                    Segment::Literal(text) => text == part,
                    Segment::Part => !part.is_empty(),
                })
    }
}

fn check_braces(template: &str) -> Result<(), PatternError> {
    let mut open = false;
    for c in template.chars() {
        match (c, open) {
            ('{', false) => open = true,
            ('}', true) => open = false,
            ('{', true) | ('}', false) => {
                return Err(PatternError::UnbalancedBraces {
                    template: template.to_owned(),
                })
            }
            _ => {}
        }
    }
    if open {
        return Err(PatternError::UnbalancedBraces {
            template: template.to_owned(),
        });
    }
    Ok(())
}

/// FNV-1a rather than std's hasher, whose output is allowed to change between releases and
/// would reshuffle every kind's colour.
pub fn kind_color_index(kind: &str, palette_len: usize) -> usize {
    if palette_len == 0 {
        return 0;
    }
    (fnv1a_64(kind.as_bytes()) % palette_len as u64) as usize
}

fn fnv1a_64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(PRIME)
    })
}

/// The entity kind an item represents. The sort key says what the item is within its
/// collection (`USER#1` / `ORDER#…` is an order), so its kind wins, with one exception: a sort
/// key that is a bare kind with no parts (`PROFILE`, `#META`, `PRODUCT`) marks the collection's
/// own record, so the item is the partition key's entity (a user profile is a USER). Without a
/// usable sort key the partition key's kind is used. Only string keys carry kinds.
///
/// Runs for every loaded item, so it borrows from the item and allocates nothing (decoding the
/// parts, which only the detail view shows, is left to [`decode_key`]).
pub fn item_kind<'a>(
    item: &'a Item,
    pk_name: &str,
    sk_name: Option<&str>,
    separator: char,
) -> Option<&'a str> {
    let kind_of = |name: &str| {
        item.get(name)
            .and_then(AttrValue::as_s)
            .and_then(|s| key_kind(s, separator))
    };
    let pk_kind = kind_of(pk_name).map(|(kind, _)| kind);
    match sk_name.and_then(kind_of) {
        Some((_, false)) if pk_kind.is_some() => pk_kind,
        Some((sk_kind, _)) => Some(sk_kind),
        None => pk_kind,
    }
}

/// [`decode_key`]'s kind, and whether any parts follow it, without collecting the parts.
fn key_kind(value: &str, separator: char) -> Option<(&str, bool)> {
    let (body, leading) = match value.strip_prefix(separator) {
        Some(rest) => (rest, true),
        None => (value, false),
    };
    let (first, has_parts) = match body.split_once(separator) {
        Some((first, _)) => (first, true),
        None => (body, false),
    };
    if body.is_empty() {
        return None;
    }
    let is_kind = if leading || has_parts {
        is_prefix_kind(first)
    } else {
        is_standalone_kind(first)
    };
    is_kind.then_some((first, has_parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `item_kind` runs on `key_kind`, which must agree with the full decoding.
    #[test]
    fn key_kind_agrees_with_decode_key() {
        let keys = [
            "",
            "#",
            "##",
            "USER#123",
            "USER#",
            "#META",
            "#META#x",
            "PROFILE",
            "profile",
            "alice",
            "ORDER#2026-08-27#456",
            "2026-08-27#x",
            "a3f9c2e1-0b1d-4c7e-9d3a-1f2e3d4c5b6a#x",
            "STATUS#PENDING#3",
            "USER|1",
            "A",
            "a#",
            "_x#1",
            "Café#1",
            "#meta",
            "#Order|x",
        ];
        for sep in SEPARATORS {
            for key in keys {
                let decoded = decode_key(key, sep);
                let want = decoded.kind.map(|kind| (kind, !decoded.parts.is_empty()));
                assert_eq!(key_kind(key, sep), want, "{key:?} with {sep:?}");
            }
        }
    }

    #[test]
    fn decodes_keys() {
        let cases: &[(&str, char, Option<&str>, &[&str])] = &[
            ("USER#123", '#', Some("USER"), &["123"]),
            (
                "ORDER#2026-08-27#456",
                '#',
                Some("ORDER"),
                &["2026-08-27", "456"],
            ),
            ("#META#x", '#', Some("META"), &["x"]),
            ("#META", '#', Some("META"), &[]),
            ("PROFILE", '#', Some("PROFILE"), &[]),
            ("USER_SETTINGS", '#', Some("USER_SETTINGS"), &[]),
            ("order-item#7", '#', Some("order-item"), &["7"]),
            ("USER#", '#', Some("USER"), &[""]),
            ("USER|123", '|', Some("USER"), &["123"]),
            ("tenant:acme:42", ':', Some("tenant"), &["acme", "42"]),
            // No prefix: numbers, dates, ids and lone lower-case words.
            ("123", '#', None, &["123"]),
            (
                "2026-08-27#ORDER#456",
                '#',
                None,
                &["2026-08-27", "ORDER", "456"],
            ),
            (
                "3f2b8c1e-9a4d-4e7b-8c2d-1a2b3c4d5e6f",
                '#',
                None,
                &["3f2b8c1e-9a4d-4e7b-8c2d-1a2b3c4d5e6f"],
            ),
            ("a3f9c2e1-9a4d#x", '#', None, &["a3f9c2e1-9a4d", "x"]),
            (
                "01ARZ3NDEKTSV4RRFFQ69G5FAV",
                '#',
                None,
                &["01ARZ3NDEKTSV4RRFFQ69G5FAV"],
            ),
            ("alice", '#', None, &["alice"]),
            ("o9", '#', None, &["o9"]),
            ("", '#', None, &[]),
            ("#", '#', None, &[]),
            ("user name#1", '#', None, &["user name", "1"]),
            // Mixed separators: only the chosen one splits.
            ("USER|123", '#', None, &["USER|123"]),
            ("USER:1#x", '#', None, &["USER:1", "x"]),
            ("USER#1:x", ':', None, &["USER#1", "x"]),
            (
                "2026-01-02T10:00:00Z",
                ':',
                None,
                &["2026-01-02T10", "00", "00Z"],
            ),
        ];
        for (value, sep, kind, parts) in cases {
            let decoded = decode_key(value, *sep);
            assert_eq!(decoded.kind, *kind, "{value:?}");
            assert_eq!(decoded.parts, *parts, "{value:?}");
        }
    }

    #[test]
    fn infers_separator() {
        let cases: &[(&[&str], char)] = &[
            (&[], '#'),
            (&["123", "alice"], '#'),
            (&["USER#1", "ORDER#2"], '#'),
            (&["USER|1", "ORDER|2", "ITEM#3"], '|'),
            (&["tenant:a", "user:b"], ':'),
            (&["USER#1", "USER|1"], '#'),
            (&["USER|1", "USER:1"], '|'),
            // The colons of timestamps are data, not separators.
            (
                &["USER#1", "2026-01-02T10:00:00Z", "2026-01-03T11:00:00Z"],
                '#',
            ),
            (&["#META", "#META#x", "TAG|a"], '#'),
        ];
        for (values, want) in cases {
            assert_eq!(infer_separator(values.iter().copied()), *want, "{values:?}");
        }
    }

    #[test]
    fn parses_patterns() {
        let cases: &[(&str, &str, char, &[&str])] = &[
            ("ORDER#{date}#{orderId}", "ORDER", '#', &["date", "orderId"]),
            ("USER#{id}", "USER", '#', &["id"]),
            ("#META#{ id }", "META", '#', &["id"]),
            ("PROFILE", "PROFILE", '#', &[]),
            ("USER#{id}#PROFILE", "USER", '#', &["id"]),
            ("tenant|{t}", "tenant", '|', &["t"]),
        ];
        for (template, kind, sep, names) in cases {
            let pattern = EntityPattern::parse(template).unwrap();
            assert_eq!(pattern.kind(), *kind, "{template}");
            assert_eq!(pattern.separator(), *sep, "{template}");
            assert_eq!(pattern.part_names(), *names, "{template}");
        }
    }

    #[test]
    fn rejects_bad_patterns() {
        let unbalanced = |t: &str| PatternError::UnbalancedBraces { template: t.into() };
        let missing = |t: &str| PatternError::MissingKind { template: t.into() };
        let cases: &[(&str, PatternError)] = &[
            ("ORDER#{date", unbalanced("ORDER#{date")),
            ("ORDER#date}", unbalanced("ORDER#date}")),
            ("ORDER#{{date}}", unbalanced("ORDER#{{date}}")),
            ("{tenant}#USER#{id}", missing("{tenant}#USER#{id}")),
            ("2026#{id}", missing("2026#{id}")),
            ("", missing("")),
            (
                "ORDER#{}",
                PatternError::EmptyPlaceholder {
                    template: "ORDER#{}".into(),
                },
            ),
            (
                "ORDER#{id}#{id}",
                PatternError::DuplicatePlaceholder {
                    template: "ORDER#{id}#{id}".into(),
                    name: "id".into(),
                },
            ),
            (
                "ORDER#o{id}",
                PatternError::PartialPlaceholder {
                    template: "ORDER#o{id}".into(),
                    segment: "o{id}".into(),
                },
            ),
            (
                "ORDER#{a#b}",
                PatternError::PartialPlaceholder {
                    template: "ORDER#{a#b}".into(),
                    segment: "{a".into(),
                },
            ),
        ];
        for (template, want) in cases {
            assert_eq!(
                EntityPattern::parse(template).unwrap_err(),
                *want,
                "{template}"
            );
        }
        assert!(unbalanced("ORDER#{date")
            .to_string()
            .contains("\"ORDER#{date\""));
    }

    #[test]
    fn matches_decoded_keys() {
        let cases: &[(&str, &str, char, bool)] = &[
            ("ORDER#{date}#{id}", "ORDER#2026-08-27#456", '#', true),
            ("ORDER#{date}#{id}", "ORDER#2026-08-27", '#', false),
            ("ORDER#{date}#{id}", "ORDER#2026-08-27#456#x", '#', false),
            ("ORDER#{date}#{id}", "ORDER##456", '#', false),
            ("ORDER#{date}#{id}", "USER#a#b", '#', false),
            ("USER#{id}#PROFILE", "USER#1#PROFILE", '#', true),
            ("USER#{id}#PROFILE", "USER#1#SETTINGS", '#', false),
            ("#META#{id}", "#META#x", '#', true),
            ("PROFILE", "PROFILE", '#', true),
            ("PROFILE", "PROFILE#1", '#', false),
            ("USER#{id}", "123", '#', false),
            ("tenant|{t}", "tenant|acme", '|', true),
        ];
        for (template, value, sep, want) in cases {
            let pattern = EntityPattern::parse(template).unwrap();
            let decoded = decode_key(value, *sep);
            assert_eq!(pattern.matches(&decoded), *want, "{template} vs {value}");
        }
    }

    #[test]
    fn fnv1a_matches_reference_vectors() {
        let cases: &[(&str, u64)] = &[
            ("", 0xcbf2_9ce4_8422_2325),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("foobar", 0x8594_4171_f739_67e8),
        ];
        for (input, want) in cases {
            assert_eq!(fnv1a_64(input.as_bytes()), *want, "{input:?}");
        }
    }

    #[test]
    fn colour_index_is_stable_and_in_range() {
        let cases: &[(&str, usize, usize)] = &[
            ("", 8, (0xcbf2_9ce4_8422_2325u64 % 8) as usize),
            ("a", 7, (0xaf63_dc4c_8601_ec8cu64 % 7) as usize),
            ("USER", 0, 0),
            ("USER", 1, 0),
        ];
        for (kind, len, want) in cases {
            assert_eq!(kind_color_index(kind, *len), *want, "{kind:?} mod {len}");
        }
        for kind in ["USER", "ORDER", "ITEM", "META"] {
            assert!(kind_color_index(kind, 6) < 6);
            assert_eq!(kind_color_index(kind, 6), kind_color_index(kind, 6));
        }
    }

    fn keyed(pk: AttrValue, sk: Option<AttrValue>) -> Item {
        let mut item = Item::new();
        item.insert("PK", pk);
        if let Some(sk) = sk {
            item.insert("SK", sk);
        }
        item
    }

    #[test]
    fn classifies_items() {
        let s = |v: &str| AttrValue::S(v.into());
        let cases: &[(AttrValue, Option<AttrValue>, char, Option<&str>)] = &[
            (s("USER#1"), Some(s("PROFILE")), '#', Some("USER")),
            (
                s("USER#1"),
                Some(s("ORDER#2026-01-02#o9")),
                '#',
                Some("ORDER"),
            ),
            (s("ORDER#o9"), Some(s("ITEM#1")), '#', Some("ITEM")),
            (s("ORDER#o9"), Some(s("#META")), '#', Some("ORDER")),
            (s("PRODUCT#9"), Some(s("PRODUCT")), '#', Some("PRODUCT")),
            (s("123"), Some(s("456")), '#', None),
            // A bare SK still names the kind when the PK has none.
            (s("123"), Some(s("PROFILE")), '#', Some("PROFILE")),
            (s("USER#1"), Some(s("2026-01-02")), '#', Some("USER")),
            (s("USER#1"), None, '#', Some("USER")),
            (
                s("USER#1"),
                Some(AttrValue::N("7".into())),
                '#',
                Some("USER"),
            ),
            (
                AttrValue::N("1".into()),
                Some(s("ITEM#1")),
                '#',
                Some("ITEM"),
            ),
            (s("USER|1"), Some(s("ORDER|9")), '|', Some("ORDER")),
            // Keys written with another separator decode to no kind at all.
            (s("USER|1"), Some(s("ORDER|9")), '#', None),
        ];
        for (pk, sk, sep, want) in cases {
            let item = keyed(pk.clone(), sk.clone());
            let sk_name = sk.as_ref().map(|_| "SK");
            assert_eq!(
                item_kind(&item, "PK", sk_name, *sep),
                *want,
                "{pk:?} {sk:?}"
            );
        }
        let item = keyed(s("USER#1"), None);
        assert_eq!(item_kind(&item, "PK", Some("SK"), '#'), Some("USER"));
        assert_eq!(item_kind(&item, "missing", None, '#'), None);
    }
}
