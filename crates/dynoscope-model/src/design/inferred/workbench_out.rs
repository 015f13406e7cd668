//! An inferred design as a NoSQL Workbench model (format 3.0): the table's keys, its
//! attributes, its GSIs (a multi-attribute key as a list, as the model reader takes it), one
//! facet per kind whose key aliases are the kind's templates on the table, and a few items per
//! kind, masked unless the user asks for values. `model import` reads the aliases back as the
//! same `[[entity]]` templates.

use serde_json::{json, Value};

use super::{InferredDesign, InferredKind, TargetTemplates};
use crate::design::schema::{IndexKind, KeyAttr, KeySchema};
use crate::formats::json::{append_dynamo_json, to_safe_json};
use crate::item::value::{AttrValue, Item};

/// Whether the example items keep their values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueMode {
    Masked,
    WithValues,
}

fn key_attr(attr: &KeyAttr) -> Value {
    json!({"AttributeName": attr.name, "AttributeType": attr.key_type.as_str()})
}

fn key_attributes(keys: &KeySchema) -> Value {
    let side = |list: &[KeyAttr]| match list {
        [one] => key_attr(one),
        many => Value::Array(many.iter().map(key_attr).collect()),
    };
    let mut out = json!({"PartitionKey": side(keys.partition())});
    if !keys.sort().is_empty() {
        out["SortKey"] = side(keys.sort());
    }
    out
}

/// A key's template with `<name>` placeholders, Workbench's own spelling.
fn angle(template: &str) -> String {
    template.replace('{', "<").replace('}', ">")
}

/// A key's template with each placeholder filled by its name and the example's number
/// (`TENANT#tenantId-1`), so masked examples keep their shape and stay apart.
fn filled(template: &str, n: usize) -> String {
    template.replace('{', "").replace('}', &format!("-{n}"))
}

/// An example item with every value replaced by one of its type that says nothing: key
/// attributes by their template, strings by `…`, numbers by 0.
fn masked(item: &Item, n: usize, kind: &InferredKind) -> Item {
    let templates: Vec<(&str, &str)> = kind
        .keys
        .iter()
        .flat_map(|t| t.partition.iter().chain(&t.sort))
        .filter_map(|ts| {
            ts.first()
                .map(|t| (t.attribute.as_str(), t.template.as_str()))
        })
        .collect();
    let mut out = Item::new();
    for (name, value) in item.iter() {
        let blank = match (templates.iter().find(|(a, _)| *a == name), value) {
            (Some((_, tpl)), AttrValue::S(_)) => AttrValue::S(filled(tpl, n)),
            (_, AttrValue::S(_)) => AttrValue::S("…".into()),
            (_, AttrValue::N(_)) => AttrValue::N("0".into()),
            (_, AttrValue::B(_)) => AttrValue::B(Vec::new()),
            (_, AttrValue::Ss(_)) => AttrValue::Ss(vec!["…".into()]),
            (_, AttrValue::Ns(_)) => AttrValue::Ns(vec!["0".into()]),
            (_, AttrValue::Bs(_)) => AttrValue::Bs(vec![Vec::new()]),
            (_, AttrValue::M(_)) => AttrValue::M(Item::new()),
            (_, AttrValue::L(_)) => AttrValue::L(Vec::new()),
            (_, other) => other.clone(),
        };
        out.insert(name, blank);
    }
    out
}

fn dynamo_value(item: &Item) -> Value {
    let mut text = String::new();
    append_dynamo_json(&mut text, item);
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

fn facet(kind: &InferredKind, keys: &KeySchema, mode: ValueMode) -> Value {
    let table = kind.keys.iter().find(|t| t.index.is_none());
    let alias = |side: Option<Vec<&str>>| side.map(|s| angle(&s.join(" + ")));
    let pk = alias(table.map(|t| TargetTemplates::main(&t.partition)));
    let sk = alias(table.map(|t| TargetTemplates::main(&t.sort))).filter(|s| !s.is_empty());
    let mut key_alias =
        json!({"PartitionKeyAlias": pk.unwrap_or_else(|| keys.partition_key().name.clone())});
    if let Some(sk) = sk {
        key_alias["SortKeyAlias"] = Value::String(sk);
    }
    let items: Vec<Value> = kind
        .examples
        .iter()
        .enumerate()
        .map(|(n, item)| match mode {
            ValueMode::WithValues => dynamo_value(item),
            ValueMode::Masked => dynamo_value(&masked(item, n + 1, kind)),
        })
        .collect();
    let non_key: Vec<&str> = kind
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| !keys.contains(n))
        .collect();
    json!({
        "FacetName": kind.name,
        "KeyAttributeAlias": key_alias,
        "TableData": items,
        "NonKeyAttributes": non_key,
    })
}

/// The model as JSON text, every string escaped as the JSON writers escape service text.
pub fn design_workbench(design: &InferredDesign, mode: ValueMode) -> String {
    let keys = &design.table_keys;
    let mut non_key: Vec<(String, String)> = Vec::new();
    for kind in &design.kinds {
        for attr in &kind.attributes {
            if keys.contains(&attr.name) || non_key.iter().any(|(n, _)| *n == attr.name) {
                continue;
            }
            non_key.push((attr.name.clone(), attr.types[0].0.clone()));
        }
    }
    non_key.sort();
    let gsis: Vec<Value> = design
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Gsi)
        .map(|i| {
            json!({
                "IndexName": i.name,
                "KeyAttributes": key_attributes(&i.keys),
                "Projection": {"ProjectionType": i.projection},
            })
        })
        .collect();
    let model = json!({
        "ModelName": design.table,
        "ModelMetadata": {
            "Author": "dynoscope model export",
            "Description": format!("Read from {} sampled items of table {}", design.sampled, design.table),
            "Version": "3.0",
            "AWSService": "Amazon DynamoDB",
        },
        "DataModel": [{
            "TableName": design.table,
            "KeyAttributes": key_attributes(keys),
            "NonKeyAttributes": non_key
                .iter()
                .map(|(n, t)| json!({"AttributeName": n, "AttributeType": t}))
                .collect::<Vec<_>>(),
            "GlobalSecondaryIndexes": gsis,
            "TableFacets": design.kinds.iter().map(|k| facet(k, keys, mode)).collect::<Vec<_>>(),
            "BillingMode": "PAY_PER_REQUEST",
        }],
    });
    to_safe_json(&model, true)
}
