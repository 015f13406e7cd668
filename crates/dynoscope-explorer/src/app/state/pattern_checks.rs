//! The palette's checks (Ctrl-K): each pattern's last `patterns check` result, kept for the
//! session per table and pattern name, shown beside the pattern's name in the palette.

use std::collections::HashMap;

use crate::model::design::pattern_check::PatternReport;
use crate::model::traffic::capacity::format_units;

#[derive(Debug, Clone, PartialEq)]
pub enum PatternCheck {
    /// Sent as request `id`; its answer has not come back.
    Running {
        id: u64,
    },
    /// Esc stopped it after its requests consumed this many read units.
    Stopped {
        spent_rcu: f64,
    },
    Done(Box<PatternReport>),
    /// The check could not run (a service error, a bad parameter): the reason.
    Failed(String),
}

impl PatternCheck {
    /// What the palette shows beside the name: `1.5 RCU · served`, `not measured · scan`.
    pub fn summary(&self) -> String {
        match self {
            PatternCheck::Running { .. } => "checking… (Esc stops it)".into(),
            PatternCheck::Stopped { spent_rcu } => {
                format!("stopped · {} RCU spent", format_units(*spent_rcu))
            }
            PatternCheck::Failed(why) => format!("check failed: {why}"),
            PatternCheck::Done(r) => {
                let cost = match &r.measured {
                    Some(m) => format!("{} RCU a call", format_units(m.rcu_median)),
                    None => "not measured".into(),
                };
                format!("{cost} · {}", r.verdict.kind.as_str())
            }
        }
    }

    /// A failing verdict or a check that could not run (drawn as a warning).
    pub fn failed(&self) -> bool {
        match self {
            PatternCheck::Running { .. } | PatternCheck::Stopped { .. } => false,
            PatternCheck::Failed(_) => true,
            PatternCheck::Done(r) => r.failed(),
        }
    }
}

/// Per (table, pattern name): the last check.
#[derive(Debug, Clone, Default)]
pub struct PatternChecks(HashMap<(String, String), PatternCheck>);

impl PatternChecks {
    pub fn get(&self, table: &str, pattern: &str) -> Option<&PatternCheck> {
        self.0.get(&(table.to_string(), pattern.to_string()))
    }

    /// The request ids of `table`'s checks still running.
    pub fn running(&self, table: &str) -> Vec<u64> {
        self.0
            .iter()
            .filter(|((t, _), _)| t == table)
            .filter_map(|(_, check)| match check {
                PatternCheck::Running { id } => Some(*id),
                _ => None,
            })
            .collect()
    }

    pub fn set(&mut self, table: &str, pattern: &str, check: PatternCheck) {
        self.0
            .insert((table.to_string(), pattern.to_string()), check);
    }
}
