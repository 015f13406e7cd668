//! A journal read back is untrusted input: an edited line, or a header naming another table,
//! would otherwise make a resumed run or an undo write what no statement asked for (an
//! after-image set to `null` deletes the item). Before either writes, the journal's table must
//! be the one its statement names, and every item's key and after-image must follow from its
//! before-image: the after-image is computed again, as the run computed it, and compared.
//!
//! A run of the explorer's bulk dialog names its action in no statement
//! (`UPDATE "T" -- explorer bulk dialog`): its after-images must all be one action's, a
//! DELETE's none, an UPDATE's one attribute set to one value (or removed) on every item.
//!
//! With a version attribute for the table, a run increments it in every after-image it
//! writes (`super::with_version`): the expected after-image is computed the same way.

use std::collections::HashSet;

use super::journal::{Header, Journal};
use super::{check_update, plan_change, with_version, BulkItem};
use crate::design::schema::TableInfo;
use crate::formats::json::append_dynamo_json;
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::{parse_parameters, parse_write, translate, Change, WriteStatement};
use crate::write::{diff, key_of};

/// A change with its SET values bound: what [`plan_change`] applies.
type Bound = (Change, Vec<(String, AttrValue)>);

/// What the journal's after-images follow from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// A PartiQL statement, with its `--parameters`.
    Statement(Box<WriteStatement>),
    /// The explorer's bulk dialog: `true` for its DELETE.
    Dialog { delete: bool },
}

/// The statement of the explorer's bulk dialog (`explorer_statement` in the explorer).
fn dialog_statement(verb: &str, table: &str) -> String {
    format!("{verb} \"{table}\" -- explorer bulk dialog")
}

/// Checks the header (line 1): its statement parses, is of its verb, and names its table.
pub fn check_header(h: &Header) -> Result<Rule, String> {
    let bad = |why: String| format!("journal line 1: {why}");
    for (verb, delete) in [("UPDATE", false), ("DELETE", true)] {
        if h.verb == verb && h.statement == dialog_statement(verb, &h.table) {
            return Ok(Rule::Dialog { delete });
        }
    }
    let statement = parse_write(&h.statement).map_err(|e| {
        bad(format!(
            "its statement is not a bulk UPDATE or DELETE: {}",
            e.message
        ))
    })?;
    if statement.verb() != h.verb {
        return Err(bad(format!(
            "its verb is {} but its statement is an {}",
            h.verb,
            statement.verb()
        )));
    }
    if statement.select.table != h.table {
        return Err(bad(format!(
            "it names table '{}' but its statement writes table '{}'",
            h.table, statement.select.table
        )));
    }
    Ok(Rule::Statement(Box::new(statement)))
}

/// Checks every item line against `rule` and the table `info` (the one the header names):
/// keys of the table's key schema, each key once, each after-image what the rule makes of its
/// before-image (`version` incremented, when the table has one).
pub fn check_items(
    journal: &Journal,
    rule: &Rule,
    info: &TableInfo,
    version: Option<&str>,
) -> Result<(), String> {
    let line = |n: usize| n + 2;
    let change = match rule {
        Rule::Statement(statement) => Some(statement_change(&journal.header, statement, info)?),
        Rule::Dialog { delete: true } => Some((Change::Delete, Vec::new())),
        Rule::Dialog { delete: false } => dialog_change(&journal.items, info, version)?,
    };
    let mut seen = HashSet::new();
    for (n, (key, item)) in journal.keys.iter().zip(&journal.items).enumerate() {
        let bad = |why: String| format!("journal line {}: item {n}'s {why}", line(n));
        let own = key_of(&item.before, &info.keys);
        if own.len() != info.keys.names().len() {
            return Err(bad(format!(
                "before-image lacks the key of table '{}' ({})",
                info.name,
                info.keys.names().join(", ")
            )));
        }
        if !same(Some(key), Some(&own)) || key.len() != own.len() {
            return Err(bad("key is not its before-image's".into()));
        }
        let mut text = String::new();
        append_dynamo_json(&mut text, &own);
        if !seen.insert(text) {
            return Err(bad("key is listed twice".into()));
        }
        let expected = match &change {
            Some((change, set)) => {
                let mut planned = plan_change(change, set, vec![item.before.clone()]);
                with_version(&mut planned, version);
                planned.pop().and_then(|b| b.after)
            }
            // A dialog UPDATE that changes nothing leaves every item as it is.
            None => Some(item.before.clone()),
        };
        if !same(expected.as_ref(), item.after.as_ref()) {
            return Err(bad(format!(
                "after-image is not what {} makes of its before-image ({})",
                match rule {
                    Rule::Statement(_) => "the statement",
                    Rule::Dialog { .. } => "the bulk dialog's action",
                },
                describe(expected.as_ref(), item.after.as_ref())
            )));
        }
    }
    Ok(())
}

/// The statement's change with its parameters bound, checked as a new run checks it.
fn statement_change(
    h: &Header,
    statement: &WriteStatement,
    info: &TableInfo,
) -> Result<Bound, String> {
    let bad = |why: String| format!("journal line 1: {why}");
    let parameters = match &h.parameters {
        Some(text) => parse_parameters(text).map_err(|e| bad(e.message))?,
        None => Vec::new(),
    };
    translate(&statement.select, &parameters, info).map_err(|e| bad(e.message))?;
    let set = statement.bound_set(&parameters);
    super::check_change(statement, &set, info).map_err(bad)?;
    Ok((statement.change.clone(), set))
}

/// The one action a dialog UPDATE's items show (`None`: no item changes), read from the first
/// item it changes: one attribute, set (to its value there) or removed.
fn dialog_change(
    items: &[BulkItem],
    info: &TableInfo,
    version: Option<&str>,
) -> Result<Option<Bound>, String> {
    for (n, item) in items.iter().enumerate() {
        let Some(after) = &item.after else {
            return Err(format!(
                "journal line {}: item {n}'s after-image is null (a delete) in the bulk dialog's UPDATE",
                n + 2
            ));
        };
        // The version attribute the run increments is not the action's.
        let mut edits = diff(&item.before, after);
        edits.retain(|e| Some(e.name()) != version);
        let [edit] = edits.as_slice() else {
            if edits.is_empty() {
                continue;
            }
            return Err(format!(
                "journal line {}: item {n}'s after-image changes {} attributes; the bulk dialog changes one",
                n + 2,
                edits.len()
            ));
        };
        let name = edit.name().to_string();
        let (set, remove) = match after.get(&name) {
            Some(v) => (vec![(name.clone(), v.clone())], Vec::new()),
            None => (Vec::new(), vec![name.clone()]),
        };
        check_update(&set, &remove, info).map_err(|e| format!("journal line {}: {e}", n + 2))?;
        let change = Change::Update {
            set: Vec::new(),
            remove,
        };
        return Ok(Some((change, set)));
    }
    Ok(None)
}

fn same(a: Option<&Item>, b: Option<&Item>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => diff(a, b).is_empty(),
        _ => false,
    }
}

/// How an after-image differs from the expected one, naming the first attribute.
fn describe(expected: Option<&Item>, found: Option<&Item>) -> String {
    match (expected, found) {
        (Some(_), None) => "it is null, a delete".into(),
        (None, Some(_)) => "a delete's after-image must be null".into(),
        (Some(e), Some(f)) => match diff(e, f).first() {
            Some(edit) => format!("attribute '{}' differs", edit.name()),
            None => "they differ".into(),
        },
        (None, None) => "they differ".into(),
    }
}

#[cfg(test)]
#[path = "journal_check_tests.rs"]
mod tests;
