use super::*;
use crate::metrics::{MetricsPlan, Window};

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
