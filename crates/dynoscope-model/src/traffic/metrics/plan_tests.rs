use super::*;

#[test]
fn a_window_is_whole_periods_ending_after_now() {
    let w = Window::ending(10_000, 3 * 3600, 60).unwrap();
    assert_eq!(w.end, 10_020);
    assert_eq!(w.end - w.start, 3 * 3600 + 60);
    assert_eq!(w.points(), 181);
    for (since, period, says) in [
        (3600, 30, "--period '30'"),
        (3600, 90, "--period '90'"),
        (30 * 24 * 3600, 3600, "15 days"),
        (30, 60, "shorter than one --period"),
        (7 * 24 * 3600, 60, "use a longer --period"),
    ] {
        let err = Window::ending(10_000, since, period).unwrap_err();
        assert!(err.contains(says), "{since}/{period}: {err}");
    }
}

#[test]
fn the_plan_asks_for_every_series_of_the_table_and_each_gsi() {
    let w = Window::ending(10_000, 3600, 60).unwrap();
    let plan = MetricsPlan::new("Orders", &["GSI1".into()], w);
    // 14 capacity series each, the GSI's backfill progress, 30 by operation, 2 returned-items.
    assert_eq!(plan.queries.len(), 14 + 14 + 1 + 30 + 2);
    let ids: std::collections::HashSet<&str> = plan.queries.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids.len(), plan.queries.len(), "ids are unique");
    let progress = plan
        .queries
        .iter()
        .find(|q| q.metric == "OnlineIndexPercentageProgress")
        .unwrap();
    assert_eq!(
        progress.dimensions("Orders"),
        [
            ("TableName", "Orders".to_string()),
            ("GlobalSecondaryIndexName", "GSI1".to_string())
        ]
    );
    let scan = plan
        .queries
        .iter()
        .find(|q| q.metric == "ReturnedItemCount" && q.operation == Some("Scan"))
        .unwrap();
    assert_eq!(
        scan.dimensions("Orders")[1],
        ("Operation", "Scan".to_string())
    );
    assert!((plan.cost_usd() - 61.0 * 0.00001).abs() < 1e-12);
}

#[test]
fn more_than_500_queries_go_in_several_calls() {
    let w = Window::ending(10_000, 3600, 60).unwrap();
    let gsis: Vec<String> = (0..40).map(|i| format!("G{i}")).collect();
    let plan = MetricsPlan::new("T", &gsis, w);
    let sizes: Vec<usize> = plan.batches().map(<[MetricQuery]>::len).collect();
    assert_eq!(plan.queries.len(), 14 + 40 * 15 + 32);
    assert_eq!(sizes, [500, plan.queries.len() - 500]);
}
