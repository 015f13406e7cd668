//! The dry run: how many items match, what each of the first ones changes (attribute by
//! attribute, old → new with DynamoDB types), what writing them costs (table and indexes) and
//! how long that takes at the rate limit. `--output json` gives the same as one object.

use super::cost::item_cost;
use super::BulkItem;
use crate::design::schema::TableInfo;
use crate::formats::json::{append_dynamo_json, append_dynamo_value, append_json_string};
use crate::traffic::capacity::format_units;
use crate::write::{diff, AttributeEdit};

/// Items whose diff the dry run shows.
pub const SAMPLE: usize = 10;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub matched: usize,
    pub to_write: usize,
    pub unchanged: usize,
    pub table_units: f64,
    /// Each index the writes touch, with its units.
    pub index_units: Vec<(String, f64)>,
    pub largest_before: usize,
    pub largest_after: usize,
}

impl Summary {
    pub fn total_units(&self) -> f64 {
        self.table_units + self.index_units.iter().map(|(_, u)| u).sum::<f64>()
    }
}

pub fn summarize(info: &TableInfo, items: &[BulkItem]) -> Summary {
    let mut s = Summary {
        matched: items.len(),
        ..Summary::default()
    };
    for item in items {
        if item.unchanged() {
            s.unchanged += 1;
            continue;
        }
        s.to_write += 1;
        let cost = item_cost(info, &item.before, item.after.as_ref());
        s.table_units += cost.table;
        s.largest_before = s.largest_before.max(cost.size_before);
        s.largest_after = s.largest_after.max(cost.size_after);
        for (name, units) in cost.indexes {
            match s.index_units.iter_mut().find(|(n, _)| *n == name) {
                Some((_, u)) => *u += units,
                None => s.index_units.push((name, units)),
            }
        }
    }
    s
}

/// Seconds the writes take at `rate` write units per second (`None`: no rate limit).
pub fn seconds_at(units: f64, rate: Option<f64>) -> Option<f64> {
    rate.map(|r| units / r)
}

fn value_or_absent(out: &mut String, v: Option<&crate::item::value::AttrValue>) {
    match v {
        Some(v) => append_dynamo_value(out, v),
        None => out.push_str("null"),
    }
}

fn olds_news(
    edit: &AttributeEdit,
) -> (
    Option<&crate::item::value::AttrValue>,
    Option<&crate::item::value::AttrValue>,
) {
    match edit {
        AttributeEdit::Added(_, v) => (None, Some(v)),
        AttributeEdit::Removed(_, v) => (Some(v), None),
        AttributeEdit::Changed(_, a, b) => (Some(a), Some(b)),
    }
}

fn shown(v: Option<&crate::item::value::AttrValue>) -> String {
    let mut out = String::new();
    match v {
        Some(v) => append_dynamo_value(&mut out, v),
        None => out.push_str("(absent)"),
    }
    out
}

pub struct Report<'a> {
    pub verb: &'a str,
    pub table: &'a str,
    /// "Query", "3 Queries" or "Scan".
    pub read: &'a str,
    pub info: &'a TableInfo,
    pub items: &'a [BulkItem],
    pub summary: &'a Summary,
    pub rate: Option<f64>,
}

fn changes(item: &BulkItem) -> Vec<AttributeEdit> {
    match &item.after {
        Some(after) => diff(&item.before, after),
        None => item
            .before
            .iter()
            .map(|(n, v)| AttributeEdit::Removed(n.to_string(), v.clone()))
            .collect(),
    }
}

/// The dry run as text (each line sanitised by the caller).
pub fn text(r: &Report) -> String {
    let s = r.summary;
    let mut out = format!(
        "dry run: {} on '{}' matches {} item{} ({}); {} would be written, {} unchanged\n",
        r.verb,
        r.table,
        s.matched,
        if s.matched == 1 { "" } else { "s" },
        r.read,
        s.to_write,
        s.unchanged
    );
    let mut parts = vec![format!("table {}", format_units(s.table_units))];
    parts.extend(
        s.index_units
            .iter()
            .map(|(n, u)| format!("{n} {}", format_units(*u))),
    );
    out.push_str(&format!(
        "write cost: {} WCU ({}); largest item {} B before, {} B after\n",
        format_units(s.total_units()),
        parts.join(", "),
        s.largest_before,
        s.largest_after
    ));
    match (seconds_at(s.total_units(), r.rate), r.rate) {
        (Some(secs), Some(rate)) => out.push_str(&format!(
            "time: about {secs:.1} s at --wcu-per-second {}\n",
            format_units(rate)
        )),
        _ => out.push_str("time: no --wcu-per-second, so as fast as the table takes them\n"),
    }
    let sample: Vec<&BulkItem> = r
        .items
        .iter()
        .filter(|i| !i.unchanged())
        .take(SAMPLE)
        .collect();
    if !sample.is_empty() {
        out.push_str(&format!("first {} of the items written:\n", sample.len()));
    }
    for item in sample {
        let mut key = String::new();
        append_dynamo_json(&mut key, &item.key(r.info));
        out.push_str(&format!(
            "  {key}{}\n",
            if item.after.is_none() { " deleted" } else { "" }
        ));
        if item.after.is_some() {
            for edit in changes(item) {
                let (old, new) = olds_news(&edit);
                out.push_str(&format!(
                    "    {}: {} → {}\n",
                    edit.name(),
                    shown(old),
                    shown(new)
                ));
            }
        }
    }
    out
}

/// The dry run as one JSON object.
pub fn json(r: &Report) -> String {
    let s = r.summary;
    let mut out = String::from("{\"dry_run\":true,\"verb\":");
    append_json_string(&mut out, r.verb);
    out.push_str(",\"table\":");
    append_json_string(&mut out, r.table);
    out.push_str(",\"read\":");
    append_json_string(&mut out, r.read);
    out.push_str(&format!(
        ",\"matched\":{},\"to_write\":{},\"unchanged\":{},\"wcu\":{{\"total\":{},\"table\":{},\"indexes\":{{",
        s.matched,
        s.to_write,
        s.unchanged,
        s.total_units(),
        s.table_units
    ));
    for (i, (name, units)) in s.index_units.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        append_json_string(&mut out, name);
        out.push_str(&format!(":{units}"));
    }
    out.push_str(&format!(
        "}}}},\"largest_item_bytes\":{{\"before\":{},\"after\":{}}},\"seconds_at_rate\":",
        s.largest_before, s.largest_after
    ));
    match seconds_at(s.total_units(), r.rate) {
        Some(secs) => out.push_str(&format!("{secs}")),
        None => out.push_str("null"),
    }
    out.push_str(",\"sample\":[");
    let sample = r.items.iter().filter(|i| !i.unchanged()).take(SAMPLE);
    for (i, item) in sample.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"key\":");
        append_dynamo_json(&mut out, &item.key(r.info));
        out.push_str(&format!(
            ",\"deleted\":{},\"changes\":[",
            item.after.is_none()
        ));
        if item.after.is_some() {
            for (j, edit) in changes(item).iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                let (old, new) = olds_news(edit);
                out.push_str("{\"attribute\":");
                append_json_string(&mut out, edit.name());
                out.push_str(",\"old\":");
                value_or_absent(&mut out, old);
                out.push_str(",\"new\":");
                value_or_absent(&mut out, new);
                out.push('}');
            }
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    out
}
