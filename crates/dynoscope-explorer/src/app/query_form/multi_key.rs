//! The query form on a multi-attribute key (a GSI keyed by up to four partition and four sort
//! attributes): one field per key attribute, `PkAt(n)` then `SkAt(n)` in key-schema order, and
//! one operator (`Op`) that applies to the last filled sort field — every other filled sort
//! field is an equality. So the form can only spell DynamoDB's rule: an equality on every
//! partition attribute, equalities on a prefix of the sort attributes, at most one range on the
//! next. What it cannot spell (an empty partition field, a sort field after an empty one) is
//! refused naming the attribute, and the condition is built through `KeyCondition` all the same.
//!
//! A one-and-one key keeps its `Pk`, `Op`, `Sk` fields; nothing here touches them.

use crate::model::design::schema::attribute_names;
use std::collections::BTreeSet;

use super::field::{Field, SORT_OPS};
use super::form::{FieldError, QueryForm};
use crate::model::design::schema::{KeySchema, KeyType, TableInfo, MAX_KEY_ATTRIBUTES};
use crate::model::query::key_condition::{
    KeyCondition, KeyConditionError, KeyValue, SortInput, SortOp,
};
use crate::model::query::partiql::complete::{open_sort_value, pinned_partition};

/// Where a key field's text lives in `QueryForm::key_parts`.
pub(super) fn slot(field: Field) -> usize {
    match field {
        Field::PkAt(n) => usize::from(n),
        Field::SkAt(n) => MAX_KEY_ATTRIBUTES + usize::from(n),
        other => unreachable!("{other:?} is not a key attribute's field"),
    }
}

/// The key fields of a multi-attribute key in Tab order: every partition attribute, every sort
/// attribute, the operator on the last filled one, and its high value for `between`.
pub(super) fn key_fields(b: &QueryForm, keys: &KeySchema) -> Vec<Field> {
    let mut fields: Vec<Field> = (0..keys.partition().len())
        .map(|n| Field::PkAt(n as u8))
        .collect();
    fields.extend((0..keys.sort().len()).map(|n| Field::SkAt(n as u8)));
    if !keys.sort().is_empty() {
        fields.push(Field::Op);
        if SORT_OPS[b.op] == "between" {
            fields.push(Field::SkHigh);
        }
    }
    fields
}

/// The position of a key field among the key's attributes (partition first), if it is one.
pub(crate) fn position(keys: &KeySchema, field: Field) -> Option<usize> {
    match field {
        Field::PkAt(n) => Some(usize::from(n)),
        Field::SkAt(n) => Some(keys.partition().len() + usize::from(n)),
        _ => None,
    }
}

/// The sort fields filled from the first on (the prefix the condition reads).
pub(super) fn filled_sort(b: &QueryForm, keys: &KeySchema) -> usize {
    (0..keys.sort().len())
        .take_while(|n| !b.text(Field::SkAt(*n as u8)).is_empty())
        .count()
}

/// The field of the key attribute at `position` (partition first).
fn field_at(keys: &KeySchema, position: usize) -> Field {
    match position.checked_sub(keys.partition().len()) {
        None => Field::PkAt(position as u8),
        Some(n) => Field::SkAt(n as u8),
    }
}

/// Completions of a key field (`SkHigh`: of the last filled sort attribute): the values of
/// its attribute among the loaded items and the key sample, of the items whose earlier key
/// attributes hold what the fields before it say (a region seen with the typed
/// tournamentId). Whether the attribute is a number comes first.
pub(super) fn completion_values(
    b: &QueryForm,
    keys: &KeySchema,
    field: Field,
) -> Option<(bool, BTreeSet<String>)> {
    let field = match field {
        Field::SkHigh => Field::SkAt(filled_sort(b, keys).checked_sub(1)? as u8),
        other => other,
    };
    let at = position(keys, field)?;
    let attr = keys.attributes().nth(at)?;
    let before: Vec<String> = (0..at).map(|p| b.text(field_at(keys, p))).collect();
    Some((attr.key_type == KeyType::N, values_at(b, at, &before)))
}

/// The values of the key attribute at position `at` among the loaded and sampled key rows
/// whose earlier attributes equal `before` (an empty one: any value).
fn values_at(b: &QueryForm, at: usize, before: &[String]) -> BTreeSet<String> {
    (b.loaded_keys.rows.iter())
        .chain(&b.sample.rows)
        .filter(|row| row.len() > at)
        .filter(|row| {
            before
                .iter()
                .zip(row.iter())
                .all(|(t, v)| t.is_empty() || t == v)
        })
        .map(|row| row[at].clone())
        .collect()
}

/// In PartiQL mode on a multi-attribute key: the value being typed after a key attribute
/// (`region = 'U`, `round >= '`, `begins_with(round, '`), as the text before it, the partial
/// value, whether the attribute is a number, and its values seen with what the statement pins
/// for the attributes before it (`tournamentId = 'WINTER2024'`).
pub(super) fn statement_completion<'t>(
    b: &QueryForm,
    keys: &KeySchema,
    typed: &'t str,
) -> Option<(&'t str, String, bool, BTreeSet<String>)> {
    let (at, (head, partial)) = keys
        .attributes()
        .enumerate()
        .find_map(|(p, a)| open_sort_value(typed, &a.name).map(|open| (p, open)))?;
    let before: Vec<String> = (keys.attributes().take(at))
        .map(|a| pinned_partition(head, &a.name).unwrap_or_default())
        .collect();
    let numeric = keys.attributes().nth(at)?.key_type == KeyType::N;
    Some((head, partial, numeric, values_at(b, at, &before)))
}

impl QueryForm {
    /// The one-and-one form's sort condition: the operator on `Sk`.
    pub(super) fn sort_input(&self) -> Option<SortInput> {
        self.sort_input_on(self.text(Field::Sk))
    }

    /// The chosen operator on `v` (and `SkHigh` for between); `None` for no operator.
    pub(super) fn sort_input_on(&self, v: String) -> Option<SortInput> {
        let hi = self.text(Field::SkHigh);
        Some(match SORT_OPS[self.op] {
            "=" => SortInput::Eq(v),
            "<" => SortInput::Lt(v),
            "<=" => SortInput::Le(v),
            ">" => SortInput::Gt(v),
            ">=" => SortInput::Ge(v),
            "between" => SortInput::Between(v, hi),
            "begins_with" => SortInput::BeginsWith(v),
            _ => return None,
        })
    }

    /// A field's label: a key attribute's field is labelled by the attribute's name (cut to
    /// `width`), the operator of a multi-attribute key says where it applies.
    pub fn field_label(&self, info: &TableInfo, field: Field, width: usize) -> String {
        let keys = self.keys(info);
        let attr = position(keys, field).and_then(|p| keys.attributes().nth(p));
        let text = match (attr, field) {
            (Some(a), _) => a.name.clone(),
            (None, Field::Op) if keys.is_multi_attribute() => "op on last sort".into(),
            _ => field.label().to_string(),
        };
        match text.chars().count() > width {
            true => text
                .chars()
                .take(width.saturating_sub(1))
                .chain(['…'])
                .collect(),
            false => text,
        }
    }

    /// On opening, choosing another index or recalling a query, the focus moves to the same
    /// kind of field when the key's shape changed (`Pk` ↔ `PkAt(0)`, `Sk` ↔ `SkAt(0)`).
    pub(super) fn fit_focus(&mut self, info: &TableInfo) {
        let fields = self.fields(info);
        if fields.contains(&self.focus) {
            return;
        }
        let wanted: &[Field] = match self.focus {
            Field::Pk => &[Field::PkAt(0)],
            Field::Sk | Field::SkHigh => &[Field::SkAt(0)],
            Field::PkAt(_) => &[Field::Pk],
            Field::SkAt(_) => &[Field::Sk, Field::Op, Field::Pk],
            _ => &[],
        };
        if let Some(f) = wanted.iter().find(|f| fields.contains(f)) {
            self.focus = *f;
        }
    }
}

/// The fields' key condition, built through `KeyCondition` (so through `KeyCondition::new`),
/// or the field at fault with one line naming its attribute and the fix.
pub(super) fn condition(b: &QueryForm, keys: &KeySchema) -> Result<KeyCondition, FieldError> {
    let err = |field: Field, message: String| FieldError { field, message };
    let mut partition = Vec::new();
    for (n, attr) in keys.partition().iter().enumerate() {
        let field = Field::PkAt(n as u8);
        let raw = b.text(field);
        if raw.is_empty() {
            return Err(err(
                field,
                format!(
                    "partition attribute '{}' has no value: DynamoDB needs an equality on every partition attribute ({}); type its value",
                    attr.name,
                    attribute_names(keys.partition())
                ),
            ));
        }
        KeyValue::parse(&raw, attr).map_err(|e| err(field, e.to_string()))?;
        partition.push(raw);
    }
    let sort = keys.sort();
    let filled = filled_sort(b, keys);
    // A sort field after an empty one: DynamoDB reads the sort attributes in order.
    if let Some(at) = (filled..sort.len()).find(|n| !b.text(Field::SkAt(*n as u8)).is_empty()) {
        let gap = KeyConditionError::SortGap {
            attribute: sort[at].name.clone(),
            missing: sort[filled].name.clone(),
        };
        return Err(err(Field::SkAt(at as u8), gap.to_string()));
    }
    let op = b.sort_input_on(String::new()).map(|i| i.op());
    let range = op.filter(|op| *op != SortOp::Eq);
    if let (Some(_), 0) = (range, filled) {
        let first = sort.first().map_or("", |a| a.name.as_str());
        return Err(err(
            Field::Op,
            format!(
                "‹ {} › applies to the last filled sort attribute and none is filled; type a value for '{first}' or choose (none)",
                SORT_OPS[b.op]
            ),
        ));
    }
    let equalities = filled - usize::from(range.is_some());
    let mut prefix = Vec::new();
    for (n, attr) in sort.iter().enumerate().take(equalities) {
        let field = Field::SkAt(n as u8);
        let raw = b.text(field);
        KeyValue::parse(&raw, attr).map_err(|e| err(field, e.to_string()))?;
        prefix.push(raw);
    }
    let last = Field::SkAt(equalities as u8);
    let input = match range {
        None => None,
        Some(op) => {
            KeyCondition::check_sort_op_at(keys, equalities, op)
                .map_err(|e| err(Field::Op, e.to_string()))?;
            if op == SortOp::Between {
                KeyValue::parse(&b.text(Field::SkHigh), &sort[equalities])
                    .map_err(|e| err(Field::SkHigh, e.to_string()))?;
            }
            b.sort_input_on(b.text(last))
        }
    };
    KeyCondition::build_parts(keys, &partition, &prefix, input)
        .map_err(|e| err(last, e.to_string()))
}

#[cfg(test)]
#[path = "multi_key_tests.rs"]
mod tests;
