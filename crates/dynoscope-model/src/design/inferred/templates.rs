//! One kind's key template on one key attribute, read back from the values its items hold:
//! the kind prefix the values share, then a placeholder per part named after the item
//! attribute that repeats it (`part_names`' rule), or a literal where every item writes the
//! same identifier (`ORDER#{date}#{orderId}`, `STATUS#OPEN`).

use std::collections::BTreeMap;

use crate::design::entity::{decode_key_as, KeyRole};
use crate::design::part_names::part_names_from_data;
use crate::item::value::{AttrValue, Item};
use crate::text::cell::cell_text;

/// A key's shape: whether it starts with the separator (dynamodb-toolbox's `#PROFILE#…`), its
/// kind prefix and how many parts follow.
type Shape = (bool, Option<String>, usize);
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
        // ElectroDB's keys (`$app#storeid_s1`) are read segment by segment: its grammar names
        // the parts (`storeid_`) in the key itself, and those names stay literal.
        let (kind, mut parts) = if text.starts_with('$') {
            (
                None,
                text.split(separator).map(str::to_owned).collect::<Vec<_>>(),
            )
        } else {
            let decoded = decode_key_as(&text, separator, role);
            let parts = decoded.parts.iter().map(|p| p.to_string()).collect();
            (decoded.kind.map(str::to_owned), parts)
        };
        // A value of no kind and one part is the attribute itself (`status`, a number).
        if kind.is_none() && parts.len() <= 1 {
            parts = vec![text.clone()];
        }
        // The key decoder reads past a leading separator; the template keeps it, as the key
        // DynamoDB is asked for must.
        let leading = !text.starts_with('$') && text.starts_with(separator);
        shapes
            .entry((leading, kind, parts.len()))
            .or_default()
            .push((item, parts));
    }
    // Bare words read as a kind with no parts (`US`, `DE` of a `Country` key): two or more of
    // them in one kind's items are the attribute's values, not a marker every item writes.
    let bare: Vec<Shape> = shapes
        .keys()
        .filter(|(leading, kind, count)| !leading && kind.is_some() && *count == 0)
        .cloned()
        .collect();
    let mut out: Vec<Template> = Vec::new();
    if bare.len() >= 2 {
        out.push(Template {
            attribute: attribute.to_owned(),
            template: format!("{{{attribute}}}"),
            items: bare
                .iter()
                .filter_map(|s| shapes.remove(s))
                .map(|r| r.len())
                .sum(),
        });
    }
    out.extend(
        shapes
            .into_iter()
            .map(|((leading, kind, count), rows)| Template {
                attribute: attribute.to_owned(),
                template: format!(
                    "{}{}",
                    if leading {
                        separator.to_string()
                    } else {
                        String::new()
                    },
                    shape_template(
                        kind.as_deref(),
                        count,
                        &rows,
                        attribute,
                        separator,
                        key_names,
                    )
                ),
                items: rows.len(),
            }),
    );
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
    let electrodb = rows[0].1.first().is_some_and(|p| p.starts_with('$'));
    let constant = |n: usize| {
        let first = rows[0].1.get(n);
        (rows.len() >= 2 && rows.iter().all(|(_, p)| p.get(n) == first)).then_some(first?)
    };
    if kind.is_none() && count == 1 {
        return match constant(0) {
            Some(value) if electrodb => value.clone(),
            _ => format!("{{{attribute}}}"),
        };
    }
    // ElectroDB's `name_value` segment: the name is literal, the value a part.
    let labels: Vec<Option<String>> = (0..count)
        .map(|n| {
            let label = rows[0].1.get(n)?.split_once('_')?.0.to_owned() + "_";
            let shared = rows
                .iter()
                .all(|(_, p)| p.get(n).is_some_and(|s| s.starts_with(&label)));
            (electrodb && shared && constant(n).is_none()).then_some(label)
        })
        .collect();
    let items: Vec<&Item> = rows.iter().map(|(item, _)| *item).collect();
    let parts: Vec<Vec<&str>> = rows
        .iter()
        .map(|(_, parts)| {
            parts
                .iter()
                .zip(&labels)
                .map(|(p, label)| label.as_ref().map_or(p.as_str(), |l| &p[l.len()..]))
                .collect()
        })
        .collect();
    let names = part_names_from_data(&items, &parts, count, key_names);
    let mut segments: Vec<String> = kind.map(str::to_owned).into_iter().collect();
    for (n, name) in names.into_iter().enumerate() {
        let label = labels[n].as_deref().unwrap_or_default();
        let literal = constant(n).filter(|v| electrodb || is_marker(v));
        segments.push(match (name, literal) {
            (Some(name), _) => format!("{label}{{{name}}}"),
            (None, Some(value)) if label.is_empty() => value.clone(),
            (None, _) => format!("{label}{{part{}}}", n + 1),
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
