//! The journal of a bulk write, one JSON line each: a header (the statement, its parameters,
//! the table and endpoint), then every matching item's key, before-image and after-image
//! (written, and synced, before the first write), then one outcome line per item as it ends.
//! Undo reads the images of the items written; a resumed run writes the items with no final
//! outcome. A line cut short by a crash is the last one and is ignored: its item counts as
//! unfinished, and re-sending its conditional write cannot write it twice (see
//! [`Outcome::Written`]). A journal read back is untrusted: [`super::journal_read`] bounds and
//! splits it, [`super::journal_check`] checks every image follows from its statement.

use serde_json::Value;

use super::BulkItem;
use crate::formats::json::{append_dynamo_json, append_json_string, parse_dynamo_item};
use crate::item::value::Item;

pub const FORMAT: &str = "dynoscope-bulk-journal";
pub const VERSION: u64 = 1;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub verb: String,
    pub statement: String,
    /// `--parameters` as given (`None`: none).
    pub parameters: Option<String>,
    pub table: String,
    pub endpoint: String,
}

/// How one item's write ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Sent and accepted; or, on a resumed run, found already as the run writes it (the
    /// interrupted run's write went through before its outcome line did).
    Written,
    /// The statement leaves it as it is: nothing was sent.
    Unchanged,
    /// It changed since it was read: not written. The item as stored now (`None`: gone).
    Conflict(Option<Item>),
    /// Not written (still throttled after every retry, a 5xx): a resumed run tries again.
    Failed(String),
    /// Not written, and never can be as planned: DynamoDB refused the request itself (a
    /// ValidationException: an index key of the wrong kind, an item past 400 KB), or an item
    /// a delete removed had changed and could not be put back. A resumed run leaves it alone.
    /// Journaled as `"outcome":"failed","permanent":true`, so a reader that predates it sees
    /// a failure.
    Refused(String),
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Written => "written",
            Outcome::Unchanged => "unchanged",
            Outcome::Conflict(_) => "conflict",
            Outcome::Failed(_) | Outcome::Refused(_) => "failed",
        }
    }

    /// The item is settled: a resumed run leaves it alone.
    pub fn is_final(&self) -> bool {
        !matches!(self, Outcome::Failed(_))
    }
}

fn item_json(out: &mut String, item: Option<&Item>) {
    match item {
        Some(item) => append_dynamo_json(out, item),
        None => out.push_str("null"),
    }
}

pub fn header_line(h: &Header) -> String {
    let mut out = format!("{{\"journal\":\"{FORMAT}\",\"version\":{VERSION},\"verb\":");
    append_json_string(&mut out, &h.verb);
    out.push_str(",\"statement\":");
    append_json_string(&mut out, &h.statement);
    out.push_str(",\"parameters\":");
    match &h.parameters {
        Some(p) => append_json_string(&mut out, p),
        None => out.push_str("null"),
    }
    out.push_str(",\"table\":");
    append_json_string(&mut out, &h.table);
    out.push_str(",\"endpoint\":");
    append_json_string(&mut out, &h.endpoint);
    out.push_str("}\n");
    out
}

pub fn item_line(n: usize, key: &Item, item: &BulkItem) -> String {
    let mut out = format!("{{\"n\":{n},\"key\":");
    append_dynamo_json(&mut out, key);
    out.push_str(",\"before\":");
    item_json(&mut out, Some(&item.before));
    out.push_str(",\"after\":");
    item_json(&mut out, item.after.as_ref());
    out.push_str("}\n");
    out
}

/// Written after the last item line: the journal lists every matching item. Nothing is
/// written before it is on disk, so a journal without it had no writes.
pub fn planned_line(count: usize) -> String {
    format!("{{\"planned\":{count}}}\n")
}

pub fn outcome_line(n: usize, outcome: &Outcome) -> String {
    let mut out = format!("{{\"n\":{n},\"outcome\":\"{}\"", outcome.name());
    match outcome {
        Outcome::Conflict(current) => {
            out.push_str(",\"current\":");
            item_json(&mut out, current.as_ref());
        }
        Outcome::Failed(why) => {
            out.push_str(",\"error\":");
            append_json_string(&mut out, why);
        }
        Outcome::Refused(why) => {
            out.push_str(",\"permanent\":true,\"error\":");
            append_json_string(&mut out, why);
        }
        _ => {}
    }
    out.push_str("}\n");
    out
}

/// A journal read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Journal {
    pub header: Header,
    pub keys: Vec<Item>,
    pub items: Vec<BulkItem>,
    /// The item count of the planned line: `None` when the run stopped before it (and so
    /// before any write).
    pub planned: Option<usize>,
    /// Each item's last outcome (`None`: unfinished).
    pub outcomes: Vec<Option<Outcome>>,
}

impl Journal {
    /// The items a resumed run still has to write, in order.
    pub fn unfinished(&self) -> Vec<usize> {
        (0..self.items.len())
            .filter(|&i| !self.outcomes[i].as_ref().is_some_and(Outcome::is_final))
            .collect()
    }
}

fn bad(line: usize, why: &str) -> String {
    format!("journal line {line}: {why}")
}

fn image(v: &Value, line: usize, field: &str) -> Result<Option<Item>, String> {
    match v.get(field) {
        None => Err(bad(line, &format!("'{field}' is missing"))),
        Some(Value::Null) => Ok(None),
        Some(other) => parse_dynamo_item(&other.to_string())
            .map(Some)
            .map_err(|e| bad(line, &format!("'{field}' is not an item: {e}"))),
    }
}

fn text(v: &Value, field: &str) -> Option<String> {
    v.get(field).and_then(Value::as_str).map(str::to_string)
}

/// Reads a journal's text: a torn last line (a crash cut it short) is dropped, any other bad
/// line is an error naming it (see [`super::journal_read::read`]).
pub fn parse(content: &str) -> Result<Journal, String> {
    super::journal_read::read(content.as_bytes()).map(|r| r.journal)
}

/// Reads whole lines, each of which must be good: item lines (line `n + 2` for item `n`),
/// the planned line, then outcome lines.
pub(super) fn parse_whole(content: &str) -> Result<Journal, String> {
    let mut journal: Option<Journal> = None;
    for (i, raw) in content.lines().enumerate() {
        let line = i + 1;
        let value: Value = serde_json::from_str(raw).map_err(|e| {
            bad(
                line,
                &format!("not JSON ({e}); only the last line may be cut short (by a crash), so the journal is corrupt"),
            )
        })?;
        let Some(j) = journal.as_mut() else {
            if value.get("journal").and_then(Value::as_str) != Some(FORMAT) {
                return Err(
                    "not a dynoscope bulk journal (its first line has no \"journal\": \"dynoscope-bulk-journal\")".into(),
                );
            }
            if value.get("version").and_then(Value::as_u64) != Some(VERSION) {
                return Err(bad(line, &format!("journal version is not {VERSION}")));
            }
            let field =
                |f: &str| text(&value, f).ok_or_else(|| bad(line, &format!("'{f}' is missing")));
            journal = Some(Journal {
                header: Header {
                    verb: field("verb")?,
                    statement: field("statement")?,
                    parameters: text(&value, "parameters"),
                    table: field("table")?,
                    endpoint: field("endpoint")?,
                },
                keys: Vec::new(),
                items: Vec::new(),
                planned: None,
                outcomes: Vec::new(),
            });
            continue;
        };
        if let Some(count) = value.get("planned").and_then(Value::as_u64) {
            if count as usize != j.items.len() {
                return Err(bad(
                    line,
                    &format!("planned {count} items but lists {}", j.items.len()),
                ));
            }
            j.planned = Some(j.items.len());
            continue;
        }
        let n = value
            .get("n")
            .and_then(Value::as_u64)
            .ok_or_else(|| bad(line, "'n' is missing"))? as usize;
        if let Some(outcome) = text(&value, "outcome") {
            if j.planned.is_none() {
                return Err(bad(line, "an outcome before the planned line"));
            }
            if n >= j.items.len() {
                return Err(bad(
                    line,
                    &format!("outcome of item {n}, which the journal does not list"),
                ));
            }
            let outcome = match outcome.as_str() {
                "written" => Outcome::Written,
                "unchanged" => Outcome::Unchanged,
                "conflict" => Outcome::Conflict(image(&value, line, "current")?),
                "failed" if value.get("permanent") == Some(&Value::Bool(true)) => {
                    Outcome::Refused(text(&value, "error").unwrap_or_default())
                }
                "failed" => Outcome::Failed(text(&value, "error").unwrap_or_default()),
                other => return Err(bad(line, &format!("unknown outcome '{other}'"))),
            };
            j.outcomes[n] = Some(outcome);
        } else {
            if j.planned.is_some() || n != j.items.len() {
                return Err(bad(
                    line,
                    &format!("item {n} out of order (expected {})", j.items.len()),
                ));
            }
            let key = image(&value, line, "key")?.ok_or_else(|| bad(line, "'key' is null"))?;
            let before =
                image(&value, line, "before")?.ok_or_else(|| bad(line, "'before' is null"))?;
            let after = image(&value, line, "after")?;
            j.keys.push(key);
            j.items.push(BulkItem { before, after });
            j.outcomes.push(None);
        }
    }
    journal.ok_or_else(|| "the journal is empty".to_string())
}
