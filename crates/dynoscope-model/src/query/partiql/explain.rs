//! EXPLAIN: what a statement will read before anything is sent — the Query (its index and key
//! condition) or the Scan (its estimate), the filter, the requests exactly as sent, the index
//! that would serve a scan, and the statement in every dialect.

use super::advice::Advice;
use super::ast::Select;
use super::dialects;
use super::plan::{Plan, ReadKind};
use super::render;
use crate::design::schema::TableInfo;
use crate::item::value::AttrValue;
use crate::text::wording::thousands;
use crate::traffic::capacity::{format_units, scan_estimate_units};

fn target(plan: &Plan) -> String {
    match &plan.index {
        Some(index) => index.clone(),
        None => format!("table '{}'", plan.table),
    }
}

/// The bytes a Scan of the plan's table or index reads, as DescribeTable last reported them.
fn scanned_bytes(plan: &Plan, info: &TableInfo) -> u64 {
    let bytes = match &plan.index {
        Some(i) => info
            .index(i)
            .and_then(|i| i.size_bytes)
            .unwrap_or(info.size_bytes),
        None => info.size_bytes,
    };
    bytes.max(0) as u64
}

/// Read units a Scan of the plan's target costs (eventually consistent), and its bytes.
pub fn scan_estimate(plan: &Plan, info: &TableInfo) -> (f64, u64) {
    let bytes = scanned_bytes(plan, info);
    (scan_estimate_units(bytes, false), bytes)
}

fn size_text(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    }
}

/// `Query on GSI1: #pk = :pk AND begins_with(#sk, :sk)` or `Scan of the whole table —
/// estimated N RCU (size / 4 KB)`.
pub fn headline(plan: &Plan, info: &TableInfo) -> String {
    match plan.kind {
        ReadKind::Query => {
            let condition = plan.key_condition.as_deref().unwrap_or_default();
            if plan.queries.is_empty() {
                format!("Query on {}: {condition}", target(plan))
            } else {
                format!(
                    "{} Queries on {}, merged in sort-key order: {condition}",
                    plan.queries.len(),
                    target(plan)
                )
            }
        }
        ReadKind::Scan => {
            let (units, bytes) = scan_estimate(plan, info);
            let what = match &plan.index {
                Some(i) => format!("the whole index {i}"),
                None => "the whole table".to_string(),
            };
            format!(
                "Scan of {what} — estimated {} RCU ({} / 4 KB, halved for eventually consistent reads)",
                format_units(units),
                size_text(bytes)
            )
        }
    }
}

/// The advice in one clause, for the refusal line.
pub fn advice_clause(advice: &Advice) -> Option<String> {
    match advice {
        Advice::Serving(s) => Some(match s.partial {
            None => format!("{} serves it: {}", s.index, s.statement),
            Some((held, all)) => format!(
                "{} serves it for the items it holds ({held} of {all} sampled matches): {}",
                s.index, s.statement
            ),
        }),
        Advice::Create(n) => Some(format!(
            "no index serves it; a GSI '{}' would (see --explain)",
            n.name
        )),
        Advice::None => None,
    }
}

/// The one line a scan-shaped statement is refused with.
pub fn refusal(plan: &Plan, info: &TableInfo, advice: &Advice) -> String {
    let mut line = format!("refused: this statement is a {}", headline(plan, info));
    if let Some(note) = &plan.note {
        line.push_str("; ");
        line.push_str(note);
    }
    if let Some(clause) = advice_clause(advice) {
        line.push_str("; ");
        line.push_str(&clause);
    }
    line.push_str("; add --allow-scan to run the Scan under the capacity guards");
    line
}

pub struct Explained<'a> {
    pub select: &'a Select,
    pub parameters: &'a [AttrValue],
    pub plan: &'a Plan,
    pub info: &'a TableInfo,
    pub advice: &'a Advice,
    pub limit: Option<usize>,
}

fn advice_lines(advice: &Advice, out: &mut Vec<String>) {
    match advice {
        Advice::Serving(s) => {
            out.push(format!("Index that serves it: {} ({})", s.index, s.because));
            out.push(format!("  {}", s.statement));
        }
        Advice::Create(n) => {
            out.push(format!(
                "No index serves it: add a GSI. From a sample of {} items: about {} index items, {}, backfill about {} WCU:",
                thousands(n.sample_items as u64),
                thousands(n.estimated_items),
                size_text(n.estimated_bytes),
                thousands(n.backfill_wcu)
            ));
            out.push(format!("  {}", n.command));
            if let Some(w) = &n.warning {
                out.push(format!("  ⚠ {w}"));
            }
        }
        Advice::None => {}
    }
}

/// EXPLAIN's head: the headline, the note, the filter, the projection, the advice and the
/// requests exactly as sent.
pub fn explain_head(e: &Explained) -> Vec<String> {
    let mut out = vec![headline(e.plan, e.info)];
    out.extend(e.plan.note.clone());
    if let Some(filter) = &e.plan.filter {
        out.push(format!(
            "Filter (applied after the read; it does not reduce consumed capacity): {filter}"
        ));
    }
    if let Some(p) = &e.plan.projection {
        out.push(format!("Projection: {p}"));
    }
    advice_lines(e.advice, &mut out);
    out.push(String::new());
    out.push("Requests as sent:".into());
    for r in dialects::requests(e.plan) {
        out.push(format!("  {r}"));
    }
    out
}

/// The statement in every dialect a user may paste elsewhere: (name, text).
pub fn explain_dialects(e: &Explained) -> Vec<(&'static str, String)> {
    let statement = render::statement(e.select);
    vec![
        ("aws-cli", dialects::aws_cli(e.plan, e.limit)),
        (
            "aws-cli (PartiQL)",
            dialects::execute_statement(&statement, e.parameters),
        ),
        ("PartiQL", statement.clone()),
        ("boto3", dialects::boto3(e.plan)),
        ("AWS SDK for JavaScript v3", dialects::javascript(e.plan)),
        ("aws-sdk-rust", dialects::rust(e.plan)),
    ]
}

pub fn explain(e: &Explained) -> String {
    let mut out = explain_head(e);
    for (name, text) in explain_dialects(e) {
        out.push(String::new());
        out.push(format!("── {name} ──"));
        out.extend(text.trim_end().lines().map(str::to_string));
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The line a PartiQL write is refused with.
pub fn write_refusal(verb: &str) -> String {
    format!(
        "refused: '{verb}' writes, and dynoscope does not send it as it stands: writes go through the explorer's conditional edits (dynoscope TABLE --allow-writes; 'N' creates an item), and `dynoscope partiql` runs UPDATE … WHERE and DELETE FROM … WHERE as conditional bulk writes, a dry run first"
    )
}

/// Why a SELECT dynoscope does not translate is not sent unasked.
pub fn untranslated_reason(reason: &str) -> String {
    format!(
        "not translated: {reason}; as ExecuteStatement what it reads cannot be shown beforehand (it runs page by page under --max-rcu and --rcu-per-second)"
    )
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
