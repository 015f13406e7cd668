//! The config a model implies, as TOML text the config file parser accepts.

use super::patterns::access_patterns;
use super::templates::{entity_templates, EntityTemplate};
use super::WorkbenchModel;
use crate::design::access_pattern::{AccessPattern, Order, SortTemplate};
use crate::text::sanitize::{needs_escape, sanitize};

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

/// A TOML basic string. Every character the sanitiser would escape is written as a `\u`
/// escape, so the value is exact and no model text reaches the terminal raw.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One template as a string, several as a list (a multi-attribute key's).
fn templates_text(texts: &[String]) -> String {
    match texts {
        [one] => quoted(one),
        several => format!(
            "[{}]",
            several
                .iter()
                .map(|t| quoted(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `{ begins_with = "…" }`, as the config file spells a sort condition.
fn sort_text(sort: &SortTemplate) -> String {
    let (op, value) = match sort {
        SortTemplate::Eq(v) => ("eq", quoted(v)),
        SortTemplate::Lt(v) => ("lt", quoted(v)),
        SortTemplate::Le(v) => ("le", quoted(v)),
        SortTemplate::Gt(v) => ("gt", quoted(v)),
        SortTemplate::Ge(v) => ("ge", quoted(v)),
        SortTemplate::Between([a, b]) => ("between", format!("[{}, {}]", quoted(a), quoted(b))),
        SortTemplate::BeginsWith(v) => ("begins_with", quoted(v)),
    };
    format!("{{ {op} = {value} }}")
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
            out.push_str(&format!("pk = {}\n", templates_text(&p.pk)));
            if !p.sk_eq.is_empty() {
                out.push_str(&format!("sk_eq = {}\n", templates_text(&p.sk_eq)));
            }
            if let Some(sk) = &p.sk {
                out.push_str(&format!("sk = {}\n", sort_text(sk)));
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
