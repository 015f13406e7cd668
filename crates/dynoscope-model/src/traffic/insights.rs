//! Contributor Insights of a table and its GSIs: whether it is on, in which mode, and its
//! rules' top keys with their count and share. When it is off, the command that enables it
//! (dynoscope never does: it is billed).

use serde::Serialize;

use crate::text::shell::shell_word;
use crate::traffic::metrics::Target;

/// What a DynamoDB Contributor Insights rule ranks, from its name
/// (`DynamoDBContributorInsights-PKC-T-…`: partition keys by accesses; `PKT`: throttled; `SKC`,
/// `SKT`: partition and sort key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleKind {
    MostAccessedPartitionKeys,
    MostThrottledPartitionKeys,
    MostAccessedKeys,
    MostThrottledKeys,
    Other,
}

impl RuleKind {
    pub fn of(rule: &str) -> RuleKind {
        if rule.contains("-PKC-") {
            RuleKind::MostAccessedPartitionKeys
        } else if rule.contains("-PKT-") {
            RuleKind::MostThrottledPartitionKeys
        } else if rule.contains("-SKC-") {
            RuleKind::MostAccessedKeys
        } else if rule.contains("-SKT-") {
            RuleKind::MostThrottledKeys
        } else {
            RuleKind::Other
        }
    }

    pub fn wording(self) -> &'static str {
        match self {
            RuleKind::MostAccessedPartitionKeys => "most accessed partition keys",
            RuleKind::MostThrottledPartitionKeys => "most throttled partition keys",
            RuleKind::MostAccessedKeys => "most accessed keys (partition + sort)",
            RuleKind::MostThrottledKeys => "most throttled keys (partition + sort)",
            RuleKind::Other => "contributors",
        }
    }

    pub fn is_throttled(self) -> bool {
        matches!(
            self,
            RuleKind::MostThrottledPartitionKeys | RuleKind::MostThrottledKeys
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contributor {
    /// The key's values, partition key first.
    pub keys: Vec<String>,
    pub count: f64,
    /// Of the rule's whole count over the window.
    pub share: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleReport {
    pub rule: String,
    pub kind: RuleKind,
    pub total: f64,
    pub top: Vec<Contributor>,
}

impl RuleReport {
    pub fn new(rule: &str, total: f64, contributors: Vec<(Vec<String>, f64)>) -> RuleReport {
        let mut top: Vec<Contributor> = contributors
            .into_iter()
            .map(|(keys, count)| Contributor {
                keys,
                count,
                share: if total > 0.0 { count / total } else { 0.0 },
            })
            .collect();
        top.sort_by(|a, b| b.count.total_cmp(&a.count));
        RuleReport {
            rule: rule.to_string(),
            kind: RuleKind::of(rule),
            total,
            top,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TargetInsights {
    pub target: Target,
    /// `ENABLED`, `DISABLED`, `ENABLING`…, as DynamoDB says it.
    pub status: String,
    /// `ACCESSED_AND_THROTTLED_KEYS` or `THROTTLED_KEYS`, when DynamoDB says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    pub rules: Vec<RuleReport>,
    /// Off: the command that turns it on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enable_with: Option<String>,
}

impl TargetInsights {
    pub fn enabled(&self) -> bool {
        self.status == "ENABLED"
    }

    /// The most throttled key, else the most accessed: what a verdict names.
    pub fn hot_key(&self) -> Option<(&Contributor, RuleKind)> {
        let pick = |throttled: bool| {
            self.rules
                .iter()
                .filter(|r| r.kind.is_throttled() == throttled)
                .filter_map(|r| r.top.first().map(|c| (c, r.kind)))
                .max_by(|a, b| a.0.count.total_cmp(&b.0.count))
        };
        pick(true).or_else(|| pick(false))
    }
}

/// The shell-quoted `aws` command that enables Contributor Insights on `table` (or its index).
pub fn enable_command(table: &str, target: &Target) -> String {
    let mut cmd = format!(
        "aws dynamodb update-contributor-insights --table-name {}",
        shell_word(table)
    );
    if let Target::Index(index) = target {
        cmd.push_str(&format!(" --index-name {}", shell_word(index)));
    }
    cmd.push_str(" --contributor-insights-action ENABLE");
    cmd
}

/// The hint shown beside it: dynoscope's own key counts need no Contributor Insights.
pub const WITHOUT_IT: &str = "without it, 'dynoscope hotkeys TABLE' (stored keys) and the live pane's W (the stream's writes) rank keys";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read_by_their_names_and_shares_of_their_total() {
        let r = RuleReport::new(
            "DynamoDBContributorInsights-PKT-Orders-1700000000000",
            200.0,
            vec![
                (vec!["USER#1".into()], 50.0),
                (vec!["USER#9".into()], 150.0),
            ],
        );
        assert_eq!(r.kind, RuleKind::MostThrottledPartitionKeys);
        assert_eq!(r.top[0].keys, ["USER#9"]);
        assert_eq!(r.top[0].share, 0.75);
        assert_eq!(
            RuleKind::of("DynamoDBContributorInsights-SKC-T-1"),
            RuleKind::MostAccessedKeys
        );
        let t = TargetInsights {
            target: Target::Table,
            status: "ENABLED".into(),
            mode: None,
            rules: vec![r],
            enable_with: None,
        };
        assert_eq!(t.hot_key().unwrap().0.keys, ["USER#9"]);
    }

    #[test]
    fn the_enable_command_names_the_index_and_quotes_what_needs_it() {
        assert_eq!(
            enable_command("Orders", &Target::Index("GSI1".into())),
            "aws dynamodb update-contributor-insights --table-name Orders --index-name GSI1 --contributor-insights-action ENABLE"
        );
        assert_eq!(
            enable_command("it's", &Target::Table),
            r"aws dynamodb update-contributor-insights --table-name 'it'\''s' --contributor-insights-action ENABLE"
        );
    }
}
