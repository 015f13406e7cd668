//! NoSQL Workbench data models (the JSON its data modeler imports and exports), read into typed
//! tables, and the dynoscope config they imply.
//!
//! The format, as Workbench writes it (model `Version` 1.0 to 3.0):
//!
//! ```json
//! { "ModelName": "…", "ModelMetadata": { "Version": "3.0", … },
//!   "DataModel": [ { "TableName": "app",
//!       "KeyAttributes": { "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
//!                          "SortKey": {…} },
//!       "NonKeyAttributes": [ {"AttributeName": "…", "AttributeType": "S"} ],
//!       "GlobalSecondaryIndexes": [ { "IndexName": "GSI1", "KeyAttributes": {…},
//!                                     "Projection": {"ProjectionType": "ALL"} } ],
//!       "TableFacets": [ { "FacetName": "user",
//!           "KeyAttributeAlias": {"PartitionKeyAlias": "…", "SortKeyAlias": "…"},
//!           "TableData": [ …items in DynamoDB JSON… ], "NonKeyAttributes": ["…"] } ],
//!       "TableData": [ …items… ], "BillingMode": "PAY_PER_REQUEST" } ] }
//! ```
//!
//! Access patterns (Workbench 3.20's data modeler) are read from an `AccessPatterns` list at
//! the top level or in a table, spelled as the request they stand for (see [`patterns`]).
//! Whatever else a model holds (`DataAccess`, capacity settings, `ModelSchema`…) is ignored.
//! Parsing is pure: the caller reads the file.

mod at;
mod config_text;
mod parse;
mod parse_pattern;
pub mod patterns;
mod rules;
pub mod templates;
mod values;

pub use config_text::{imported_config, ImportedConfig};
pub use parse::parse_model;

use crate::design::schema::{
    IndexInfo, IndexKind, KeySchema, Projection as IndexProjection, TableInfo,
};
use crate::item::value::{AttrValue, Item};

/// What is wrong with a model file: one line, naming the file and the place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("model file '{path}': {message}")]
pub struct ModelError {
    pub path: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct WorkbenchModel {
    pub name: Option<String>,
    pub tables: Vec<ModelTable>,
    /// Access patterns from the top level and from every table, in file order.
    pub access_patterns: Vec<ModelAccessPattern>,
    /// Parts of the file that were read but are not used, one line each.
    pub skipped: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelIndex {
    pub name: String,
    pub keys: KeySchema,
    pub projection: IndexProjection,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Facet {
    pub name: String,
    pub pk_alias: Option<String>,
    pub sk_alias: Option<String>,
    /// The facet's own `TableData` (older models keep their items in the facets).
    pub items: Vec<Item>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelTable {
    pub name: String,
    pub keys: KeySchema,
    pub indexes: Vec<ModelIndex>,
    pub facets: Vec<Facet>,
    /// The table's `TableData` followed by its facets' items not already in it: every item
    /// once, by primary key.
    pub items: Vec<Item>,
}

impl ModelTable {
    /// The table as `seed --model` creates it: on-demand, whatever the model's billing mode
    /// (a local table has no capacity to plan).
    pub fn table_info(&self) -> TableInfo {
        TableInfo {
            name: self.name.clone(),
            status: "CREATING".into(),
            keys: self.keys.clone(),
            indexes: self
                .indexes
                .iter()
                .map(|i| IndexInfo {
                    name: i.name.clone(),
                    kind: IndexKind::Gsi,
                    keys: i.keys.clone(),
                    projection: i.projection.clone(),
                    provisioned: None,
                    item_count: None,
                    size_bytes: None,
                })
                .collect(),
            billing_mode: "PAY_PER_REQUEST".into(),
            provisioned: None,
            item_count: self.items.len() as i64,
            size_bytes: 0,
            ttl_attribute: None,
            stream: None,
            on_demand_max: None,
        }
    }

    /// The key schema of the table (`None`) or of one of its indexes.
    pub fn keys_for(&self, index: Option<&str>) -> Option<&KeySchema> {
        match index {
            None => Some(&self.keys),
            Some(name) => self
                .indexes
                .iter()
                .find(|i| i.name == name)
                .map(|i| &i.keys),
        }
    }
}

/// One access pattern as the model spells it, before it is turned into a `[[pattern]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAccessPattern {
    pub name: String,
    pub description: Option<String>,
    /// `Query`, `GetItem`, `Scan`, … as written.
    pub operation: String,
    pub table: String,
    pub index: Option<String>,
    pub key_condition: Option<String>,
    /// `GetItem`'s `Key`.
    pub key: Option<Item>,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
    pub descending: bool,
    pub limit: Option<usize>,
    pub has_filter: bool,
}

#[cfg(test)]
#[path = "workbench_tests.rs"]
mod tests;
