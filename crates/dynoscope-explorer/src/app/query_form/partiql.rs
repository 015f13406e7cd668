//! The query form's PartiQL mode: the typed statement checked as it is typed (the parser's
//! one-line error), translated to the Query or Scan `dynoscope partiql` would send, with its
//! EXPLAIN (headline, filter, requests as sent) and the statement in every dialect.

use ratatui_textarea::TextArea;

use crate::model::design::schema::TableInfo;
use crate::model::engine::ReadSpec;
use crate::model::item::value::Item;
use crate::model::query::partiql::{
    advise, explain_dialects, explain_head, parse, parse_parameters_from, scan_estimate, translate,
    untranslated_reason, write_refusal, ErrorKind, Explained, Plan, ReadKind, Statement,
};
use crate::model::text::sanitize::sanitize;

/// What the typed statement would do.
#[derive(Debug, Clone)]
pub enum PartiqlCheck {
    /// Not a statement that can be sent: the one line saying what to fix.
    Invalid(String),
    /// A write, or a SELECT dynoscope does not translate: the line it is refused with.
    Refused(String),
    Ready(Box<PartiqlReady>),
}

/// A translated statement: the read it runs as, and its EXPLAIN.
#[derive(Debug, Clone)]
pub struct PartiqlReady {
    pub plan: Plan,
    pub spec: ReadSpec,
    /// EXPLAIN's headline, filter, advice and requests as sent, one line each.
    pub head: Vec<String>,
    /// The statement in every dialect: (name, text).
    pub dialects: Vec<(&'static str, String)>,
    /// A scan-shaped statement: the read units a Scan of its table or index costs.
    pub scan_rcu: Option<f64>,
}

impl PartiqlCheck {
    pub fn ready(&self) -> Option<&PartiqlReady> {
        match self {
            PartiqlCheck::Ready(r) => Some(r),
            _ => None,
        }
    }

    /// The line shown under the statement when it cannot run.
    pub fn problem(&self) -> Option<&str> {
        match self {
            PartiqlCheck::Invalid(m) | PartiqlCheck::Refused(m) => Some(m),
            PartiqlCheck::Ready(_) => None,
        }
    }
}

/// The start of EXPLAIN's dialect line; the dialects' names follow, ` · ` between them.
pub const DIALECT_TABS: &str = "Dialects (Ctrl-T next, Ctrl-Y copies): ";

/// PartiQL mode's own state: the statement, its parameters, what they would do, and EXPLAIN's
/// scroll. The form keeps it while in the other modes, so Ctrl-R back finds the statement.
#[derive(Debug, Clone)]
pub struct PartiqlForm {
    pub statement: TextArea<'static>,
    /// The values of the statement's `?`, a JSON array as `dynoscope partiql --parameters`.
    pub parameters: TextArea<'static>,
    pub check: PartiqlCheck,
    /// A scan-shaped statement's estimate was shown; the next Enter runs the Scan.
    pub confirming: bool,
    /// The first row of EXPLAIN shown (PgUp/PgDn scroll it).
    pub explain_scroll: usize,
}

impl Default for PartiqlForm {
    fn default() -> Self {
        PartiqlForm {
            statement: TextArea::default(),
            parameters: TextArea::default(),
            check: PartiqlCheck::Invalid(String::new()),
            confirming: false,
            explain_scroll: 0,
        }
    }
}

impl PartiqlForm {
    /// EXPLAIN as text, sanitised, one entry a line: the headline, filter, advice and
    /// requests, a blank line, the dialect line, the chosen dialect's title and its text (or
    /// the two lines of a statement that cannot run). The pane styles and wraps exactly these,
    /// so `update` can count its rows. `dialect` is the form's choice (Ctrl-T), shared with
    /// form mode.
    pub fn explain_texts(&self, dialect: usize) -> Vec<String> {
        let r = match &self.check {
            PartiqlCheck::Ready(r) => r,
            other => {
                return vec![
                    "Not sendable:".into(),
                    sanitize(other.problem().unwrap_or_default()).into_owned(),
                ]
            }
        };
        let mut lines: Vec<String> = r.head.iter().map(|t| sanitize(t).into_owned()).collect();
        lines.push(String::new());
        let names: Vec<&str> = r.dialects.iter().map(|(name, _)| *name).collect();
        lines.push(format!("{DIALECT_TABS}{}", names.join(" · ")));
        if let Some((name, text)) = r.dialects.get(self.chosen_dialect(dialect)) {
            lines.push(format!("── {name} ──"));
            lines.extend(text.trim_end().lines().map(|l| sanitize(l).into_owned()));
        }
        lines
    }

    /// The dialect shown: the one chosen, or the last when there are fewer.
    pub fn chosen_dialect(&self, dialect: usize) -> usize {
        let n = self.check.ready().map_or(0, |r| r.dialects.len());
        dialect.min(n.saturating_sub(1))
    }
}

/// Columns and rows inside PartiQL mode's EXPLAIN pane on a `width`×`height` terminal: the
/// popup is at most 120 wide, 4 narrower and 2 shorter than the screen; inside its border
/// come the statement, the parameters, the status (two rows) and EXPLAIN's own border (see
/// `ui::query_form::partiql`).
pub fn explain_area(width: u16, height: u16) -> (usize, usize) {
    let columns = width.saturating_sub(4).min(120).saturating_sub(2 + 2);
    let rows = height.saturating_sub(2 + 2 + 1 + 1 + 2 + 2);
    (usize::from(columns).max(1), usize::from(rows).max(1))
}

fn untranslated(reason: &str) -> PartiqlCheck {
    PartiqlCheck::Refused(format!(
        "{}; the explorer does not send it (dynoscope partiql --allow-scan does)",
        untranslated_reason(reason)
    ))
}

/// Checks `text`, with the values of its `?` in `parameters` (a JSON array, or nothing),
/// against the open table `info`; `sample` (loaded items) is what the advice for a
/// scan-shaped statement is drawn from.
pub fn check_partiql(
    text: &str,
    parameters: &str,
    info: &TableInfo,
    sample: &[Item],
) -> PartiqlCheck {
    if text.trim().is_empty() {
        return PartiqlCheck::Invalid(format!(
            "type a SELECT, e.g. SELECT * FROM \"{}\" WHERE {} = 'value'",
            info.name,
            info.keys.partition_key().name
        ));
    }
    let select = match parse(text) {
        Ok(Statement::Write(verb)) => return PartiqlCheck::Refused(write_refusal(&verb)),
        Ok(Statement::Select(select)) => select,
        Err(e) if e.kind == ErrorKind::Unsupported => return untranslated(&e.message),
        Err(e) => return PartiqlCheck::Invalid(e.message),
    };
    if select.table != info.name {
        return PartiqlCheck::Invalid(format!(
            "the statement reads table '{}' but '{}' is open; write FROM \"{}\" or open '{}'",
            select.table, info.name, info.name, select.table
        ));
    }
    let parameters = match parameters.trim() {
        "" => Vec::new(),
        given => match parse_parameters_from(given, "parameters") {
            Ok(values) => values,
            Err(e) => return PartiqlCheck::Invalid(e.message),
        },
    };
    if parameters.len() != select.parameters {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        return PartiqlCheck::Invalid(format!(
            "the statement has {} ? parameter{} but the parameters field gives {} value{}; Tab to it and type a JSON array with one value per ?, e.g. [\"USER#1\", 5]",
            select.parameters,
            plural(select.parameters),
            parameters.len(),
            plural(parameters.len())
        ));
    }
    let plan = match translate(&select, &parameters, info) {
        Ok(plan) => plan,
        Err(e) if e.kind == ErrorKind::Unsupported => return untranslated(&e.message),
        Err(e) => return PartiqlCheck::Invalid(e.message),
    };
    let scan = plan.kind == ReadKind::Scan;
    let advice = if scan {
        advise(&select, &plan, info, sample)
    } else {
        crate::model::query::partiql::Advice::None
    };
    let explained = Explained {
        select: &select,
        parameters: &parameters,
        plan: &plan,
        info,
        advice: &advice,
        limit: None,
    };
    let head = explain_head(&explained);
    let dialects = explain_dialects(&explained);
    PartiqlCheck::Ready(Box::new(PartiqlReady {
        spec: crate::model::engine::plan_read(&plan),
        scan_rcu: scan.then(|| scan_estimate(&plan, info).0),
        head,
        dialects,
        plan,
    }))
}
