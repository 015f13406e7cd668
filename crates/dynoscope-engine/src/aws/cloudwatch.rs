//! CloudWatch: the metrics of a table and its GSIs (GetMetricData, every series of a plan in
//! one call per 500 queries, following NextToken) and Contributor Insights' rule reports
//! (GetInsightRuleReport). The client speaks the SDK's rpc-v2-cbor protocol; its endpoint comes
//! from the SDK's own configuration (`AWS_ENDPOINT_URL_CLOUDWATCH`, a profile's `services`),
//! never from `--endpoint-url`, which names DynamoDB's.

use std::collections::BTreeMap;

use aws_sdk_cloudwatch::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_cloudwatch::types::{Dimension, Metric, MetricDataQuery, MetricStat, ScanBy};
use aws_smithy_types::DateTime;
use aws_types::origin::Origin;
use aws_types::SdkConfig;

use crate::model::engine::permission::{is_access_denied, Denied};
use crate::model::traffic::insights::RuleReport;
use crate::model::traffic::metrics::report::Points;
use crate::model::traffic::metrics::{MetricsPlan, NAMESPACE};

/// Pages one GetMetricData call may take before it is called a loop.
const MAX_PAGES: usize = 1000;

pub use crate::model::engine::FeatureError;

/// The CloudWatch client for `sdk` (the DynamoDB client's configuration), without the
/// `--endpoint-url` given for DynamoDB.
pub fn client(
    sdk: &SdkConfig,
    region: &str,
    dynamodb_endpoint_flag: bool,
    credentials: Option<aws_credential_types::Credentials>,
) -> aws_sdk_cloudwatch::Client {
    let mut own = sdk.to_builder();
    if dynamodb_endpoint_flag {
        own.set_endpoint_url(None);
        own.insert_origin("endpoint_url", Origin::unknown());
    }
    let mut builder = aws_sdk_cloudwatch::config::Builder::from(&own.build())
        .region(aws_types::region::Region::new(region.to_string()))
        .interceptor(super::response_cap::interceptor(&[]));
    if let Some(creds) = credentials {
        builder = builder.credentials_provider(creds);
    }
    aws_sdk_cloudwatch::Client::from_conf(builder.build())
}

fn failure<E: ProvideErrorMetadata + std::error::Error + 'static>(
    e: SdkError<E, aws_smithy_runtime_api::client::orchestrator::HttpResponse>,
    operation: &str,
    permission: &'static str,
    skipped: &'static str,
) -> FeatureError {
    if let Some(code) = e.as_service_error().and_then(|s| s.code()) {
        if is_access_denied(code) {
            return FeatureError::Denied(Denied::new(permission, skipped));
        }
    }
    FeatureError::Failed(format!(
        "CloudWatch {operation} failed: {}",
        super::error::short_reason(&e)
    ))
}

fn query(plan: &MetricsPlan, q: &crate::model::traffic::metrics::MetricQuery) -> MetricDataQuery {
    let dims = q
        .dimensions(&plan.table)
        .into_iter()
        .map(|(name, value)| Dimension::builder().name(name).value(value).build())
        .collect();
    let metric = Metric::builder()
        .namespace(NAMESPACE)
        .metric_name(q.metric)
        .set_dimensions(Some(dims))
        .build();
    MetricDataQuery::builder()
        .id(&q.id)
        .metric_stat(
            MetricStat::builder()
                .metric(metric)
                .period(plan.window.period as i32)
                .stat(q.stat.as_str())
                .build(),
        )
        .return_data(true)
        .build()
}

/// Every series of `plan`, by query id: one GetMetricData call per 500 queries, each followed
/// through its NextToken pages.
pub async fn metric_data(
    client: &aws_sdk_cloudwatch::Client,
    plan: &MetricsPlan,
) -> Result<BTreeMap<String, Points>, FeatureError> {
    let mut series: BTreeMap<String, Points> = BTreeMap::new();
    for batch in plan.batches() {
        let queries: Vec<MetricDataQuery> = batch.iter().map(|q| query(plan, q)).collect();
        let mut token: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let out = client
                .get_metric_data()
                .set_metric_data_queries(Some(queries.clone()))
                .start_time(DateTime::from_secs(plan.window.start))
                .end_time(DateTime::from_secs(plan.window.end))
                .scan_by(ScanBy::TimestampAscending)
                .set_next_token(token.take())
                .send()
                .await
                .map_err(|e| {
                    failure(
                        e,
                        "GetMetricData",
                        "cloudwatch:GetMetricData",
                        "the metrics",
                    )
                })?;
            for result in out.metric_data_results() {
                let Some(id) = result.id() else { continue };
                let points = series.entry(id.to_string()).or_default();
                points.extend(
                    result
                        .timestamps()
                        .iter()
                        .zip(result.values())
                        .map(|(t, v)| (t.secs(), *v)),
                );
            }
            match out.next_token() {
                Some(next) if !next.is_empty() => token = Some(next.to_string()),
                _ => break,
            }
        }
    }
    for points in series.values_mut() {
        points.sort_by_key(|p| p.0);
        points.dedup_by_key(|p| p.0);
    }
    Ok(series)
}

/// A Contributor Insights rule's top contributors over `[start, end)`.
pub async fn rule_report(
    client: &aws_sdk_cloudwatch::Client,
    rule: &str,
    start: i64,
    end: i64,
    period: u32,
    top: usize,
) -> Result<RuleReport, FeatureError> {
    let out = client
        .get_insight_rule_report()
        .rule_name(rule)
        .start_time(DateTime::from_secs(start))
        .end_time(DateTime::from_secs(end))
        .period(period as i32)
        .max_contributor_count(top as i32)
        .order_by("Sum")
        .send()
        .await
        .map_err(|e| {
            failure(
                e,
                "GetInsightRuleReport",
                "cloudwatch:GetInsightRuleReport",
                "the Contributor Insights top keys",
            )
        })?;
    let contributors = out
        .contributors()
        .iter()
        .map(|c| {
            (
                c.keys().to_vec(),
                c.approximate_aggregate_value().unwrap_or_default(),
            )
        })
        .collect();
    Ok(RuleReport::new(
        rule,
        out.aggregate_value().unwrap_or_default(),
        contributors,
    ))
}

/// A client for tests that never call CloudWatch.
#[cfg(test)]
pub fn unused_client() -> aws_sdk_cloudwatch::Client {
    aws_sdk_cloudwatch::Client::from_conf(
        aws_sdk_cloudwatch::Config::builder()
            .behavior_version(aws_sdk_cloudwatch::config::BehaviorVersion::latest())
            .region(aws_types::region::Region::new("us-east-1"))
            .build(),
    )
}
