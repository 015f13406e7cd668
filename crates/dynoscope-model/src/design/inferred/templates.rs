//! One kind's key template on one key attribute, read back from the values its items hold:
//! the kind prefix the values share, then a placeholder per part named after the item
//! attribute that repeats it (`part_names`' rule), or a literal where every item writes the
//! same identifier (`ORDER#{date}#{orderId}`, `STATUS#OPEN`).

use std::collections::BTreeMap;

use crate::design::entity::{decode_key_as, KeyRole};
use crate::design::part_names::part_names_from_data;
use crate::item::value::{AttrValue, Item};
use crate::text::cell::cell_text;

/// A key's shape: its kind prefix and how many parts follow.
type Shape = (Option<String>, usize);
/// An item and its key's parts.
type Row<'a> = (&'a Item, Vec<String>);

/// A key attribute's template with the number of sampled items written in it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Template {
    pub attribute: String,
    pub template: String,
    pub items: usize,
}

/// The templates `items` are written in on `attribute`, most items first (a kind whose items
/// hold two shapes of key lists both). Items without the attribute are not counted.
pub fn templates_of(
    items: &[&Item],
    attribute: &str,
    role: KeyRole,
    separator: char,
    key_names: &[&str],
) -> Vec<Template> {
    // Shape = (prefix kind, part count); the items of each shape are inferred together.
    let mut shapes: BTreeMap<Shape, Vec<Row>> = BTreeMap::new();
    for item in items {
        let Some(value) = item.get(attribute) else {
            continue;
        };
        let text = match value {
            AttrValue::S(s) => s.clone(),
            other => cell_text(other),
        };
        let decoded = decode_key_as(&text, separator, role);
        let kind = decoded.kind.map(str::to_owned);
        let mut parts: Vec<String> = decoded.parts.iter().map(|p| p.to_string()).collect();
        // A value of no kind and one part is the attribute itself (`status`, a number).
        if kind.is_none() && parts.len() <= 1 {
            parts = vec![text.clone()];
        }
        shapes
            .entry((kind, parts.len()))
            .or_default()
            .push((item, parts));
    }
    let mut out: Vec<Template> = shapes
        .into_iter()
        .map(|((kind, count), rows)| Template {
            attribute: attribute.to_owned(),
            template: shape_template(
                kind.as_deref(),
                count,
                &rows,
                attribute,
                separator,
                key_names,
            ),
            items: rows.len(),
        })
        .collect();
    out.sort_by(|a, b| b.items.cmp(&a.items).then(a.template.cmp(&b.template)));
    out
}

fn shape_template(
    kind: Option<&str>,
    count: usize,
    rows: &[Row],
    attribute: &str,
    separator: char,
    key_names: &[&str],
) -> String {
    if kind.is_none() && count == 1 {
        return format!("{{{attribute}}}");
    }
    let items: Vec<&Item> = rows.iter().map(|(item, _)| *item).collect();
    let parts: Vec<Vec<&str>> = rows
        .iter()
        .map(|(_, parts)| parts.iter().map(String::as_str).collect())
        .collect();
    let names = part_names_from_data(&items, &parts, count, key_names);
    let mut segments: Vec<String> = kind.map(str::to_owned).into_iter().collect();
    for (n, name) in names.into_iter().enumerate() {
        let first = parts[0].get(n).copied().unwrap_or_default();
        let constant = rows.len() >= 2 && parts.iter().all(|p| p.get(n) == Some(&first));
        let literal = constant && is_marker(first);
        segments.push(match (name, literal) {
            (Some(name), _) => format!("{{{name}}}"),
            (None, true) => first.to_owned(),
            (None, false) => format!("{{part{}}}", n + 1),
        });
    }
    segments.join(&separator.to_string())
}

/// A literal every item writes: upper-case letters, digits and `_` (`OPEN`, `PROFILE`), not
/// data that happens to repeat in a small sample (`alice`).
fn is_marker(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
        && segment
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}
