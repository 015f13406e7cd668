//! A pattern's parameters drawn from a stored item: its key templates read backwards
//! (`USER#{id}` against `USER#u42` gives `id = u42`), so a check runs each pattern on keys the
//! table really holds instead of values someone has to invent.

use std::collections::BTreeMap;

use crate::design::access_pattern::{AccessPattern, SortTemplate, SHARD_PARAM};
use crate::item::value::{AttrValue, Item};

enum Part<'a> {
    Text(&'a str),
    Param(&'a str),
}

fn parts(template: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            out.push(Part::Text(&rest[..open]));
        }
        out.push(Part::Param(&rest[open + 1..open + close]));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    out
}

/// Fills `params` so that `template` spells `text`; with `prefix`, so that it spells a prefix
/// of `text` (a `begins_with` or a range bound: the stored value itself is a fine bound).
/// A parameter takes the shortest non-empty text before the literal after it; the last takes
/// the rest. `false` when the text does not fit, or a parameter met twice disagrees.
pub fn match_template(
    template: &str,
    text: &str,
    prefix: bool,
    params: &mut BTreeMap<String, String>,
) -> bool {
    let parts = parts(template);
    let mut rest = text;
    for (i, part) in parts.iter().enumerate() {
        match part {
            Part::Text(literal) => match rest.strip_prefix(literal) {
                Some(after) => rest = after,
                None => return false,
            },
            Part::Param(name) => {
                let value = match parts.get(i + 1) {
                    Some(Part::Text(next)) => match rest.get(1..).and_then(|r| r.find(next)) {
                        Some(at) => &rest[..at + 1],
                        None => return false,
                    },
                    // Two placeholders side by side cannot be told apart: the first takes
                    // one character.
                    Some(Part::Param(_)) => match rest.chars().next() {
                        Some(c) => &rest[..c.len_utf8()],
                        None => return false,
                    },
                    None => rest,
                };
                if value.is_empty() {
                    return false;
                }
                match params.get(*name) {
                    Some(seen) if seen != value => return false,
                    _ => {
                        params.insert(name.to_string(), value.to_string());
                    }
                }
                rest = &rest[value.len()..];
            }
        }
    }
    prefix || rest.is_empty()
}

/// A key attribute's text as a template compares it: S and N as written; B never matches.
fn key_text(item: &Item, name: &str) -> Option<String> {
    match item.get(name)? {
        AttrValue::S(s) | AttrValue::N(s) => Some(s.clone()),
        _ => None,
    }
}

/// The parameters that make `pattern` read `item`, whose key attributes are named `pk` and
/// `sk` in key-schema order (the index's, several on a multi-attribute GSI, or the attributes
/// a missing index would have), or `None` when the item does not fit the pattern's templates:
/// each partition template spells its attribute, each `sk_eq` template its sort attribute, and
/// `sk` the one after them.
pub fn params_from_item(
    pattern: &AccessPattern,
    pk: &[String],
    sk: &[String],
    item: &Item,
) -> Option<BTreeMap<String, String>> {
    let mut params = BTreeMap::new();
    if pattern.pk.len() != pk.len() {
        return None;
    }
    for (template, attribute) in pattern.pk.iter().zip(pk) {
        if !match_template(template, &key_text(item, attribute)?, false, &mut params) {
            return None;
        }
    }
    for (i, template) in pattern.sk_eq.iter().enumerate() {
        let stored = key_text(item, sk.get(i)?)?;
        if !match_template(template, &stored, false, &mut params) {
            return None;
        }
    }
    if let Some(sort) = &pattern.sk {
        let stored = key_text(item, sk.get(pattern.sk_eq.len())?)?;
        let (exact, templates): (bool, Vec<&String>) = match sort {
            SortTemplate::Eq(v) => (true, vec![v]),
            SortTemplate::Between([a, b]) => (false, vec![a, b]),
            SortTemplate::Lt(v)
            | SortTemplate::Le(v)
            | SortTemplate::Gt(v)
            | SortTemplate::Ge(v)
            | SortTemplate::BeginsWith(v) => (false, vec![v]),
        };
        for template in templates {
            // A template that does not spell the stored value (a literal bound such as
            // `ORDER#`) needs nothing from it; its parameters must then come from elsewhere.
            let mut tried = params.clone();
            if match_template(template, &stored, !exact, &mut tried) {
                params = tried;
            } else if exact {
                return None;
            }
        }
    }
    params.remove(SHARD_PARAM);
    let wanted = pattern.params();
    wanted.iter().all(|p| params.contains_key(p)).then(|| {
        params
            .into_iter()
            .filter(|(k, _)| wanted.contains(k))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(template: &str, text: &str, prefix: bool) -> Option<BTreeMap<String, String>> {
        let mut p = BTreeMap::new();
        match_template(template, text, prefix, &mut p).then_some(p)
    }

    fn one(k: &str, v: &str) -> BTreeMap<String, String> {
        BTreeMap::from([(k.to_string(), v.to_string())])
    }

    #[test]
    fn templates_read_backwards() {
        assert_eq!(m("USER#{id}", "USER#u42", false), Some(one("id", "u42")));
        assert_eq!(m("USER#{id}", "ORDER#1", false), None);
        assert_eq!(m("{whole}", "C#1", false), Some(one("whole", "C#1")));
        assert_eq!(
            m("STATUS#PENDING", "STATUS#PENDING", false),
            Some(BTreeMap::new())
        );
        assert_eq!(m("STATUS#PENDING", "STATUS#PENDING#3", false), None);
        let two = m("ORDER#{date}#{id}", "ORDER#2026-01-02#o9", false).unwrap();
        assert_eq!(two.get("date").map(String::as_str), Some("2026-01-02"));
        assert_eq!(two.get("id").map(String::as_str), Some("o9"));
    }

    #[test]
    fn a_prefix_template_needs_only_a_prefix() {
        assert_eq!(m("ORDER#", "ORDER#2026#o1", true), Some(BTreeMap::new()));
        assert_eq!(
            m("ORDER#{month}", "ORDER#2026-01#o1", true),
            Some(one("month", "2026-01#o1"))
        );
        assert_eq!(m("ORDER#", "ITEM#1", true), None);
    }

    #[test]
    fn a_parameter_met_twice_must_agree() {
        assert!(m("{a}#{a}", "x#x", false).is_some());
        assert!(m("{a}#{a}", "x#y", false).is_none());
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn on_a_multi_attribute_key_each_template_spells_its_attribute() {
        let p = pattern(
            "table='t'\nname='n'\npk=['{t}', 'R#{region}']\nsk_eq=['{round}']\nsk={begins_with='{bracket}'}",
        );
        let item = Item::from_attrs(vec![
            ("tournamentId".into(), AttrValue::S("W24".into())),
            ("region".into(), AttrValue::S("R#EU".into())),
            ("round".into(), AttrValue::S("SEMI".into())),
            ("bracket".into(), AttrValue::S("UPPER".into())),
        ]);
        let (pk, sk) = (
            names(&["tournamentId", "region"]),
            names(&["round", "bracket", "matchId"]),
        );
        let got = params_from_item(&p, &pk, &sk, &item).unwrap();
        let want: BTreeMap<String, String> = [
            ("t", "W24"),
            ("region", "EU"),
            ("round", "SEMI"),
            ("bracket", "UPPER"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(got, want);
        // An item missing one partition attribute is not in the index: nothing to draw.
        let mut partial = item.clone();
        partial.remove("region");
        assert_eq!(params_from_item(&p, &pk, &sk, &partial), None);
        // A region the template cannot spell does not fit.
        let mut other = item;
        other.insert("region", AttrValue::S("EU".into()));
        assert_eq!(params_from_item(&p, &pk, &sk, &other), None);
    }

    fn pattern(toml_text: &str) -> AccessPattern {
        let table: toml::Table = toml::from_str(toml_text).unwrap();
        AccessPattern::from_toml(table, 0).unwrap()
    }

    #[test]
    fn an_item_gives_every_parameter_or_none() {
        let p = pattern("table='t'\nname='n'\npk='USER#{user}'\nsk={begins_with='ORDER#{year}'}");
        let item = Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#7".into())),
            ("SK".into(), AttrValue::S("ORDER#2026#1".into())),
        ]);
        let got = params_from_item(&p, &names(&["PK"]), &names(&["SK"]), &item).unwrap();
        assert_eq!(got.get("user").map(String::as_str), Some("7"));
        assert_eq!(got.get("year").map(String::as_str), Some("2026#1"));
        let profile = Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#7".into())),
            ("SK".into(), AttrValue::S("PROFILE".into())),
        ]);
        assert_eq!(
            params_from_item(&p, &names(&["PK"]), &names(&["SK"]), &profile),
            None
        );
    }

    #[test]
    fn a_shard_suffix_is_not_a_parameter() {
        let p = pattern("table='t'\nname='n'\npk='STATUS#{status}#{shard}'\nshards='0..3'");
        let item = Item::from_attrs(vec![("G".into(), AttrValue::S("STATUS#NEW#2".into()))]);
        assert_eq!(
            params_from_item(&p, &names(&["G"]), &[], &item),
            Some(one("status", "NEW"))
        );
    }
}
