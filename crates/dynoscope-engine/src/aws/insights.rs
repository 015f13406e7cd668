//! DescribeContributorInsights for a table and each GSI, and, where it is on, its rules' top
//! keys from CloudWatch. Never UpdateContributorInsights: it is billed, and the user decides.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;

use super::cloudwatch::{rule_report, FeatureError};
use super::Engine;
use crate::model::engine::permission::{is_access_denied, Denied};
use crate::model::traffic::insights::{enable_command, TargetInsights};
use crate::model::traffic::metrics::{Target, Window};

/// Keys listed per rule.
pub const TOP_KEYS: usize = 10;

impl Engine {
    /// Contributor Insights of `table` and each of `gsis`, with every call denied or failed on
    /// the way (each costs only its part): what `dynoscope insights` prints and the explorer's
    /// metrics pane shows. A denied call is denied for every index, so it ends the walk.
    pub async fn table_insights(
        &self,
        cloudwatch: &aws_sdk_cloudwatch::Client,
        table: &str,
        gsis: Vec<String>,
        window: Window,
    ) -> (Vec<TargetInsights>, Vec<FeatureError>) {
        let targets = std::iter::once(Target::Table).chain(gsis.into_iter().map(Target::Index));
        let (mut found, mut problems) = (Vec::new(), Vec::new());
        for target in targets {
            let window = (window.start, window.end, window.period);
            match self
                .contributor_insights(cloudwatch, table, &target, window)
                .await
            {
                Ok((insights, problem)) => {
                    found.push(insights);
                    problems.extend(problem);
                }
                // Denied once, denied for every index: one line.
                Err(denied @ FeatureError::Denied(_)) => {
                    problems.push(denied);
                    break;
                }
                Err(failed) => problems.push(failed),
            }
        }
        (found, problems)
    }

    /// Contributor Insights of `target` on `table`, with each enabled rule's top keys over
    /// `[start, end)`. A denied GetInsightRuleReport leaves the rules empty and is returned
    /// beside the status.
    pub async fn contributor_insights(
        &self,
        cloudwatch: &aws_sdk_cloudwatch::Client,
        table: &str,
        target: &Target,
        window: (i64, i64, u32),
    ) -> Result<(TargetInsights, Option<FeatureError>), FeatureError> {
        let index = match target {
            Target::Table => None,
            Target::Index(name) => Some(name.clone()),
        };
        let out = self
            .client
            .describe_contributor_insights()
            .table_name(table)
            .set_index_name(index)
            .send()
            .await
            .map_err(|e| {
                let denied = e
                    .as_service_error()
                    .and_then(|s| s.code())
                    .is_some_and(is_access_denied);
                if denied {
                    FeatureError::Denied(Denied::new(
                        "dynamodb:DescribeContributorInsights",
                        "Contributor Insights",
                    ))
                } else {
                    FeatureError::Failed(format!(
                        "DescribeContributorInsights failed at {}: {}",
                        self.endpoint,
                        super::error::short_reason(&e)
                    ))
                }
            })?;
        let status = out
            .contributor_insights_status()
            .map(|s| s.as_str().to_string())
            .unwrap_or_else(|| "DISABLED".into());
        let mut insights = TargetInsights {
            target: target.clone(),
            mode: out
                .contributor_insights_mode()
                .map(|m| m.as_str().to_string()),
            rules: Vec::new(),
            enable_with: None,
            status,
        };
        if !insights.enabled() {
            insights.enable_with = Some(enable_command(table, target));
            return Ok((insights, None));
        }
        let (start, end, period) = window;
        for rule in out.contributor_insights_rule_list() {
            match rule_report(cloudwatch, rule, start, end, period, TOP_KEYS).await {
                Ok(report) => insights.rules.push(report),
                Err(e) => return Ok((insights, Some(e))),
            }
        }
        Ok((insights, None))
    }
}
