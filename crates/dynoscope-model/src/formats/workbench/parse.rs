//! Model JSON to typed tables. Every mistake is one message naming where it is
//! (`DataModel[0] ('app').GlobalSecondaryIndexes[1] has no IndexName`).

use std::collections::BTreeMap;

use serde_json::Value;

use super::at::{kind_of, At};
use super::parse_pattern::access_pattern;
use super::rules;
use super::values::item_from_json;
use super::{Facet, ModelError, ModelIndex, ModelTable, WorkbenchModel};
use crate::design::schema::{KeyAttr, KeySchema, KeyType, Projection};
use crate::item::value::{AttrValue, Item};

/// Parses a model's text; `path` only names the file in messages.
pub fn parse_model(text: &str, path: &str) -> Result<WorkbenchModel, ModelError> {
    let error = |message: String| ModelError {
        path: path.to_string(),
        message,
    };
    let root: Value = serde_json::from_str(text).map_err(|e| {
        error(format!(
            "not JSON ({}); export the model from NoSQL Workbench as JSON",
            e
        ))
    })?;
    model(&root).map_err(error)
}

fn model(root: &Value) -> Result<WorkbenchModel, String> {
    let top = At {
        path: "the top level",
        value: root,
    };
    top.object()?;
    let name = top.text("ModelName")?.map(str::to_string);
    let tables_value = top.get("DataModel")?.ok_or_else(|| {
        "has no DataModel (the list of tables); is this a NoSQL Workbench model?".to_string()
    })?;
    let Value::Array(list) = tables_value else {
        return Err(format!(
            "DataModel must be an array of tables, got {}",
            kind_of(tables_value)
        ));
    };
    if list.is_empty() {
        return Err("DataModel has no tables".into());
    }
    let mut skipped = Vec::new();
    let mut tables: Vec<ModelTable> = Vec::new();
    let mut access_patterns = Vec::new();
    for (i, value) in list.iter().enumerate() {
        let path = format!("DataModel[{i}]");
        let at = At { path: &path, value };
        let name = at.required_text("TableName")?;
        rules::resource_name(&path, "table", name)?;
        let labelled = format!("{path} ('{name}')");
        let at = At {
            path: &labelled,
            value,
        };
        if tables.iter().any(|t| t.name == name) {
            return Err(format!("{labelled}: a second table named '{name}'"));
        }
        let table = table(at, name, &mut skipped)?;
        for (p, v) in at.list("AccessPatterns")? {
            access_patterns.push(access_pattern(At { path: &p, value: v }, Some(name))?);
        }
        tables.push(table);
    }
    for (p, v) in top.list("AccessPatterns")? {
        let pattern = access_pattern(At { path: &p, value: v }, None)?;
        if !tables.iter().any(|t| t.name == pattern.table) {
            return Err(format!(
                "{p} names table '{}', which the model does not have",
                pattern.table
            ));
        }
        access_patterns.push(pattern);
    }
    for key in ["ModelSchema"] {
        if top.get(key)?.is_some() {
            skipped.push(format!("{key}: not read (its layout is not documented)"));
        }
    }
    Ok(WorkbenchModel {
        name,
        tables,
        access_patterns,
        skipped,
    })
}

/// One key attribute at `path`: an object with `AttributeName` and `AttributeType`.
fn key_attr(path: String, value: &serde_json::Value) -> Result<KeyAttr, String> {
    let key = At { path: &path, value };
    let name = key.required_text("AttributeName")?;
    rules::key_name(&path, name)?;
    let key_type = match key.required_text("AttributeType")? {
        "S" => KeyType::S,
        "N" => KeyType::N,
        "B" => KeyType::B,
        other => {
            return Err(format!(
                "{path}.AttributeType '{other}' is not a key type; use S, N or B"
            ))
        }
    };
    Ok(KeyAttr {
        name: name.to_string(),
        key_type,
    })
}

/// `which`'s key attributes in order: one object, or (a multi-attribute GSI key) an array of
/// up to four of them, as DynamoDB lists its HASH or RANGE elements.
fn key_attrs(at: At<'_>, which: &str) -> Result<Vec<KeyAttr>, String> {
    match at.get(which)? {
        None => Ok(Vec::new()),
        Some(serde_json::Value::Array(_)) => at
            .list(which)?
            .into_iter()
            .map(|(path, value)| key_attr(path, value))
            .collect(),
        Some(value) => Ok(vec![key_attr(format!("{}.{which}", at.path), value)?]),
    }
}

fn key_schema(owner: At<'_>) -> Result<KeySchema, String> {
    let value = owner
        .get("KeyAttributes")?
        .ok_or_else(|| format!("{} has no KeyAttributes", owner.path))?;
    let path = format!("{}.KeyAttributes", owner.path);
    let at = At { path: &path, value };
    let partition = key_attrs(at, "PartitionKey")?;
    if partition.is_empty() {
        return Err(format!("{path} has no PartitionKey"));
    }
    let sort = key_attrs(at, "SortKey")?;
    KeySchema::new(partition, sort).map_err(|e| format!("{path}: {e}"))
}

fn index(at: At<'_>) -> Result<ModelIndex, String> {
    let name = at.required_text("IndexName")?;
    rules::resource_name(at.path, "index", name)?;
    let keys = key_schema(at)?;
    let projection = match at.get("Projection")? {
        None => Projection {
            projection_type: "ALL".into(),
            non_key_attributes: Vec::new(),
        },
        Some(value) => {
            let path = format!("{}.Projection", at.path);
            let p = At { path: &path, value };
            let projection_type = p.text("ProjectionType")?.unwrap_or("ALL");
            let non_key_attributes = p
                .list("NonKeyAttributes")?
                .into_iter()
                .map(|(path, v)| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("{path} must be an attribute name"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            match (projection_type, non_key_attributes.is_empty()) {
                ("ALL" | "KEYS_ONLY", true) | ("INCLUDE", false) => {}
                ("INCLUDE", true) => {
                    return Err(format!("{path}: INCLUDE names no NonKeyAttributes"))
                }
                ("ALL" | "KEYS_ONLY", false) => {
                    return Err(format!(
                        "{path}: NonKeyAttributes go with ProjectionType INCLUDE, not {projection_type}"
                    ))
                }
                (other, _) => {
                    return Err(format!(
                        "{path}.ProjectionType '{other}' is not ALL, KEYS_ONLY or INCLUDE"
                    ))
                }
            }
            Projection {
                projection_type: projection_type.to_string(),
                non_key_attributes,
            }
        }
    };
    Ok(ModelIndex {
        name: name.to_string(),
        keys,
        projection,
    })
}

fn table(at: At<'_>, name: &str, skipped: &mut Vec<String>) -> Result<ModelTable, String> {
    let keys = key_schema(at)?;
    if keys.is_multi_attribute() {
        return Err(format!(
            "{}.KeyAttributes: a table's key is one partition and at most one sort attribute ({} given); only a global secondary index takes several",
            at.path,
            keys.display()
        ));
    }
    let mut indexes: Vec<ModelIndex> = Vec::new();
    for (p, v) in at.list("GlobalSecondaryIndexes")? {
        let index = index(At { path: &p, value: v })?;
        if indexes.iter().any(|i| i.name == index.name) {
            return Err(format!("{p}: a second index named '{}'", index.name));
        }
        indexes.push(index);
    }
    rules::index_count(at.path, indexes.len())?;
    let projections: Vec<(&str, &[String])> = indexes
        .iter()
        .map(|i| (i.name.as_str(), i.projection.non_key_attributes.as_slice()))
        .collect();
    rules::projected(at.path, &projections)?;
    check_key_types(at.path, &keys, &indexes)?;
    let local_indexes = at.list("LocalSecondaryIndexes")?;
    // Not created, but a bad name is still a bad model: the file is refused whole or not at all.
    for (p, v) in &local_indexes {
        if let Some(name) = (At { path: p, value: v }).text("IndexName")? {
            rules::resource_name(p, "index", name)?;
        }
    }
    if !local_indexes.is_empty() {
        skipped.push(format!(
            "table '{name}': LocalSecondaryIndexes are not created by seed --model"
        ));
    }
    let mut items = Items::new(&keys, &indexes);
    for (p, v) in at.list("TableData")? {
        items.add(&p, item_from_json(v, &p)?)?;
    }
    let mut facets = Vec::new();
    for (p, v) in at.list("TableFacets")? {
        let facet_at = At { path: &p, value: v };
        let facet_name = facet_at.required_text("FacetName")?;
        let (pk_alias, sk_alias) = match facet_at.get("KeyAttributeAlias")? {
            None => (None, None),
            Some(value) => {
                let path = format!("{p}.KeyAttributeAlias");
                let a = At { path: &path, value };
                (
                    a.text("PartitionKeyAlias")?.map(str::to_string),
                    a.text("SortKeyAlias")?.map(str::to_string),
                )
            }
        };
        let mut facet_items = Vec::new();
        for (ip, iv) in facet_at.list("TableData")? {
            let item = item_from_json(iv, &ip)?;
            items.add(&ip, item.clone())?;
            facet_items.push(item);
        }
        facets.push(Facet {
            name: facet_name.to_string(),
            pk_alias,
            sk_alias,
            items: facet_items,
        });
    }
    let items = items.list;
    Ok(ModelTable {
        name: name.to_string(),
        keys,
        indexes,
        facets,
        items,
    })
}

/// A key attribute used by the table and an index must have one type: DynamoDB declares each
/// attribute once.
fn check_key_types(path: &str, keys: &KeySchema, indexes: &[ModelIndex]) -> Result<(), String> {
    let mut seen: BTreeMap<&str, (KeyType, String)> = BTreeMap::new();
    let table_keys = keys.attributes().map(|k| (k, "the table".to_string()));
    let index_keys = indexes.iter().flat_map(|i| {
        i.keys
            .attributes()
            .map(move |k| (k, format!("index '{}'", i.name)))
    });
    for (key, owner) in table_keys.chain(index_keys) {
        match seen.get(key.name.as_str()) {
            Some((t, first)) if *t != key.key_type => {
                return Err(format!(
                "{path}: key attribute '{}' is {} in {first} but {} in {owner}; give it one type",
                key.name,
                t.as_str(),
                key.key_type.as_str()
            ))
            }
            Some(_) => {}
            None => {
                seen.insert(&key.name, (key.key_type, owner));
            }
        }
    }
    Ok(())
}

/// The table's items, each primary key once: a repeat that is identical is dropped, one that
/// differs is an error (DynamoDB would keep only one of them).
struct Items<'a> {
    keys: &'a KeySchema,
    indexes: &'a [ModelIndex],
    list: Vec<Item>,
    by_key: BTreeMap<String, (usize, String)>,
}

impl<'a> Items<'a> {
    fn new(keys: &'a KeySchema, indexes: &'a [ModelIndex]) -> Self {
        Items {
            keys,
            indexes,
            list: Vec::new(),
            by_key: BTreeMap::new(),
        }
    }

    fn key_text(&self, item: &Item) -> String {
        self.keys
            .names()
            .iter()
            .map(|n| format!("{n}={}", item.get(n).map(shown).unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn add(&mut self, path: &str, item: Item) -> Result<(), String> {
        let check = |attr: &KeyAttr, owner: &str, required: bool| -> Result<(), String> {
            match item.get(&attr.name) {
                None if required => Err(format!(
                    "{path} has no '{}', the {owner}; every item needs the table's key attributes",
                    attr.name
                )),
                None => Ok(()),
                Some(v) if v.type_name() == attr.key_type.as_str() => match v {
                    AttrValue::S(s) if s.is_empty() => {
                        Err(format!("{path}: key attribute '{}' is empty", attr.name))
                    }
                    AttrValue::B(b) if b.is_empty() => Err(format!(
                        "{path}: key attribute '{}' is an empty binary; DynamoDB takes no empty key, give it a value",
                        attr.name
                    )),
                    _ => Ok(()),
                },
                Some(v) => Err(format!(
                    "{path}: '{}' is {} but the {owner} is declared {}",
                    attr.name,
                    v.type_name(),
                    attr.key_type.as_str()
                )),
            }
        };
        check(self.keys.partition_key(), "partition key", true)?;
        if let Some(sk) = self.keys.sort_key() {
            check(sk, "sort key", true)?;
        }
        for index in self.indexes {
            let owner = format!("key of index '{}'", index.name);
            for attr in index.keys.attributes() {
                check(attr, &owner, false)?;
            }
        }
        rules::item(path, self.keys, self.indexes, &item)?;
        let key = self.key_text(&item);
        match self.by_key.get(&key) {
            Some((at, _)) if self.list[*at] == item => Ok(()),
            Some((_, first)) => Err(format!(
                "{path} has the key {key} of {first} with other attributes; keep one of them"
            )),
            None => {
                self.by_key.insert(key, (self.list.len(), path.to_string()));
                self.list.push(item);
                Ok(())
            }
        }
    }
}

fn shown(value: &AttrValue) -> String {
    match value {
        AttrValue::S(s) | AttrValue::N(s) => format!("'{s}'"),
        other => format!("({})", other.type_name()),
    }
}
