//! A write op as the request DynamoDB receives: expressions with `#a0`/`:v0` placeholders for
//! every name and value (so reserved words and any character in a name are safe), checked
//! against DynamoDB's expression limits before anything is sent.

use super::condition::{Check, Guard};
use super::plan::{OpAction, PlanError, WriteOp};
use crate::item::value::{AttrValue, Item};

/// DynamoDB's limit on the length of any one expression ("Constraints in Amazon DynamoDB",
/// expression parameters).
pub const MAX_EXPRESSION_BYTES: usize = 4096;
/// DynamoDB's limit on operators and functions in an UpdateExpression, applied here to the
/// ConditionExpression as well: a full-image condition of 150 attributes has 299.
pub const MAX_EXPRESSION_OPERATORS: usize = 300;

/// One request, as the preview shows it and `aws::write` sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedOp {
    /// `PutItem`, `UpdateItem` or `DeleteItem`.
    pub operation: &'static str,
    pub table: String,
    pub key: Item,
    /// PutItem: the whole item.
    pub item: Option<Item>,
    pub update: Option<String>,
    pub condition: String,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
}

#[derive(Default)]
struct Placeholders {
    names: Vec<(String, String)>,
    values: Vec<(String, AttrValue)>,
}

impl Placeholders {
    fn name(&mut self, name: &str) -> String {
        if let Some((p, _)) = self.names.iter().find(|(_, n)| n == name) {
            return p.clone();
        }
        let p = format!("#a{}", self.names.len());
        self.names.push((p.clone(), name.to_string()));
        p
    }

    fn value(&mut self, value: &AttrValue) -> String {
        let p = format!(":v{}", self.values.len());
        self.values.push((p.clone(), value.clone()));
        p
    }
}

fn render_guard(guard: &Guard, ph: &mut Placeholders) -> (String, usize) {
    let clauses: Vec<String> = guard
        .checks
        .iter()
        .map(|check| match check {
            Check::Equals(name, value) => format!("{} = {}", ph.name(name), ph.value(value)),
            Check::Absent(name) => format!("attribute_not_exists({})", ph.name(name)),
        })
        .collect();
    let operators = (2 * clauses.len()).saturating_sub(1);
    (clauses.join(" AND "), operators)
}

impl WriteOp {
    pub fn render(&self, table: &str) -> Result<RenderedOp, PlanError> {
        let mut ph = Placeholders::default();
        let (condition, operators) = render_guard(&self.guard, &mut ph);
        let too_big = |what: &str, bytes: usize, operators: usize| {
            PlanError::TooBig(format!(
                "the {what} for {} is {bytes} bytes with {operators} operators, past DynamoDB's {MAX_EXPRESSION_BYTES}-byte and {MAX_EXPRESSION_OPERATORS}-operator limits; name a version attribute for table '{table}' in the config ([[table]] name = \"{table}\" version_attribute = \"…\") so the condition compares that one attribute",
                self.guard_subject(),
            ))
        };
        if condition.len() > MAX_EXPRESSION_BYTES || operators > MAX_EXPRESSION_OPERATORS {
            return Err(too_big("condition", condition.len(), operators));
        }
        let (operation, item, update) = match &self.action {
            OpAction::Put(item) => ("PutItem", Some(item.clone()), None),
            OpAction::Delete => ("DeleteItem", None, None),
            OpAction::Update { set, remove } => {
                let mut parts = Vec::new();
                if !set.is_empty() {
                    let sets: Vec<String> = set
                        .iter()
                        .map(|(n, v)| format!("{} = {}", ph.name(n), ph.value(v)))
                        .collect();
                    parts.push(format!("SET {}", sets.join(", ")));
                }
                if !remove.is_empty() {
                    let names: Vec<String> = remove.iter().map(|n| ph.name(n)).collect();
                    parts.push(format!("REMOVE {}", names.join(", ")));
                }
                let text = parts.join(" ");
                let operators = set.len() + remove.len();
                if text.len() > MAX_EXPRESSION_BYTES || operators > MAX_EXPRESSION_OPERATORS {
                    return Err(too_big("update", text.len(), operators));
                }
                ("UpdateItem", None, Some(text))
            }
        };
        Ok(RenderedOp {
            operation,
            table: table.to_string(),
            key: self.key.clone(),
            item,
            update,
            condition,
            names: ph.names,
            values: ph.values,
        })
    }

    fn guard_subject(&self) -> String {
        let mut key = String::new();
        crate::formats::json::append_plain_json(&mut key, &self.key);
        format!("the item {key}")
    }
}
