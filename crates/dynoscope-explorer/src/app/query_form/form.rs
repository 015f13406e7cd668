//! The query form (`:`): fields, live validation with DynamoDB's rules, the EXPLAIN of the exact
//! request, and the equivalent aws-cli command. Pure: `prepare` turns fields into a request or
//! names the field at fault.

use ratatui_textarea::TextArea;

use super::field::{Field, SORT_OPS};
use super::loaded_keys::LoadedKeys;
use super::partiql::PartiqlForm;
use crate::app::state::aws_cli;

use crate::model::design::schema::{KeySchema, TableInfo, MAX_KEY_ATTRIBUTES};
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{Operation, ReadSpec};
use crate::model::formats::json::{parse_dynamo_values, parse_names};
use crate::model::item::value::AttrValue;
use crate::model::query::expression::parse_key_condition;
use crate::model::query::filter_compile::{compile_filter_beside, compile_projection_beside};
use crate::model::query::key_condition::{KeyCondition, KeyValue};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: Field,
    pub message: String,
}

/// A validated request and how to explain it.
#[derive(Debug, Clone)]
pub struct PreparedQuery {
    pub spec: ReadSpec,
    /// The equivalent `aws dynamodb query …` command line.
    pub cli: String,
    pub warning: Option<String>,
    /// The request in every dialect the form can spell (Ctrl-T chooses, Ctrl-Y copies).
    pub dialects: Vec<(&'static str, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub field: Field,
    pub items: Vec<String>,
    /// Per key completion, the loaded keys behind it (empty for attribute names).
    pub counts: Vec<usize>,
    /// How they are listed (Ctrl-O toggles).
    pub order: crate::model::query::completion::CompletionOrder,
    pub selected: usize,
}

/// Keys fetched for completion when the user asked (Ctrl-S): one small keys-only page, priced
/// before it is sent and logged like any other request.
#[derive(Debug, Clone, Default)]
pub struct KeySample {
    pub request_id: Option<u64>,
    /// A partition-key sample was asked for (it is not offered again).
    pub pk_sampled: bool,
    /// The partition key whose sort keys were sampled (`None`: a partition-key sample).
    pub for_pk: Option<String>,
    pub pk_values: Vec<String>,
    pub sk_values: Vec<String>,
    /// On a multi-attribute key: each sampled item's key values, every attribute in
    /// key-schema order (partition first).
    pub rows: Vec<Vec<String>>,
}

/// Raw mode's three fields: a KeyConditionExpression with its names and values as typed.
#[derive(Debug, Clone, Default)]
pub struct RawInputs {
    pub key: TextArea<'static>,
    pub names: TextArea<'static>,
    pub values: TextArea<'static>,
}

/// The form's state. Each mode's own inputs are grouped (`raw_inputs`, `pql`) so the fields
/// here are the ones every mode shares.
#[derive(Debug, Clone)]
pub struct QueryForm {
    pub raw: bool,
    /// PartiQL mode (Ctrl-R cycles form → raw → PartiQL): one statement instead of the fields.
    pub partiql: bool,
    /// PartiQL mode's statement, parameters, check and EXPLAIN scroll.
    pub pql: PartiqlForm,
    /// The dialect EXPLAIN shows and Ctrl-Y copies (Ctrl-T cycles them), in either mode.
    pub dialect: usize,
    pub focus: Field,
    /// 0 = the table, n = the table's n-th index.
    pub index: usize,
    pub op: usize,
    pub descending: bool,
    pub pk: TextArea<'static>,
    pub sk: TextArea<'static>,
    pub sk_high: TextArea<'static>,
    /// A multi-attribute key's fields: `PkAt(n)` in slot n, `SkAt(n)` in slot
    /// `MAX_KEY_ATTRIBUTES + n` (see `multi_key`).
    pub key_parts: Vec<TextArea<'static>>,
    pub limit: TextArea<'static>,
    pub filter: TextArea<'static>,
    pub projection: TextArea<'static>,
    pub raw_inputs: RawInputs,
    pub completion: Option<Completion>,
    /// Esc (or accepting with Enter) hides completions until the text changes again.
    pub completion_dismissed: bool,
    pub check: Result<PreparedQuery, FieldError>,
    pub sample: KeySample,
    /// The completion popup's priced action, when a sample would add keys:
    /// `Ctrl-S sample 100 keys · ≈ 1.5 RCU`.
    pub sample_offer: Option<String>,
    /// The chosen keys' values among the loaded items, when the store groups by other keys.
    pub loaded_keys: LoadedKeys,
    /// Bumped on every edit of a key field; a debounce timer only acts on the latest.
    pub generation: u64,
    pub history_cursor: Option<usize>,
}

fn text(area: &TextArea) -> String {
    area.lines().join("\n")
}

fn area_with(value: &str) -> TextArea<'static> {
    let mut a = TextArea::from([value.to_string()]);
    a.move_cursor(ratatui_textarea::CursorMove::End);
    a
}

impl QueryForm {
    pub fn new(index: usize) -> QueryForm {
        QueryForm {
            raw: false,
            partiql: false,
            pql: PartiqlForm::default(),
            dialect: 0,
            focus: Field::Pk,
            index,
            op: 0,
            descending: false,
            pk: TextArea::default(),
            sk: TextArea::default(),
            sk_high: TextArea::default(),
            key_parts: vec![TextArea::default(); 2 * MAX_KEY_ATTRIBUTES],
            limit: TextArea::default(),
            filter: TextArea::default(),
            projection: TextArea::default(),
            raw_inputs: RawInputs::default(),
            completion: None,
            completion_dismissed: false,
            check: Err(FieldError {
                field: Field::Pk,
                message: "type a partition key value".into(),
            }),
            sample: KeySample::default(),
            sample_offer: None,
            loaded_keys: Default::default(),
            generation: 0,
            history_cursor: None,
        }
    }

    /// The fields in Tab order. A key schema without a sort key (a hash-only table or index)
    /// has no sort-key operator or value to fill.
    pub fn fields(&self, info: &TableInfo) -> Vec<Field> {
        if self.partiql {
            return vec![Field::Statement, Field::Parameters];
        }
        let mut f = vec![Field::Index];
        if self.raw {
            f.extend([Field::RawKey, Field::RawNames, Field::RawValues]);
        } else if self.keys(info).is_multi_attribute() {
            f.extend(super::multi_key::key_fields(self, self.keys(info)));
        } else {
            f.push(Field::Pk);
            if self.keys(info).sort_key().is_some() {
                f.push(Field::Op);
                if self.op != 0 {
                    f.push(Field::Sk);
                }
                if SORT_OPS[self.op] == "between" {
                    f.push(Field::SkHigh);
                }
            }
        }
        f.extend([Field::Order, Field::Limit, Field::Filter, Field::Projection]);
        f
    }

    pub fn input(&self, field: Field) -> Option<&TextArea<'static>> {
        Some(match field {
            Field::Pk => &self.pk,
            Field::Sk => &self.sk,
            Field::SkHigh => &self.sk_high,
            Field::PkAt(n) => &self.key_parts[super::multi_key::slot(Field::PkAt(n))],
            Field::SkAt(n) => &self.key_parts[super::multi_key::slot(Field::SkAt(n))],
            Field::Limit => &self.limit,
            Field::Filter => &self.filter,
            Field::Projection => &self.projection,
            Field::RawKey => &self.raw_inputs.key,
            Field::RawNames => &self.raw_inputs.names,
            Field::RawValues => &self.raw_inputs.values,
            Field::Statement => &self.pql.statement,
            Field::Parameters => &self.pql.parameters,
            Field::Index | Field::Op | Field::Order => return None,
        })
    }

    pub fn input_mut(&mut self, field: Field) -> Option<&mut TextArea<'static>> {
        Some(match field {
            Field::Pk => &mut self.pk,
            Field::Sk => &mut self.sk,
            Field::SkHigh => &mut self.sk_high,
            Field::PkAt(n) => &mut self.key_parts[super::multi_key::slot(Field::PkAt(n))],
            Field::SkAt(n) => &mut self.key_parts[super::multi_key::slot(Field::SkAt(n))],
            Field::Limit => &mut self.limit,
            Field::Filter => &mut self.filter,
            Field::Projection => &mut self.projection,
            Field::RawKey => &mut self.raw_inputs.key,
            Field::RawNames => &mut self.raw_inputs.names,
            Field::RawValues => &mut self.raw_inputs.values,
            Field::Statement => &mut self.pql.statement,
            Field::Parameters => &mut self.pql.parameters,
            Field::Index | Field::Op | Field::Order => return None,
        })
    }

    pub fn text(&self, field: Field) -> String {
        self.input(field).map(text).unwrap_or_default()
    }

    pub fn set_text(&mut self, field: Field, value: &str) {
        if let Some(a) = self.input_mut(field) {
            *a = area_with(value);
        }
    }

    /// PartiQL mode's EXPLAIN as text, one entry a line (see [`PartiqlForm::explain_texts`]).
    pub fn explain_texts(&self) -> Vec<String> {
        self.pql.explain_texts(self.dialect)
    }

    /// The dialect PartiQL mode shows: the one chosen, or the last when there are fewer.
    pub fn chosen_dialect(&self) -> usize {
        self.pql.chosen_dialect(self.dialect)
    }

    /// Rows PartiQL mode's EXPLAIN takes wrapped at `width` columns.
    pub fn explain_rows(&self, width: usize) -> usize {
        self.explain_texts()
            .iter()
            .map(|t| crate::model::text::wrap::row_count(t, width))
            .sum()
    }

    pub fn index_name(&self, info: &TableInfo) -> Option<String> {
        self.index
            .checked_sub(1)
            .and_then(|i| info.indexes.get(i))
            .map(|i| i.name.clone())
    }

    /// The chosen target's key: a one-and-one key fills `Pk`, `Op`, `Sk`; a multi-attribute
    /// one a field per attribute (`multi_key`).
    pub fn keys<'a>(&self, info: &'a TableInfo) -> &'a KeySchema {
        match self.index.checked_sub(1).and_then(|i| info.indexes.get(i)) {
            Some(index) => &index.keys,
            None => &info.keys,
        }
    }

    /// Validates every field with DynamoDB's rules and builds the exact request; the error
    /// names the first field at fault. A query that fails here cannot be sent.
    pub fn prepare(&self, info: &TableInfo) -> Result<PreparedQuery, FieldError> {
        let err = |field: Field, message: String| FieldError { field, message };
        let keys = self.keys(info);
        let index = self.index_name(info);
        let mut spec = ReadSpec::new(Operation::Query, info.name.clone(), ReadCause::Query);
        spec.index = index.clone();
        spec.descending = self.descending;
        let mut names: Vec<(String, String)> = Vec::new();
        let mut values: Vec<(String, AttrValue)> = Vec::new();
        if self.raw {
            let raw_names = self.text(Field::RawNames);
            if !raw_names.trim().is_empty() {
                names = parse_names("names", &raw_names)
                    .map_err(|e| err(Field::RawNames, e.to_string()))?;
            }
            let raw_values = self.text(Field::RawValues);
            if !raw_values.trim().is_empty() {
                values = parse_dynamo_values(&raw_values)
                    .map_err(|e| err(Field::RawValues, e.to_string()))?;
            }
            let expr = self.text(Field::RawKey);
            parse_key_condition(&expr, &names, &values, keys)
                .map_err(|e| err(Field::RawKey, e.to_string()))?;
            spec.key_condition = Some(expr);
        } else if keys.is_multi_attribute() {
            let parts = super::multi_key::condition(self, keys)?.to_expression();
            spec.key_condition = Some(parts.key_condition);
            names = parts.names;
            values = parts.values;
        } else {
            let pk = self.text(Field::Pk);
            KeyValue::parse(&pk, keys.partition_key())
                .map_err(|e| err(Field::Pk, e.to_string()))?;
            // An operator chosen on another index means nothing where there is no sort key.
            let sort = keys.sort_key().and_then(|_| self.sort_input());
            let condition = KeyCondition::build(keys, &pk, sort).map_err(|e| {
                let field = if self.op == 0 { Field::Pk } else { Field::Sk };
                err(field, e.to_string())
            })?;
            let parts = condition.to_expression();
            spec.key_condition = Some(parts.key_condition);
            names = parts.names;
            values = parts.values;
        }
        let limit = self.text(Field::Limit);
        if !limit.trim().is_empty() {
            match crate::model::input::limits::LIMIT.parse::<usize>(&limit) {
                Ok(n) => spec.limit = Some(n),
                Err(why) => return Err(err(Field::Limit, format!("limit '{limit}': {why}"))),
            }
        }
        let filter = self.text(Field::Filter);
        if !filter.trim().is_empty() {
            let c =
                compile_filter_beside(&filter, "f", &names).map_err(|e| err(Field::Filter, e))?;
            names.extend(c.names);
            values.extend(c.values);
            spec.filter = Some(c.expression);
        }
        let projection = self.text(Field::Projection);
        if !projection.trim().is_empty() {
            let c = compile_projection_beside(&projection, &names)
                .map_err(|e| err(Field::Projection, e))?;
            names.extend(c.names);
            spec.projection = Some(c.expression);
        }
        spec.names = names;
        spec.values = values;
        let warning = spec.filter.as_ref().map(|_| {
            "FilterExpression runs after the read: every item the key condition matches is read and paid for, \
             then the filter drops the rest. Prefer a sort-key condition or an index."
                .to_string()
        });
        let cli = aws_cli(&spec);
        Ok(PreparedQuery {
            dialects: form_dialects(&spec, keys, cli.clone()),
            cli,
            spec,
            warning,
        })
    }
}

/// A form query as aws-cli, boto3, JavaScript v3 and aws-sdk-rust: the PartiQL dialects'
/// snippets, fed the same request.
fn form_dialects(spec: &ReadSpec, keys: &KeySchema, cli: String) -> Vec<(&'static str, String)> {
    use crate::model::query::partiql::{dialects, Plan, ReadKind};
    let plan = Plan {
        kind: ReadKind::Query,
        table: spec.table.clone(),
        index: spec.index.clone(),
        keys: keys.clone(),
        key_condition: spec.key_condition.clone(),
        filter: spec.filter.clone(),
        projection: spec.projection.clone(),
        names: spec.names.clone(),
        values: spec.values.clone(),
        queries: Vec::new(),
        descending: spec.descending,
        ordered: false,
        equalities: Vec::new(),
        ranges: Vec::new(),
        attributes: Vec::new(),
        all_attributes: spec.projection.is_none(),
        note: None,
        dynamodb_scans: false,
    };
    vec![
        ("aws-cli", cli),
        ("boto3", dialects::boto3(&plan)),
        ("AWS SDK for JavaScript v3", dialects::javascript(&plan)),
        ("aws-sdk-rust", dialects::rust(&plan)),
    ]
}

#[cfg(test)]
#[path = "form_tests.rs"]
mod tests;
