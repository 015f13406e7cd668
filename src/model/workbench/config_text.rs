//! The config a model implies, as TOML text the config file parser accepts.

use super::patterns::{access_patterns, sort_toml};
use super::templates::{entity_templates, EntityTemplate};
use super::WorkbenchModel;
use crate::model::access_pattern::{AccessPattern, Order};
use crate::model::sanitize::sanitize;

#[derive(Debug, Clone, PartialEq)]
pub struct ImportedConfig {
    pub entities: Vec<EntityTemplate>,
    pub patterns: Vec<AccessPattern>,
    /// What the model holds that became no entry, one line each.
    pub skipped: Vec<String>,
}

/// Every table's entity templates and the model's access patterns.
pub fn imported_config(model: &WorkbenchModel) -> ImportedConfig {
    let mut entities = Vec::new();
    let mut skipped = model.skipped.clone();
    for table in &model.tables {
        let (t, s) = entity_templates(table);
        entities.extend(t);
        skipped.extend(s);
    }
    let (patterns, s) = access_patterns(model);
    skipped.extend(s);
    ImportedConfig {
        entities,
        patterns,
        skipped,
    }
}

fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// A comment line: model text passes through the one sanitiser, so it cannot end the comment
/// or reach the terminal raw.
fn comment(text: &str) -> String {
    format!("# {}\n", sanitize(text).replace(['\n', '\r'], " "))
}

impl ImportedConfig {
    /// The TOML text: a header naming the model, what was skipped, then the entries.
    pub fn to_toml(&self, model_name: Option<&str>, file: &str) -> String {
        let mut out = String::new();
        out.push_str(&comment(&format!(
            "From NoSQL Workbench model {}(file '{file}') by dynoscope model import",
            model_name.map(|n| format!("'{n}' ")).unwrap_or_default()
        )));
        for line in &self.skipped {
            out.push_str(&comment(&format!("skipped: {line}")));
        }
        if self.entities.is_empty() && self.patterns.is_empty() {
            out.push_str(&comment("no key templates or access patterns found"));
        }
        for e in &self.entities {
            out.push('\n');
            out.push_str(&comment(&format!("from {}", e.source)));
            out.push_str("[[entity]]\n");
            out.push_str(&format!("table = {}\n", quoted(&e.table)));
            out.push_str(&format!("pattern = {}\n", quoted(&e.template)));
        }
        for p in &self.patterns {
            out.push('\n');
            out.push_str("[[pattern]]\n");
            out.push_str(&format!("table = {}\n", quoted(&p.table)));
            out.push_str(&format!("name = {}\n", quoted(&p.name)));
            if let Some(d) = &p.description {
                out.push_str(&format!("description = {}\n", quoted(d)));
            }
            if let Some(i) = &p.index {
                out.push_str(&format!("index = {}\n", quoted(i)));
            }
            out.push_str(&format!("pk = {}\n", quoted(&p.pk)));
            if let Some(sk) = &p.sk {
                out.push_str(&format!("sk = {}\n", sort_toml(sk)));
            }
            if p.order == Order::Desc {
                out.push_str("order = \"desc\"\n");
            }
            if let Some(limit) = p.limit {
                out.push_str(&format!("limit = {limit}\n"));
            }
        }
        out
    }
}
