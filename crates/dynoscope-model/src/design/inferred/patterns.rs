//! The access patterns a design's keys make possible, in the primer's words, each with the
//! request it is; and the relationships the keys encode (one kind's items stored in another
//! kind's partition: an item collection).

use serde::Serialize;

use super::{InferredKind, TargetTemplates};
use crate::design::schema::TableInfo;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AccessPattern {
    /// `get a TENANT with its USERs and TICKETs in one Query`.
    pub description: String,
    /// `None`: the table.
    pub index: Option<String>,
    /// The request, as DynamoDB reads it: `Query PK = "TENANT#{tenantId}"`.
    pub request: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Relationship {
    /// The kind whose partition holds the other's items.
    pub parent: String,
    pub child: String,
    pub index: Option<String>,
    /// The shared partition key template.
    pub key: String,
}

/// `a USER`, `an EMPLOYEE`, `an order`: the article a kind's name is read with. A vowel letter
/// takes `an` unless it sounds as a consonant (`a USER`, `a unit`, `a one-off`, `a euro`);
/// names are the data's, so their case is kept.
pub(super) fn a(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let consonant_sound = [
        "uni", "use", "usu", "uti", "ura", "uro", "eu", "one", "once",
    ]
    .iter()
    .any(|p| lower.starts_with(p));
    let vowel_sound = ["hour", "honest", "honor", "honour", "heir"]
        .iter()
        .any(|p| lower.starts_with(p));
    let vowel = lower.starts_with(['a', 'e', 'i', 'o', 'u']) && !consonant_sound;
    match vowel || vowel_sound {
        true => format!("an {name}"),
        false => format!("a {name}"),
    }
}

/// `TICKETs`, `employees`, `ADDRESSes`, `companies`: a kind's name in the plural, its case
/// kept (an upper-case name takes a lower-case ending, as the primer writes `TICKETs`).
pub(super) fn plural(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    let upper = name.chars().any(|c| c.is_ascii_uppercase())
        && !name.chars().any(|c| c.is_ascii_lowercase());
    let sibilant = ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| lower.ends_with(e));
    let consonant_y =
        lower.ends_with('y') && !lower[..lower.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    match (sibilant, consonant_y && !upper) {
        (true, _) => format!("{name}es"),
        (_, true) => format!("{}ies", &name[..name.len() - 1]),
        _ => format!("{name}s"),
    }
}

fn target_name(index: Option<&str>) -> String {
    index.map_or("the table".to_owned(), |i| format!("index {i}"))
}

/// The partition key in one line: `PK = "TENANT#{tenantId}"`, each attribute of a
/// multi-attribute key joined by ` AND `.
fn partition_condition(info: &TableInfo, t: &TargetTemplates) -> String {
    let Some(keys) = info.keys_for(t.index.as_deref()) else {
        return String::new();
    };
    keys.partition()
        .iter()
        .zip(TargetTemplates::main(&t.partition))
        .map(|(k, tpl)| format!("{} = \"{tpl}\"", k.name))
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// The literal start of a template (`TICKET#` of `TICKET#{date}#{id}`).
fn literal_prefix(template: &str) -> &str {
    template.split('{').next().unwrap_or_default()
}

/// Whether a partition template is named after `kind`: its kind prefix (`TENANT` of
/// `TENANT#{tenantId}`), or ElectroDB's name of its id (`storeid_` in
/// `$app#storeid_{storeId}`).
fn names_owner(template: &str, kind: &str) -> bool {
    let prefix = template.split('#').next().unwrap_or_default();
    let label = format!("#{}id_", kind.to_ascii_lowercase());
    prefix.eq_ignore_ascii_case(kind) || template.to_ascii_lowercase().contains(&label)
}

pub(super) fn access_patterns(info: &TableInfo, kinds: &[InferredKind]) -> Vec<AccessPattern> {
    let mut out = Vec::new();
    let mut targets: Vec<Option<&str>> = vec![None];
    targets.extend(info.indexes.iter().map(|i| Some(i.name.as_str())));
    for target in targets {
        // Kinds grouped by the partition template they share on this target.
        let mut groups: Vec<(String, Vec<(&InferredKind, &TargetTemplates)>)> = Vec::new();
        for kind in kinds {
            let Some(t) = kind.keys.iter().find(|t| t.index.as_deref() == target) else {
                continue;
            };
            let condition = partition_condition(info, t);
            match groups.iter_mut().find(|(c, _)| *c == condition) {
                Some((_, members)) => members.push((kind, t)),
                None => groups.push((condition, vec![(kind, t)])),
            }
        }
        for (condition, members) in &groups {
            if members.len() >= 2 && !condition.contains("= \"{") {
                let names: Vec<&str> = members.iter().map(|(k, _)| k.name.as_str()).collect();
                let template = TargetTemplates::main(&members[0].1.partition).join(" + ");
                let owner = names
                    .iter()
                    .copied()
                    .find(|n| names_owner(&template, n))
                    .unwrap_or(names[0]);
                let others: Vec<String> = names
                    .iter()
                    .copied()
                    .filter(|n| *n != owner)
                    .map(plural)
                    .collect();
                out.push(AccessPattern {
                    description: format!(
                        "get {} with its {} in one Query on {}",
                        a(owner),
                        others.join(" and "),
                        target_name(target)
                    ),
                    index: target.map(str::to_owned),
                    request: format!("Query {condition}"),
                });
            }
            for (kind, t) in members {
                out.push(sorted_pattern(info, kind, t, condition, target));
            }
        }
    }
    out
}

/// One kind read by its sort key on a target: by a prefix and ordered by the first part, or
/// got whole when the sort key is fixed.
fn sorted_pattern(
    info: &TableInfo,
    kind: &InferredKind,
    t: &TargetTemplates,
    condition: &str,
    target: Option<&str>,
) -> AccessPattern {
    let keys = info.keys_for(target);
    let sort = TargetTemplates::main(&t.sort);
    let (description, request) = match (keys.and_then(|k| k.sort().first()), sort.first()) {
        (Some(attr), Some(tpl)) if tpl.contains('{') => {
            let prefix = literal_prefix(tpl);
            let by = tpl[prefix.len()..]
                .split(['{', '}'])
                .find(|s| !s.is_empty() && !s.contains('#'));
            let by = by.unwrap_or("sort key");
            (
                format!("{} by {by} on {}", plural(&kind.name), target_name(target)),
                match prefix.is_empty() {
                    true => format!("Query {condition}"),
                    false => format!(
                        "Query {condition} AND begins_with({}, \"{prefix}\")",
                        attr.name
                    ),
                },
            )
        }
        (Some(attr), Some(tpl)) => (
            format!(
                "get {} by its key on {}",
                a(&kind.name),
                target_name(target)
            ),
            format!("Query {condition} AND {} = \"{tpl}\"", attr.name),
        ),
        _ => (
            format!(
                "get {} by its key on {}",
                a(&kind.name),
                target_name(target)
            ),
            format!("Query {condition}"),
        ),
    };
    AccessPattern {
        description,
        index: target.map(str::to_owned),
        request,
    }
}

#[cfg(test)]
#[test]
fn kinds_are_named_with_their_article_and_plural() {
    let cases = [
        ("EMPLOYEE", "an EMPLOYEE", "EMPLOYEEs"),
        ("employee", "an employee", "employees"),
        ("USER", "a USER", "USERs"),
        ("order", "an order", "orders"),
        ("TICKET", "a TICKET", "TICKETs"),
        ("ADDRESS", "an ADDRESS", "ADDRESSes"),
        ("company", "a company", "companies"),
        ("COMPANY", "a COMPANY", "COMPANYs"),
        ("day", "a day", "days"),
        ("box", "a box", "boxes"),
        ("hour", "an hour", "hours"),
    ];
    for (name, article, many) in cases {
        assert_eq!(
            (a(name), plural(name)),
            (article.to_owned(), many.to_owned())
        );
    }
}

/// A kind whose partition template (on any target) is another kind's name holds that kind's
/// items: `TENANT#{tenantId}` under TICKET makes TENANT the parent of TICKET.
pub(super) fn relationships(kinds: &[InferredKind]) -> Vec<Relationship> {
    let mut out = Vec::new();
    for child in kinds {
        for t in &child.keys {
            let Some(key) = TargetTemplates::main(&t.partition).first().copied() else {
                continue;
            };
            let parent = kinds
                .iter()
                .find(|k| k.name != child.name && names_owner(key, &k.name));
            if let Some(parent) = parent {
                out.push(Relationship {
                    parent: parent.name.clone(),
                    child: child.name.clone(),
                    index: t.index.clone(),
                    key: key.to_owned(),
                });
            }
        }
    }
    out
}
