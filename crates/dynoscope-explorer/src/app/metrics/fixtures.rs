//! Scripted metrics for the pane's tests: a three-hour window at one-minute points, and the
//! batches of a provisioned table whose GSI throttles on a hot key range while the table
//! has capacity to spare, and of an on-demand table; Contributor Insights on and off.

use std::collections::BTreeMap;

use crate::app::fixtures::{char, send};
use crate::app::msg::{Effect, MetricsEffect, Msg};
use crate::app::state::{State, PANE_PERIOD_SECS, PANE_SINCE_SECS};
use crate::model::traffic::insights::{enable_command, RuleReport, TargetInsights};
use crate::model::traffic::metrics::report::{MetricsReport, Points};
use crate::model::traffic::metrics::{MetricsPlan, Stat, Target, Window};

/// A fixed "now" (2026-12-01 12:00 UTC), so the window and snapshots do not move.
pub const NOW: i64 = 1_796_126_400;

pub fn window() -> Window {
    Window::ending(NOW, PANE_SINCE_SECS, PANE_PERIOD_SECS).unwrap()
}

/// What CloudWatch answers, as `(target, metric, operation, stat, value of point i)`.
type Script<'a> = &'a [(
    Target,
    &'a str,
    Option<&'a str>,
    Stat,
    &'a dyn Fn(usize) -> f64,
)];

pub fn report(gsis: &[&str], script: Script) -> MetricsReport {
    let gsis: Vec<String> = gsis.iter().map(|g| g.to_string()).collect();
    let plan = MetricsPlan::new("app", &gsis, window());
    let n = plan.window.points();
    let mut answered: BTreeMap<String, Points> = BTreeMap::new();
    for (target, metric, op, stat, value) in script {
        let q = plan
            .queries
            .iter()
            .find(|q| {
                &q.target == target && q.metric == *metric && q.operation == *op && q.stat == *stat
            })
            .unwrap_or_else(|| panic!("no query for {metric} {op:?}"));
        let points = (0..n)
            .map(|i| (plan.window.start + 60 * i as i64, value(i)))
            .filter(|p| p.1 != 0.0)
            .collect();
        answered.insert(q.id.clone(), points);
    }
    MetricsReport::build(&plan, &answered)
}

/// The table reads 20-40 RCU/s of 100 provisioned; GSI1 writes 10 WCU/s of 50 and throttles
/// on a hot key range over the last half hour (the last minutes included: throttling now).
pub fn gsi_throttling() -> MetricsReport {
    let gsi = Target::Index("GSI1".into());
    let wave = |i: usize| 60.0 * (20.0 + (i % 30) as f64 * 0.7);
    let storm = |i: usize| if i >= 150 { 12.0 + (i % 4) as f64 } else { 0.0 };
    report(
        &["GSI1"],
        &[
            (
                Target::Table,
                "ConsumedReadCapacityUnits",
                None,
                Stat::Sum,
                &wave,
            ),
            (
                Target::Table,
                "ProvisionedReadCapacityUnits",
                None,
                Stat::Average,
                &|_| 100.0,
            ),
            (
                Target::Table,
                "ConsumedWriteCapacityUnits",
                None,
                Stat::Sum,
                &|i| 60.0 * (5.0 + (i % 10) as f64),
            ),
            (
                Target::Table,
                "ProvisionedWriteCapacityUnits",
                None,
                Stat::Average,
                &|_| 50.0,
            ),
            (
                gsi.clone(),
                "ConsumedWriteCapacityUnits",
                None,
                Stat::Sum,
                &|i| 60.0 * (8.0 + (i % 5) as f64),
            ),
            (
                gsi.clone(),
                "ProvisionedWriteCapacityUnits",
                None,
                Stat::Average,
                &|_| 50.0,
            ),
            (
                gsi.clone(),
                "ConsumedReadCapacityUnits",
                None,
                Stat::Sum,
                &|_| 0.0,
            ),
            (
                gsi.clone(),
                "ProvisionedReadCapacityUnits",
                None,
                Stat::Average,
                &|_| 10.0,
            ),
            (gsi.clone(), "WriteThrottleEvents", None, Stat::Sum, &storm),
            (
                gsi,
                "WriteKeyRangeThroughputThrottleEvents",
                None,
                Stat::Sum,
                &storm,
            ),
            (
                Target::Table,
                "ThrottledRequests",
                Some("PutItem"),
                Stat::Sum,
                &storm,
            ),
            (
                Target::Table,
                "SuccessfulRequestLatency",
                Some("PutItem"),
                Stat::Average,
                &|_| 4.5,
            ),
            (
                Target::Table,
                "SuccessfulRequestLatency",
                Some("PutItem"),
                Stat::Maximum,
                &|i| 9.0 + (i % 7) as f64,
            ),
            (
                Target::Table,
                "ReturnedItemCount",
                Some("Query"),
                Stat::Sum,
                &|_| 30.0,
            ),
        ],
    )
}

/// An on-demand table: consumption only, no throttles.
pub fn on_demand() -> MetricsReport {
    report(
        &["GSI1"],
        &[
            (
                Target::Table,
                "ConsumedReadCapacityUnits",
                None,
                Stat::Sum,
                &|i| 60.0 * (i % 20) as f64,
            ),
            (
                Target::Table,
                "ConsumedWriteCapacityUnits",
                None,
                Stat::Sum,
                &|i| 60.0 * ((i / 20) % 5) as f64,
            ),
        ],
    )
}

/// The demo table as a provisioned one: 100 RCU and 50 WCU, GSI1 10 and 50.
pub fn provisioned_info() -> crate::model::design::schema::TableInfo {
    let mut info = crate::app::fixtures::demo_info();
    info.billing_mode = "PROVISIONED".into();
    info.provisioned = Some(crate::model::design::schema::Throughput {
        read_capacity_units: 100,
        write_capacity_units: 50,
    });
    info
}

/// `M` on the loaded demo table: the pane open and its batch's id.
pub fn pane_opened(s: &mut State) -> u64 {
    let effects = send(s, [char('M')]);
    match effects.as_slice() {
        [Effect::Metrics(MetricsEffect::Fetch {
            id, table, gsis, ..
        }), Effect::Timer(_)] => {
            assert_eq!(
                (table.as_str(), gsis.as_slice()),
                ("app", &["GSI1".to_string()][..])
            );
            *id
        }
        other => panic!("expected a Fetch and the refresh timer, got {other:?}"),
    }
}

pub fn answer(id: u64, result: Result<MetricsReport, crate::model::engine::FeatureError>) -> Msg {
    Msg::Metrics { id, result }
}

/// Contributor Insights on for the table (accesses and throttles) and GSI1 (throttles only):
/// the table's most accessed partition is the celebrity user's, and GSI1 throttles on the
/// `STATUS#SHIPPED` key the throttling fixture's verdict is about.
pub fn insights_enabled() -> Vec<TargetInsights> {
    let key = |k: &str| vec![k.to_string()];
    vec![
        TargetInsights {
            target: Target::Table,
            status: "ENABLED".into(),
            mode: Some("ACCESSED_AND_THROTTLED_KEYS".into()),
            rules: vec![
                RuleReport::new(
                    "DynamoDBContributorInsights-PKC-app-1796000000000",
                    12_000.0,
                    vec![
                        (key("USER#celebrity"), 6_000.0),
                        (key("USER#u0001"), 900.0),
                        (key("PRODUCT#p0001"), 300.0),
                    ],
                ),
                RuleReport::new(
                    "DynamoDBContributorInsights-SKC-app-1796000000000",
                    12_000.0,
                    vec![(vec!["USER#celebrity".into(), "PROFILE".into()], 2_400.0)],
                ),
            ],
            enable_with: None,
        },
        TargetInsights {
            target: Target::Index("GSI1".into()),
            status: "ENABLED".into(),
            mode: Some("THROTTLED_KEYS".into()),
            rules: vec![RuleReport::new(
                "DynamoDBContributorInsights-PKT-app-GSI1-1796000000000",
                400.0,
                vec![
                    (key("STATUS#SHIPPED"), 352.0),
                    (key("STATUS#DELIVERED"), 48.0),
                ],
            )],
            enable_with: None,
        },
    ]
}

/// Contributor Insights off for the table and GSI1, as DescribeContributorInsights says it.
pub fn insights_disabled() -> Vec<TargetInsights> {
    [Target::Table, Target::Index("GSI1".into())]
        .into_iter()
        .map(|target| TargetInsights {
            enable_with: Some(enable_command("app", &target)),
            target,
            status: "DISABLED".into(),
            mode: None,
            rules: Vec::new(),
        })
        .collect()
}

/// `I` in the open pane: the section shown and its answer's id.
pub fn insights_opened(s: &mut State) -> u64 {
    let effects = send(s, [char('I')]);
    match effects.as_slice() {
        [Effect::Metrics(MetricsEffect::Insights {
            id,
            table,
            gsis,
            since_secs,
            period,
        })] => {
            assert_eq!(
                (table.as_str(), gsis.as_slice(), *since_secs, *period),
                (
                    "app",
                    &["GSI1".to_string()][..],
                    PANE_SINCE_SECS,
                    PANE_PERIOD_SECS
                )
            );
            *id
        }
        other => panic!("expected the Contributor Insights fetch, got {other:?}"),
    }
}

pub fn insights_answer(
    id: u64,
    found: Vec<TargetInsights>,
    problems: Vec<crate::model::engine::FeatureError>,
) -> Msg {
    Msg::Insights {
        id,
        found,
        problems,
    }
}
