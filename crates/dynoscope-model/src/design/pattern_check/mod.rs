//! `patterns check`: each access pattern of a table, planned from DescribeTable, measured on
//! the table's own keys, and judged in the words of the single-table design primer (served by
//! one Query; needs a GSI; Scan; FilterExpression doing heavy lifting; a fetch back from a
//! KEYS_ONLY index; ALL projection on a big GSI; low-cardinality GSI key). Pure: the command
//! reads, this decides and words.

pub mod assess;
pub mod gsi;
pub mod measure;
pub mod params;
pub mod plan;
pub mod render;
pub mod risk;
pub mod sample;
pub mod synthetic;
pub mod verdict;

pub use assess::{assess, key_risk, refused, Assessment};
pub use measure::{CallCost, Measured};
pub use plan::{plan, PatternPlan, ProjectionFit, ReadShape};
pub use risk::{low_cardinality, LowCardinality, PartValues};
pub use sample::{judge_cardinality, Cardinality, KeySample};
pub use verdict::{judge, Finding, FindingKind};

use serde::Serialize;

#[cfg(test)]
mod multi_attribute_tests;

/// One pattern's check: where it came from, its plan, what it cost, its risk and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PatternReport {
    pub name: String,
    /// `config`, the patterns file or the model file it was read from.
    pub source: String,
    pub plan: PatternPlan,
    /// `None` when nothing was run (a Scan without `--allow-scan`, no stored key fits, the
    /// budget was spent); `unmeasured` says why.
    pub measured: Option<Measured>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmeasured: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<LowCardinality>,
    /// What its key's cardinality was judged on, or why it could not be (a GSI key chosen by
    /// the pattern's parameters only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_sample: Option<String>,
    /// Every finding, the verdict first.
    pub findings: Vec<Finding>,
    pub verdict: Finding,
}

impl PatternReport {
    pub fn failed(&self) -> bool {
        self.verdict.kind.fails()
    }
}

/// Every pattern of one table, with the budget they shared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    pub table: String,
    pub max_rcu: f64,
    /// What every request of the check consumed: samples and calls.
    pub spent_rcu: f64,
    pub sample_rcu: f64,
    pub patterns: Vec<PatternReport>,
    pub failed: Vec<String>,
    /// Set when the budget ran out before every pattern was measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_note: Option<String>,
}

impl CheckReport {
    pub fn new(table: &str, max_rcu: f64, patterns: Vec<PatternReport>) -> CheckReport {
        let failed = patterns
            .iter()
            .filter(|p| p.failed())
            .map(|p| p.name.clone())
            .collect();
        CheckReport {
            table: table.to_string(),
            max_rcu,
            spent_rcu: 0.0,
            sample_rcu: 0.0,
            patterns,
            failed,
            budget_note: None,
        }
    }
}
