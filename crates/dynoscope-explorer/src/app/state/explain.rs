//! The aws-cli command the EXPLAIN pane offers for a request: the same request, pasteable.

use crate::model::engine::ReadSpec;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::text::shell::shell_word;

/// The same request as an aws-cli command line, ready to paste.
pub fn aws_cli(spec: &ReadSpec) -> String {
    let mut cmd = format!(
        "aws dynamodb query --table-name {}",
        shell_word(&spec.table)
    );
    if let Some(index) = &spec.index {
        cmd.push_str(&format!(" --index-name {}", shell_word(index)));
    }
    if let Some(k) = &spec.key_condition {
        cmd.push_str(&format!(" --key-condition-expression {}", shell_word(k)));
    }
    if let Some(f) = &spec.filter {
        cmd.push_str(&format!(" --filter-expression {}", shell_word(f)));
    }
    if let Some(p) = &spec.projection {
        cmd.push_str(&format!(" --projection-expression {}", shell_word(p)));
    }
    if !spec.names.is_empty() {
        let map: serde_json::Map<String, serde_json::Value> = spec
            .names
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        cmd.push_str(&format!(
            " --expression-attribute-names {}",
            shell_word(&serde_json::Value::Object(map).to_string())
        ));
    }
    if !spec.values.is_empty() {
        let mut json = String::new();
        append_dynamo_json(&mut json, &Item::from_attrs(spec.values.clone()));
        cmd.push_str(&format!(
            " --expression-attribute-values {}",
            shell_word(&json)
        ));
    }
    if spec.descending {
        cmd.push_str(" --no-scan-index-forward");
    }
    if let Some(n) = spec.limit {
        cmd.push_str(&format!(" --max-items {n}"));
    }
    cmd.push_str(" --return-consumed-capacity INDEXES");
    cmd
}
