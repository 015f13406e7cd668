use super::*;
use crate::traffic::metrics::{MetricsPlan, Window};

fn answer(
    plan: &MetricsPlan,
    target: &Target,
    metric: &str,
    op: Option<&str>,
    stat: Stat,
    values: &[f64],
) -> (String, Points) {
    let q = plan
        .queries
        .iter()
        .find(|q| &q.target == target && q.metric == metric && q.operation == op && q.stat == stat)
        .unwrap();
    let points = values
        .iter()
        .enumerate()
        .map(|(i, v)| (plan.window.start + 60 * i as i64, *v))
        .collect();
    (q.id.clone(), points)
}

#[test]
fn capacity_is_per_second_and_throttles_split_by_reason() {
    let plan = MetricsPlan::new(
        "T",
        &["GSI1".into()],
        Window::ending(100_000, 600, 60).unwrap(),
    );
    let gsi = Target::Index("GSI1".into());
    let answered: BTreeMap<String, Points> = [
        answer(
            &plan,
            &Target::Table,
            "ConsumedReadCapacityUnits",
            None,
            Stat::Sum,
            &[600.0, 1200.0],
        ),
        answer(
            &plan,
            &Target::Table,
            "ProvisionedReadCapacityUnits",
            None,
            Stat::Average,
            &[100.0, 100.0],
        ),
        answer(
            &plan,
            &gsi,
            "WriteKeyRangeThroughputThrottleEvents",
            None,
            Stat::Sum,
            &[5.0, 7.0],
        ),
        answer(
            &plan,
            &gsi,
            "OnlineIndexPercentageProgress",
            None,
            Stat::Maximum,
            &[40.0, 55.0],
        ),
        answer(
            &plan,
            &Target::Table,
            "SuccessfulRequestLatency",
            Some("Query"),
            Stat::Average,
            &[4.0, 6.0],
        ),
        answer(
            &plan,
            &Target::Table,
            "SuccessfulRequestLatency",
            Some("Query"),
            Stat::Maximum,
            &[9.0, 30.0],
        ),
        answer(
            &plan,
            &Target::Table,
            "ReturnedItemCount",
            Some("Scan"),
            Stat::Sum,
            &[10.0, 5.0],
        ),
        answer(
            &plan,
            &Target::Table,
            "ThrottledRequests",
            Some("PutItem"),
            Stat::Sum,
            &[3.0],
        ),
    ]
    .into_iter()
    .collect();
    let report = MetricsReport::build(&plan, &answered);
    let table = report.target(&Target::Table).unwrap();
    assert_eq!(table.consumed_read.peak, 20.0);
    assert_eq!(table.consumed_read.average, 15.0);
    assert_eq!(table.provisioned_read.as_ref().unwrap().peak, 100.0);
    assert!(table.provisioned_write.is_none());
    assert!(!table.throttled());
    let g = report.target(&gsi).unwrap();
    assert_eq!(g.write_throttles.key_range, 12.0);
    assert_eq!(g.write_throttles.top_reason(), Some(("KeyRange", 12.0)));
    // Per period, for the pane's sparkline: the reasons' sum where ThrottleEvents has none.
    let per_period: Vec<f64> = g
        .write_throttles
        .over_time
        .points
        .iter()
        .map(|p| p.1)
        .collect();
    assert_eq!(per_period, [5.0, 7.0]);
    assert_eq!(g.online_index_progress, Some(55.0));
    assert!(g.throttled());
    let query = &report.operations["Query"];
    assert_eq!(
        (query.latency_avg_ms, query.latency_max_ms),
        (Some(5.0), Some(30.0))
    );
    assert_eq!(report.operations["Scan"].returned_items, Some(15.0));
    assert_eq!(report.operations["PutItem"].throttled_requests, 3.0);
    assert!(!report.operations.contains_key("GetItem"));
    assert_eq!(report.metrics_requested, plan.queries.len());
}

/// NaN and ±infinity in every series are missing points: no number of the report is one of
/// them, and a real point beside them still counts.
#[test]
fn nan_and_infinity_are_missing_points() {
    let plan = MetricsPlan::new(
        "T",
        &["GSI1".into()],
        Window::ending(100_000, 600, 60).unwrap(),
    );
    let answered: BTreeMap<String, Points> = plan
        .queries
        .iter()
        .map(|q| {
            let start = plan.window.start;
            let points = vec![
                (start, f64::NAN),
                (start + 60, f64::INFINITY),
                (start + 120, f64::NEG_INFINITY),
                (start + 180, 60.0),
            ];
            (q.id.clone(), points)
        })
        .collect();
    let report = MetricsReport::build(&plan, &answered);
    let shown = format!("{report:?}");
    assert!(!shown.contains("NaN") && !shown.contains("inf"), "{shown}");
    let table = report.target(&Target::Table).unwrap();
    assert_eq!(table.consumed_read.peak, 1.0);
    assert_eq!(table.consumed_read.points.len(), 1);
    let gsi = report.target(&Target::Index("GSI1".into())).unwrap();
    assert_eq!(gsi.online_index_progress, Some(60.0));
    let only_nan: BTreeMap<String, Points> = plan
        .queries
        .iter()
        .map(|q| (q.id.clone(), vec![(plan.window.start, f64::INFINITY)]))
        .collect();
    let report = MetricsReport::build(&plan, &only_nan);
    let gsi = report.target(&Target::Index("GSI1".into())).unwrap();
    assert_eq!(gsi.online_index_progress, None);
    assert!(report
        .target(&Target::Table)
        .unwrap()
        .consumed_read
        .is_empty());
    // A percentage past 100 is at most 100.
    let wild: BTreeMap<String, Points> = plan
        .queries
        .iter()
        .map(|q| (q.id.clone(), vec![(plan.window.start, 1e300)]))
        .collect();
    let report = MetricsReport::build(&plan, &wild);
    let gsi = report.target(&Target::Index("GSI1".into())).unwrap();
    assert_eq!(gsi.online_index_progress, Some(100.0));
}
