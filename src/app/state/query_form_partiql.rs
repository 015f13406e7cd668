//! The query form's PartiQL mode: the typed statement checked as it is typed (the parser's
//! one-line error), translated to the Query or Scan `dynoscope partiql` would send, with its
//! EXPLAIN (headline, filter, requests as sent) and the statement in every dialect.

use crate::aws::ReadSpec;
use crate::model::partiql::{
    advise, explain_dialects, explain_head, parse, scan_estimate, translate, untranslated_reason,
    write_refusal, ErrorKind, Explained, Plan, ReadKind, Statement,
};
use crate::model::schema::TableInfo;
use crate::model::value::Item;

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

fn untranslated(reason: &str) -> PartiqlCheck {
    PartiqlCheck::Refused(format!(
        "{}; the explorer does not send it (dynoscope partiql --allow-scan does)",
        untranslated_reason(reason)
    ))
}

/// Checks `text` against the open table `info`; `sample` (loaded items) is what the advice
/// for a scan-shaped statement is drawn from.
pub fn check_partiql(text: &str, info: &TableInfo, sample: &[Item]) -> PartiqlCheck {
    if text.trim().is_empty() {
        return PartiqlCheck::Invalid(format!(
            "type a SELECT, e.g. SELECT * FROM \"{}\" WHERE {} = 'value'",
            info.name, info.keys.partition_key.name
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
    let plan = match translate(&select, &[], info) {
        Ok(plan) => plan,
        Err(e) if e.kind == ErrorKind::Unsupported => return untranslated(&e.message),
        Err(e) => return PartiqlCheck::Invalid(e.message),
    };
    let scan = plan.kind == ReadKind::Scan;
    let advice = if scan {
        advise(&select, &plan, info, sample)
    } else {
        crate::model::partiql::Advice::None
    };
    let explained = Explained {
        select: &select,
        parameters: &[],
        plan: &plan,
        info,
        advice: &advice,
        limit: None,
    };
    let head = explain_head(&explained);
    let dialects = explain_dialects(&explained);
    PartiqlCheck::Ready(Box::new(PartiqlReady {
        spec: crate::aws::plan_read(&plan),
        scan_rcu: scan.then(|| scan_estimate(&plan, info).0),
        head,
        dialects,
        plan,
    }))
}
