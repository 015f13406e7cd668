//! Indexes an operator adds to a library's table on attributes the library itself writes: the
//! libraries declare their GSIs with ALL projections (or none at all), while the primer's
//! troubles need a KEYS_ONLY index and a GSI keyed on a status-like attribute. The items stay
//! exactly what the library wrote; only the CreateTable input gains the indexes.

use serde_json::{json, Value};

use super::corpus::Design;

/// One GSI to add: its name, its keys (string attributes) and its projection type.
pub struct ExtraIndex<'a> {
    pub name: &'a str,
    pub hash: &'a str,
    pub range: Option<&'a str>,
    /// `ALL`, `KEYS_ONLY` (INCLUDE is not needed by any test yet).
    pub projection: &'a str,
}

/// The design with `extra` GSIs in its CreateTable input (and their key attributes defined).
pub fn with_indexes(design: &Design, extra: &[ExtraIndex]) -> Design {
    let mut d = design.clone();
    let table = d.table.as_object_mut().expect("table is an object");
    for index in extra {
        let mut schema = vec![json!({"AttributeName": index.hash, "KeyType": "HASH"})];
        if let Some(range) = index.range {
            schema.push(json!({"AttributeName": range, "KeyType": "RANGE"}));
        }
        let gsi = json!({
            "IndexName": index.name,
            "KeySchema": schema,
            "Projection": {"ProjectionType": index.projection},
        });
        match table.get_mut("GlobalSecondaryIndexes") {
            Some(Value::Array(list)) => list.push(gsi),
            _ => {
                table.insert("GlobalSecondaryIndexes".into(), Value::Array(vec![gsi]));
            }
        }
        let defs = table
            .get_mut("AttributeDefinitions")
            .and_then(Value::as_array_mut)
            .expect("AttributeDefinitions is a list");
        for name in std::iter::once(index.hash).chain(index.range) {
            if !defs.iter().any(|a| a["AttributeName"] == name) {
                defs.push(json!({"AttributeName": name, "AttributeType": "S"}));
            }
        }
    }
    d
}
