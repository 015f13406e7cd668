//! For a scan-shaped statement, the index that would serve it: an existing GSI whose partition
//! key the statement pins (directly, or through a value the sampled items always pair with
//! it, as `GSI1PK = 'STATUS#SHIPPED'` pairs with `status = 'SHIPPED'`), else the GSI to create.

use super::ast::{CmpOp, Expr, Operand, Path, Select, Step};
use super::plan::Plan;
use super::render;
use crate::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::item::item_size::item_size;
use crate::item::value::{same_value, AttrValue, Item};
use crate::text::shell::shell_word;
use crate::text::wording::thousands;
use crate::traffic::distribution::{KeyDistribution, Source, WarningContext};

/// An existing GSI that serves the statement, and the statement rewritten to read it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServingIndex {
    pub index: String,
    pub statement: String,
    /// How the key value was found: "the statement pins it", or from the sample.
    pub because: String,
    /// From the sample: the matching items the index holds, of all matching items, when some
    /// lack its key (a single-table design's other copies of the same fact).
    pub partial: Option<(usize, usize)>,
}

/// A GSI to create, with what it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct NewIndex {
    pub name: String,
    pub command: String,
    pub estimated_bytes: u64,
    pub estimated_items: u64,
    pub backfill_wcu: u64,
    pub sample_items: usize,
    pub warning: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Advice {
    Serving(ServingIndex),
    Create(NewIndex),
    /// A Scan without any `attribute = value`: no index can serve it.
    None,
}

fn type_of(value: &AttrValue) -> Option<&'static str> {
    match value {
        AttrValue::S(_) => Some("S"),
        AttrValue::N(_) => Some("N"),
        AttrValue::B(_) => Some("B"),
        _ => None,
    }
}

/// The statement reading `index`, its WHERE led by `key = value`; everything it had is kept.
fn rewritten(select: &Select, index: &str, key: &str, value: &AttrValue) -> String {
    let pin = Expr::Cmp(
        Operand::Path(Path(vec![Step::Attr(key.to_string())])),
        CmpOp::Eq,
        Operand::Value(value.clone()),
    );
    let filter = match &select.filter {
        Some(f) => Expr::And(Box::new(pin), Box::new(f.clone())),
        None => pin,
    };
    render::statement(&Select {
        index: Some(index.to_string()),
        filter: Some(filter),
        ..select.clone()
    })
}

fn covers(info: &TableInfo, index: &crate::design::schema::IndexInfo, plan: &Plan) -> bool {
    match index.projection.projection_type.as_str() {
        "ALL" => true,
        _ if plan.all_attributes => false,
        _ => plan.attributes.iter().all(|a| {
            info.keys.names().contains(a)
                || index.keys.names().contains(a)
                || index.projection.non_key_attributes.contains(a)
        }),
    }
}

/// Why the statement's own equalities reach `keys`' whole partition key (every partition
/// attribute pinned: DynamoDB's rule for a Query), or `None`.
fn pins_partition(plan: &Plan, keys: &KeySchema) -> Option<String> {
    let pinned = |name: &str| plan.equalities.iter().any(|(attr, _)| attr == name);
    if !keys.partition().iter().all(|k| pinned(&k.name)) {
        return None;
    }
    Some(match keys.partition() {
        [only] => format!("the statement pins its partition key '{}'", only.name),
        several => format!(
            "the statement pins every attribute of its partition key ({})",
            several
                .iter()
                .map(|k| format!("'{}'", k.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

pub fn advise(select: &Select, plan: &Plan, info: &TableInfo, sample: &[Item]) -> Advice {
    if plan.equalities.is_empty() {
        return Advice::None;
    }
    let gsis = info
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Gsi && Some(i.name.as_str()) != plan.index.as_deref())
        .filter(|i| covers(info, i, plan));
    for gsi in gsis {
        if let Some(because) = pins_partition(plan, &gsi.keys) {
            return Advice::Serving(ServingIndex {
                index: gsi.name.clone(),
                statement: render::statement(&Select {
                    index: Some(gsi.name.clone()),
                    ..select.clone()
                }),
                because,
                partial: None,
            });
        }
        // The sample's pairing reads one synthetic key attribute (`GSI1PK = 'STATUS#…'`); an
        // index keyed by several real attributes is served only when each is pinned above.
        if gsi.keys.is_multi_attribute() {
            continue;
        }
        let pk = &gsi.keys.partition_key().name;
        for (attr, value) in &plan.equalities {
            let AttrValue::S(text) = value else { continue };
            let matching: Vec<&Item> = sample
                .iter()
                .filter(|item| item.get(attr).is_some_and(|v| same_value(v, value)))
                .collect();
            let paired: Vec<&AttrValue> = matching.iter().filter_map(|i| i.get(pk)).collect();
            let Some(first) = paired.first() else {
                continue;
            };
            let all_same = paired.iter().all(|v| same_value(v, first));
            let key_text = first.as_s().unwrap_or_default();
            if !(all_same && key_text.contains(text.as_str())) {
                continue;
            }
            let (held, all) = (paired.len(), matching.len());
            let because = if held == all {
                format!(
                    "every sampled item with {attr} = '{text}' has {pk} = '{key_text}' ({held} of {} sampled)",
                    sample.len()
                )
            } else {
                format!(
                    "{held} of the {all} sampled items with {attr} = '{text}' have {pk} = '{key_text}' and are in {}; the other {} have no {pk} and are not",
                    gsi.name,
                    all - held
                )
            };
            return Advice::Serving(ServingIndex {
                index: gsi.name.clone(),
                statement: rewritten(select, &gsi.name, pk, first),
                because,
                partial: (held < all).then_some((held, all)),
            });
        }
    }
    Advice::Create(new_index(plan, info, sample))
}

fn new_index(plan: &Plan, info: &TableInfo, sample: &[Item]) -> NewIndex {
    let (pk, pk_value) = &plan.equalities[0];
    let sk = plan
        .ranges
        .iter()
        .find(|r| *r != pk && !info.keys.names().contains(r));
    let sk_type = sk.and_then(|sk| sample.iter().find_map(|i| i.get(sk).and_then(type_of)));
    let name: String = format!("{pk}-index")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let mut definitions = vec![serde_json::json!({
        "AttributeName": pk, "AttributeType": type_of(pk_value).unwrap_or("S")
    })];
    let mut key_schema = vec![serde_json::json!({"AttributeName": pk, "KeyType": "HASH"})];
    if let (Some(sk), Some(t)) = (sk, sk_type) {
        definitions.push(serde_json::json!({"AttributeName": sk, "AttributeType": t}));
        key_schema.push(serde_json::json!({"AttributeName": sk, "KeyType": "RANGE"}));
    }
    let included: Vec<&String> = plan
        .attributes
        .iter()
        .filter(|a| *a != pk && Some(*a) != sk && !info.keys.names().contains(a))
        .collect();
    let projection = if plan.all_attributes {
        serde_json::json!({"ProjectionType": "ALL"})
    } else if included.is_empty() {
        serde_json::json!({"ProjectionType": "KEYS_ONLY"})
    } else {
        serde_json::json!({"ProjectionType": "INCLUDE", "NonKeyAttributes": included})
    };
    let mut create = serde_json::json!({
        "IndexName": name, "KeySchema": key_schema, "Projection": projection
    });
    if let Some(t) = &info.provisioned {
        create["ProvisionedThroughput"] = serde_json::json!({
            "ReadCapacityUnits": t.read_capacity_units,
            "WriteCapacityUnits": t.write_capacity_units
        });
    }
    let command = format!(
        "aws dynamodb update-table --table-name {} --attribute-definitions {} --global-secondary-index-updates {}",
        shell_word(&info.name),
        shell_word(&serde_json::Value::Array(definitions).to_string()),
        shell_word(&serde_json::json!([{ "Create": create }]).to_string())
    );
    // An index item holds the projected attributes plus the table's keys, and DynamoDB adds
    // 100 bytes of overhead to each; every one written in the backfill costs a WCU per 1 KB.
    let mut distribution = KeyDistribution::new();
    let (mut bytes, mut wcu) = (0u64, 0u64);
    for item in sample.iter().filter(|i| i.get(pk).is_some()) {
        let projected = if plan.all_attributes {
            item.clone()
        } else {
            let keep: Vec<(String, AttrValue)> = item
                .iter()
                .filter(|(n, _)| {
                    *n == pk
                        || Some(*n) == sk.map(String::as_str)
                        || info.keys.names().iter().any(|k| k == n)
                        || included.iter().any(|a| a == n)
                })
                .map(|(n, v)| (n.to_string(), v.clone()))
                .collect();
            Item::from_attrs(keep)
        };
        let size = item_size(&projected) as u64 + 100;
        bytes += size;
        wcu += size.div_ceil(1024);
        let key = match item.get(pk) {
            Some(AttrValue::S(s)) => s.clone(),
            Some(AttrValue::N(n)) => n.clone(),
            _ => String::new(),
        };
        distribution.add(&key, size as usize);
    }
    let with_key = distribution.total_items();
    let scale = |n: u64| {
        if sample.is_empty() {
            0
        } else {
            (n as f64 * info.item_count.max(0) as f64 / sample.len() as f64).round() as u64
        }
    };
    let warning = distribution
        .warnings(&WarningContext {
            table: &info.name,
            source: Source::Index {
                name: &name,
                kind: IndexKind::Gsi,
            },
            partition_key: pk,
            table_has_lsi: false,
        })
        .into_iter()
        .find(|w| w.rule == crate::traffic::distribution::Rule::LowCardinality)
        .map(|w| {
            format!(
                "in a sample of {} items: {}",
                thousands(sample.len() as u64),
                w.message
            )
        });
    NewIndex {
        name,
        command,
        estimated_bytes: scale(bytes),
        estimated_items: scale(with_key),
        backfill_wcu: scale(wcu),
        sample_items: sample.len(),
        warning,
    }
}

#[cfg(test)]
#[path = "advice_tests.rs"]
mod tests;
