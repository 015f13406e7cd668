//! Key templates (`USER#{userId}`) for `[[entity]]` entries, from a model's facets.
//!
//! A facet's key alias that is already a template (`USER#{userId}`, or `USER#<userId>` as
//! people write them) is taken as it is. Otherwise the template is read from the facet's items
//! (then the table's): values of one shape (`C#933`, `C#1201`) give `C#{…}`, a segment that
//! is the same word in every value stays literal, and a variable segment is named after the
//! attribute that holds the same value in every item (`C#{CustomerId}`), else `id`/`date`/
//! `partN`. A sort key that repeats its partition key's id under a marker (`#METADATA#933` in
//! `C#933`) is the collection's own record and gives no template.

use std::collections::BTreeSet;

use super::ModelTable;
use crate::design::entity::{EntityPattern, SEPARATORS};
use crate::item::value::{AttrValue, Item};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityTemplate {
    pub table: String,
    pub template: String,
    /// Where it came from, for the comment above it.
    pub source: String,
}

/// `<name>` placeholders become `{name}`.
pub(super) fn normalise_alias(alias: &str) -> String {
    let mut out = String::with_capacity(alias.len());
    let mut rest = alias;
    while let Some(open) = rest.find('<') {
        match rest[open..].find('>') {
            Some(close) if close > 1 => {
                out.push_str(&rest[..open]);
                out.push('{');
                out.push_str(&rest[open + 1..open + close]);
                out.push('}');
                rest = &rest[open + close + 1..];
            }
            _ => break,
        }
    }
    out.push_str(rest);
    out
}

fn is_template(alias: &str) -> bool {
    let a = normalise_alias(alias);
    a.contains('{') && a.contains('}')
}

/// The key shape a template stands for, so one shape is configured once whatever its
/// placeholders are called.
fn shape(template: &str) -> String {
    let mut out = String::new();
    let mut in_brace = false;
    for c in template.chars() {
        match c {
            '{' => {
                in_brace = true;
                out.push('*');
            }
            '}' => in_brace = false,
            c if !in_brace => out.push(c),
            _ => {}
        }
    }
    out
}

/// The templates of one table, and what was skipped (one line each). Of two templates for one
/// key shape the first whose parts are named by the model (an alias, or attributes holding the
/// same values) is kept, else the first.
pub fn entity_templates(table: &ModelTable) -> (Vec<EntityTemplate>, Vec<String>) {
    let mut candidates: Vec<(EntityTemplate, bool)> = Vec::new();
    let mut skipped = Vec::new();
    let pk = table.keys.partition_key().name.as_str();
    let sk = table.keys.sort_key().map(|k| k.name.as_str());
    let mut push = |template: String, source: String, named: bool| {
        candidates.push((
            EntityTemplate {
                table: table.name.clone(),
                template,
                source,
            },
            named,
        ));
    };
    for facet in &table.facets {
        for (alias, attr, label) in [
            (&facet.pk_alias, Some(pk), "PartitionKeyAlias"),
            (&facet.sk_alias, sk, "SortKeyAlias"),
        ] {
            let Some(attr) = attr else { continue };
            match alias.as_deref().filter(|a| is_template(a)) {
                Some(alias) => {
                    let template = normalise_alias(alias);
                    match EntityPattern::parse(&template) {
                        Ok(_) => push(template, format!("facet '{}' {label}", facet.name), true),
                        Err(e) => {
                            skipped.push(format!("facet '{}' {label} '{alias}': {e}", facet.name))
                        }
                    }
                }
                None => {
                    let source = format!("facet '{}' items ({attr})", facet.name);
                    for (t, named) in inferred(&facet.items, attr, pk, &source, &mut skipped) {
                        push(t, source.clone(), named);
                    }
                }
            }
        }
    }
    // The table's own items that no facet shows.
    let in_facets: BTreeSet<String> = table
        .facets
        .iter()
        .flat_map(|f| &f.items)
        .map(|i| key_text(i, table))
        .collect();
    let rest: Vec<Item> = table
        .items
        .iter()
        .filter(|i| !in_facets.contains(&key_text(i, table)))
        .cloned()
        .collect();
    for attr in std::iter::once(pk).chain(sk) {
        let source = format!("table '{}' items ({attr})", table.name);
        for (t, named) in inferred(&rest, attr, pk, &source, &mut skipped) {
            push(t, source.clone(), named);
        }
    }
    let mut out: Vec<EntityTemplate> = Vec::new();
    let mut shapes = BTreeSet::new();
    for (i, (candidate, named)) in candidates.iter().enumerate() {
        let s = shape(&candidate.template);
        if shapes.contains(&s) {
            continue;
        }
        let better = candidates[i..]
            .iter()
            .find(|(c, n)| *n && shape(&c.template) == s)
            .filter(|_| !named)
            .map(|(c, _)| c);
        shapes.insert(s);
        out.push(better.unwrap_or(candidate).clone());
    }
    (out, skipped)
}

fn key_text(item: &Item, table: &ModelTable) -> String {
    table
        .keys
        .names()
        .iter()
        .map(|n| format!("{:?}", item.get(n)))
        .collect::<Vec<_>>()
        .join("\u{0}")
}

/// A key value cut into its separator, whether it starts with it, and its segments; an ISO
/// timestamp stays one segment even when the separator is `:`.
pub(super) fn segments(value: &str) -> Option<(char, bool, Vec<&str>)> {
    let sep = value
        .char_indices()
        .find(|(_, c)| SEPARATORS.contains(c))
        .map(|(_, c)| c)?;
    let leading = value.starts_with(sep);
    let body = if leading { &value[1..] } else { value };
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let mut pieces = body.split(sep).peekable();
    let mut end = 0;
    while let Some(piece) = pieces.next() {
        end += piece.len();
        let partial = &body[start..end];
        if sep == ':' && pieces.peek().is_some() && is_partial_time(partial) {
            end += 1;
            continue;
        }
        out.push(partial);
        end += 1;
        start = end;
    }
    Some((sep, leading, out))
}

/// `2023-04-01T12` or `2023-04-01T12:00`: a timestamp cut short by a `:` split.
fn is_partial_time(text: &str) -> bool {
    let Some((date, time)) = text.split_once('T') else {
        return false;
    };
    is_date(date)
        && (time.len() == 2 || time.len() == 5)
        && time
            .chars()
            .enumerate()
            .all(|(i, c)| if i == 2 { c == ':' } else { c.is_ascii_digit() })
}

fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10
        && b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        })
}

fn is_word(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
}

fn text_of(value: &AttrValue) -> Option<&str> {
    match value {
        AttrValue::S(s) | AttrValue::N(s) => Some(s),
        _ => None,
    }
}

/// Separator, leading separator, kind and number of segments.
type Shape = (char, bool, String, usize);
/// An item and the segments of its key value.
type Member<'a> = (&'a Item, Vec<&'a str>);

/// Templates for the values of `attr` in `items`, one per key shape.
fn inferred(
    items: &[Item],
    attr: &str,
    pk: &str,
    source: &str,
    skipped: &mut Vec<String>,
) -> Vec<(String, bool)> {
    // Group by shape: separator, leading separator, kind and number of segments.
    let mut groups: Vec<(Shape, Vec<Member>)> = Vec::new();
    for item in items {
        let Some(value) = item.get(attr).and_then(AttrValue::as_s) else {
            continue;
        };
        let Some((sep, leading, segs)) = segments(value) else {
            continue;
        };
        let group = (sep, leading, segs[0].to_string(), segs.len());
        match groups.iter_mut().find(|(g, _)| *g == group) {
            Some((_, members)) => members.push((item, segs)),
            None => groups.push((group, vec![(item, segs)])),
        }
    }
    let mut out = Vec::new();
    for ((sep, leading, kind, len), members) in groups {
        let mut names: Vec<String> = Vec::new();
        let mut named = true;
        let mut parts = Vec::new();
        for p in 1..len {
            let first = members[0].1[p];
            if is_word(first) && members.iter().all(|(_, s)| s[p] == first) {
                parts.push(first.to_string());
                continue;
            }
            let (name, from_attribute) = part_name(&members, p, attr, &names);
            named &= from_attribute;
            parts.push(format!("{{{name}}}"));
            names.push(name);
        }
        if names.is_empty() {
            continue;
        }
        let mut template = String::new();
        if leading {
            template.push(sep);
        }
        template.push_str(&kind);
        for part in &parts {
            template.push(sep);
            template.push_str(part);
        }
        if attr != pk && is_own_record(&members, len, pk, leading, &kind) {
            skipped.push(format!(
                "{source}: '{template}' repeats its partition key's id: the collection's own record, not a kind of its own"
            ));
            continue;
        }
        if EntityPattern::parse(&template).is_ok() {
            out.push((template, named));
        }
    }
    out
}

/// The last segment of every member is the last segment of its item's partition key, under a
/// marker (`#METADATA#`, `PROFILE#`…): the record of the collection itself.
fn is_own_record(members: &[Member], len: usize, pk: &str, leading: bool, kind: &str) -> bool {
    let marker = leading || kind.chars().all(|c| c.is_ascii_uppercase() || c == '_');
    marker
        && members.iter().all(|(item, segs)| {
            item.get(pk)
                .and_then(AttrValue::as_s)
                .and_then(segments)
                .is_some_and(|(_, _, pk_segs)| pk_segs.last() == segs.get(len - 1))
        })
}

/// Names position `p`: the attribute that holds that segment in every member, else a name
/// from what the values look like.
fn part_name(members: &[Member], p: usize, key_attr: &str, taken: &[String]) -> (String, bool) {
    let (first_item, _) = &members[0];
    let candidate = first_item.iter().find(|(name, value)| {
        *name != key_attr
            && !taken.iter().any(|t| t == name)
            && text_of(value) == Some(members[0].1[p])
            && members
                .iter()
                .all(|(item, s)| item.get(name).and_then(text_of) == Some(s[p]))
    });
    if let Some((name, _)) = candidate {
        if name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return (name.to_string(), true);
        }
    }
    let looks_dated = members
        .iter()
        .all(|(_, s)| s[p].get(..10).is_some_and(is_date));
    let base = if looks_dated {
        "date".to_string()
    } else if !taken.iter().any(|t| t == "id") {
        "id".to_string()
    } else {
        format!("part{p}")
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}{n}");
        n += 1;
    }
    (name, false)
}
