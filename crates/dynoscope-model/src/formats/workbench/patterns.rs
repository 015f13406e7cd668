//! A model's access patterns as `[[pattern]]`s.
//!
//! Workbench 3.20 stores access patterns with the model; their JSON is not documented, so
//! dynoscope reads the spelling of the request itself, which is what a pattern validates:
//!
//! ```json
//! "AccessPatterns": [ { "Name": "orders-of-customer", "Type": "Query",
//!     "TableName": "Shop", "IndexName": "GSI1",
//!     "KeyConditionExpression": "PK = :pk AND begins_with(SK, :sk)",
//!     "ExpressionAttributeValues": { ":pk": {"S": "C#{customerId}"}, ":sk": {"S": "I#"} },
//!     "ScanIndexForward": false, "Limit": 20 } ]
//! ```
//!
//! A `:placeholder` that has no value is a parameter (`{customerId}`), and so is a
//! `{name}` or `<name>` inside a value. `GetItem` with a `Key` becomes a pattern on both keys.
//! A Query on a multi-attribute GSI becomes a pattern with a template per partition attribute
//! (`pk = ["{tournamentId}", "{region}"]`) and per sort-prefix attribute (`sk_eq`).
//! Other operations (`Scan`, writes) and anything that cannot be read as one key condition are
//! skipped, with the reason.

use std::collections::BTreeMap;

use super::{ModelAccessPattern, WorkbenchModel};
use crate::design::access_pattern::{AccessPattern, SortTemplate};
use crate::design::schema::KeyAttr;
use crate::item::value::AttrValue;
use crate::query::expression::parse_key_condition;
use crate::query::key_condition::{KeyValue, SortCondition};

/// `orders of a customer` → `orders-of-a-customer`: a name `run` can take unquoted.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() || c == '_' {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "pattern".into()
    } else {
        out
    }
}

fn placeholders_in(expr: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == ':' {
            let start = i + 1;
            let mut j = start;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            if j > start {
                out.push(chars[start..j].iter().collect());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn template_text(value: &KeyValue) -> Result<String, String> {
    match value {
        KeyValue::S(s) => Ok(s.replace('<', "{").replace('>', "}")),
        KeyValue::N(n) => Ok(n.clone()),
        KeyValue::B(_) => Err("a binary key value cannot be a pattern parameter".into()),
    }
}

/// The `[[pattern]]`s of a model, each checked by the same rules as the config file's, and the
/// patterns that were skipped with the reason.
pub fn access_patterns(model: &WorkbenchModel) -> (Vec<AccessPattern>, Vec<String>) {
    let mut out: Vec<AccessPattern> = Vec::new();
    let mut skipped = Vec::new();
    for pattern in &model.access_patterns {
        match convert(model, pattern) {
            Ok(mut p) => {
                if pattern.has_filter {
                    skipped.push(format!(
                        "access pattern '{}': its FilterExpression was left out",
                        pattern.name
                    ));
                }
                let base = p.name.clone();
                let mut n = 2;
                while out.iter().any(|o| o.name == p.name) {
                    p.name = format!("{base}-{n}");
                    n += 1;
                }
                out.push(p);
            }
            Err(why) => skipped.push(format!("access pattern '{}': {why}", pattern.name)),
        }
    }
    (out, skipped)
}

fn convert(model: &WorkbenchModel, p: &ModelAccessPattern) -> Result<AccessPattern, String> {
    let table = model
        .tables
        .iter()
        .find(|t| t.name == p.table)
        .ok_or_else(|| format!("names table '{}', which the model does not have", p.table))?;
    let keys = table.keys_for(p.index.as_deref()).ok_or_else(|| {
        format!(
            "names index '{}', which table '{}' does not have",
            p.index.as_deref().unwrap_or_default(),
            p.table
        )
    })?;
    let (pk, sk_eq, sk) = match (p.operation.as_str(), &p.key_condition, &p.key) {
        ("Query", Some(expr), _) => {
            let mut values = p.values.clone();
            for name in placeholders_in(expr) {
                let placeholder = format!(":{name}");
                if !values.iter().any(|(k, _)| *k == placeholder) {
                    values.push((placeholder, AttrValue::S(format!("{{{name}}}"))));
                }
            }
            // On a multi-attribute key: a template per partition attribute and per sort
            // prefix attribute, in key-schema order, as KeyCondition holds them.
            let condition = parse_key_condition(expr, &p.names, &values, keys)
                .map_err(|e| format!("its key condition: {e}"))?;
            let texts = |pairs: &[(KeyAttr, KeyValue)]| {
                pairs
                    .iter()
                    .map(|(_, v)| template_text(v))
                    .collect::<Result<Vec<_>, _>>()
            };
            let sk = match condition.sort() {
                None => None,
                Some((_, sort)) => Some(sort_template(sort)?),
            };
            (
                texts(condition.partition())?,
                texts(condition.sort_prefix())?,
                sk,
            )
        }
        ("Query", None, _) => return Err("a Query with no KeyConditionExpression".into()),
        ("GetItem", _, Some(key)) => {
            let text = |name: &str| -> Result<String, String> {
                let value = key
                    .get(name)
                    .ok_or_else(|| format!("its Key has no '{name}'"))?;
                let attr = if name == keys.partition_key().name {
                    keys.partition_key()
                } else {
                    keys.sort_key()
                        .as_ref()
                        .expect("only key names are asked for")
                };
                template_text(&KeyValue::from_attr(value, attr).map_err(|e| e.to_string())?)
            };
            let sk = match keys.sort_key() {
                Some(k) => Some(SortTemplate::Eq(text(&k.name)?)),
                None => None,
            };
            (vec![text(&keys.partition_key().name)?], Vec::new(), sk)
        }
        ("GetItem", _, None) => return Err("a GetItem with no Key".into()),
        (other, _, _) => {
            return Err(format!(
                "a {other}; only Query and GetItem patterns become [[pattern]]s"
            ))
        }
    };
    let mut table_toml = toml::Table::new();
    let mut put = |k: &str, v: toml::Value| {
        table_toml.insert(k.to_string(), v);
    };
    put("table", p.table.clone().into());
    put("name", slug(&p.name).into());
    if let Some(d) = &p.description {
        put("description", d.clone().into());
    }
    if let Some(i) = &p.index {
        put("index", i.clone().into());
    }
    put("pk", templates_toml(pk));
    if !sk_eq.is_empty() {
        put("sk_eq", templates_toml(sk_eq));
    }
    if let Some(sk) = &sk {
        put("sk", sort_toml(sk));
    }
    if p.descending {
        put("order", "desc".into());
    }
    if let Some(limit) = p.limit {
        put("limit", (limit as i64).into());
    }
    AccessPattern::from_toml(table_toml, 0).map_err(|e| e.to_string())
}

/// One template as a string, several as a list (the `[[pattern]]` spelling of each).
fn templates_toml(mut texts: Vec<String>) -> toml::Value {
    match texts.len() {
        1 => texts.remove(0).into(),
        _ => toml::Value::Array(texts.into_iter().map(toml::Value::from).collect()),
    }
}

fn sort_template(sort: &SortCondition) -> Result<SortTemplate, String> {
    Ok(match sort {
        SortCondition::Eq(v) => SortTemplate::Eq(template_text(v)?),
        SortCondition::Lt(v) => SortTemplate::Lt(template_text(v)?),
        SortCondition::Le(v) => SortTemplate::Le(template_text(v)?),
        SortCondition::Gt(v) => SortTemplate::Gt(template_text(v)?),
        SortCondition::Ge(v) => SortTemplate::Ge(template_text(v)?),
        SortCondition::Between(a, b) => {
            SortTemplate::Between([template_text(a)?, template_text(b)?])
        }
        SortCondition::BeginsWith(v) => SortTemplate::BeginsWith(template_text(v)?),
    })
}

/// `sk = { begins_with = "…" }` as a TOML value, for `AccessPattern::from_toml`.
fn sort_toml(sort: &SortTemplate) -> toml::Value {
    let (op, value): (&str, toml::Value) = match sort {
        SortTemplate::Eq(v) => ("eq", v.clone().into()),
        SortTemplate::Lt(v) => ("lt", v.clone().into()),
        SortTemplate::Le(v) => ("le", v.clone().into()),
        SortTemplate::Gt(v) => ("gt", v.clone().into()),
        SortTemplate::Ge(v) => ("ge", v.clone().into()),
        SortTemplate::Between([a, b]) => (
            "between",
            toml::Value::Array(vec![a.clone().into(), b.clone().into()]),
        ),
        SortTemplate::BeginsWith(v) => ("begins_with", v.clone().into()),
    };
    let mut t = BTreeMap::new();
    t.insert(op.to_string(), value);
    toml::Value::Table(t.into_iter().collect())
}
