//! The request a write sends, as the preview shows it: operation, key, item or update,
//! condition, names and values, one line each.

use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::write::WritePlan;

/// The request as it will be sent, one line per part.
pub(crate) fn request_lines(plans: &[WritePlan]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, plan) in plans.iter().enumerate() {
        let Ok(ops) = plan.render() else {
            continue;
        };
        if i >= 2 {
            lines.push(format!(
                "… and {} more requests like these",
                plans.len() - i
            ));
            break;
        }
        let json = |item: &Item| {
            let mut s = String::new();
            append_dynamo_json(&mut s, item);
            s
        };
        let transaction = ops.len() > 1;
        if plan.in_turn() {
            // A delete cannot go in a transaction and still be compared with what it removed.
            lines.push(
                "In turn: the PutItem, then the DeleteItem (the put taken back if the delete is refused)"
                    .to_string(),
            );
        } else if transaction {
            lines.push(format!(
                "TransactWriteItems ({})",
                crate::model::text::wording::count(ops.len() as u64, "item")
            ));
        }
        for op in ops.iter().take(3) {
            let pad = if transaction { "  " } else { "" };
            lines.push(format!("{pad}{} {}", op.operation, op.table));
            lines.push(format!("{pad}  Key: {}", json(&op.key)));
            if let Some(item) = &op.item {
                lines.push(format!("{pad}  Item: {}", json(item)));
            }
            if let Some(update) = &op.update {
                lines.push(format!("{pad}  UpdateExpression: {update}"));
            }
            lines.push(format!("{pad}  ConditionExpression: {}", op.condition));
            let names: Vec<String> = op
                .names
                .iter()
                .map(|(p, n)| format!("{p}={}", serde_json::Value::String(n.clone())))
                .collect();
            lines.push(format!(
                "{pad}  ExpressionAttributeNames: {}",
                names.join(" ")
            ));
            let values: Vec<String> = op
                .values
                .iter()
                .map(|(p, v)| {
                    // The value alone: `{"":{"S":"x"}}` without its wrapper.
                    let wrapped = json(&Item::from_attrs(vec![(String::new(), v.clone())]));
                    let inner = wrapped[4..].strip_suffix('}').unwrap_or_default();
                    format!("{p}={inner}")
                })
                .collect();
            lines.push(format!(
                "{pad}  ExpressionAttributeValues: {}",
                values.join(" ")
            ));
        }
        if ops.len() > 3 {
            lines.push(format!(
                "  … {} more items, each on its own condition",
                ops.len() - 3
            ));
        }
        lines.push("ReturnConsumedCapacity: INDEXES".into());
    }
    lines
}
