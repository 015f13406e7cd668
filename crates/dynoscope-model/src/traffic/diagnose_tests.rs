use std::collections::BTreeMap;

use super::*;
use crate::traffic::insights::RuleReport;
use crate::traffic::metrics::report::Points;
use crate::traffic::metrics::{MetricsPlan, Stat, Window};

fn report(series: &[(&Target, &str, Stat, &[f64])]) -> MetricsReport {
    let plan = MetricsPlan::new(
        "T",
        &["GSI1".into()],
        Window::ending(100_000, 600, 60).unwrap(),
    );
    let answered: BTreeMap<String, Points> = series
        .iter()
        .map(|(target, metric, stat, values)| {
            let q = plan
                .queries
                .iter()
                .find(|q| {
                    &q.target == *target
                        && q.metric == *metric
                        && q.stat == *stat
                        && q.operation.is_none()
                })
                .unwrap();
            // The values end at the window's end: the last one is "now".
            let from = plan.window.end - 60 * values.len() as i64;
            (
                q.id.clone(),
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (from + 60 * i as i64, *v))
                    .collect(),
            )
        })
        .collect();
    MetricsReport::build(&plan, &answered)
}

/// GSI1 throttles writes on a hot key range at a fifth of its capacity; the table does not.
fn gsi_hot_key_range(gsi: &Target) -> MetricsReport {
    report(&[
        (
            &Target::Table,
            "ConsumedWriteCapacityUnits",
            Stat::Sum,
            &[600.0, 600.0],
        ),
        (
            &Target::Table,
            "ProvisionedWriteCapacityUnits",
            Stat::Average,
            &[100.0, 100.0],
        ),
        (
            gsi,
            "ConsumedWriteCapacityUnits",
            Stat::Sum,
            &[1200.0, 1200.0],
        ),
        (
            gsi,
            "ProvisionedWriteCapacityUnits",
            Stat::Average,
            &[100.0, 100.0],
        ),
        (gsi, "WriteThrottleEvents", Stat::Sum, &[40.0, 50.0]),
        (
            gsi,
            "WriteKeyRangeThroughputThrottleEvents",
            Stat::Sum,
            &[40.0, 50.0],
        ),
    ])
}

#[test]
fn a_gsi_throttling_on_a_hot_key_while_the_table_has_spare_capacity() {
    let gsi = Target::Index("GSI1".into());
    let m = gsi_hot_key_range(&gsi);
    let insights = [TargetInsights {
        target: gsi.clone(),
        status: "ENABLED".into(),
        mode: Some("THROTTLED_KEYS".into()),
        rules: vec![RuleReport::new(
            "DynamoDBContributorInsights-PKT-T-GSI1-1",
            100.0,
            vec![(vec!["STATUS#PENDING".into()], 90.0)],
        )],
        enable_with: None,
    }];
    let verdicts = diagnose(&Evidence {
        table_size_bytes: 0,
        indexes: &[],
        metrics: Some(&m),
        insights: &insights,
        sampled: &[],
    });
    assert_eq!(verdicts.len(), 1, "{verdicts:#?}");
    let v = &verdicts[0];
    assert_eq!(
        (v.kind, &v.target, v.throttling_now),
        (VerdictKind::HotGsi, &gsi, true)
    );
    for part in [
        "index GSI1 throttles but the base table does not",
        "90 write throttle events, 90 of them KeyRange (a hot key)",
        "consumed peaked at 20.0 WCU/s of 100.0 provisioned (20.0%)",
        "the hot key is 'STATUS#PENDING' (90.0% of the most throttled partition keys",
        "holds back the table's writes",
    ] {
        assert!(v.says.contains(part), "{part}: {}", v.says);
    }
}

#[test]
fn limits_scans_and_big_all_projections_have_their_own_verdicts() {
    let m = report(&[
        (
            &Target::Table,
            "ReadThrottleEvents",
            Stat::Sum,
            &[3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        ),
        (
            &Target::Table,
            "ReadMaxOnDemandThroughputThrottleEvents",
            Stat::Sum,
            &[3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        ),
    ])
    .with_on_demand_max(crate::design::schema::OnDemandMax::of(Some(400), None));
    let indexes = [IndexFacts {
        name: "GSI1".into(),
        projection_all: true,
        size_bytes: Some(900),
    }];
    let verdicts = diagnose(&Evidence {
        table_size_bytes: 1000,
        indexes: &indexes,
        metrics: Some(&m),
        insights: &[],
        sampled: &[],
    });
    let kinds: Vec<VerdictKind> = verdicts.iter().map(|v| v.kind).collect();
    assert_eq!(kinds, [VerdictKind::Limit, VerdictKind::BigAllProjection]);
    assert!(
        verdicts[0].says.contains("the limit, not a key"),
        "{}",
        verdicts[0].says
    );
    assert!(
        verdicts[0]
            .says
            .contains("(on-demand, 0.0% of its maximum 400/s)"),
        "the table's maximum from its description: {}",
        verdicts[0].says
    );
    assert!(
        !verdicts[0].throttling_now,
        "the throttles are older than the last periods"
    );
    assert!(
        verdicts[1].says.contains("90.0% of the table's size"),
        "{}",
        verdicts[1].says
    );
}

#[test]
fn throttling_at_capacity_is_under_provisioning() {
    let m = report(&[
        (
            &Target::Table,
            "ConsumedReadCapacityUnits",
            Stat::Sum,
            &[6000.0],
        ),
        (
            &Target::Table,
            "ProvisionedReadCapacityUnits",
            Stat::Average,
            &[100.0],
        ),
        (&Target::Table, "ReadThrottleEvents", Stat::Sum, &[12.0]),
        (
            &Target::Table,
            "ReadProvisionedThroughputThrottleEvents",
            Stat::Sum,
            &[12.0],
        ),
    ]);
    let v = diagnose(&Evidence {
        table_size_bytes: 0,
        indexes: &[],
        metrics: Some(&m),
        insights: &[],
        sampled: &[],
    });
    assert_eq!(v[0].kind, VerdictKind::UnderProvisioned);
    assert!(v[0].throttling_now);
}

#[test]
fn without_contributor_insights_a_sampled_key_names_the_hot_gsi_key() {
    let gsi = Target::Index("GSI1".into());
    let m = gsi_hot_key_range(&gsi);
    let off = [TargetInsights {
        target: gsi.clone(),
        status: "DISABLED".into(),
        mode: None,
        rules: Vec::new(),
        enable_with: Some(crate::traffic::insights::enable_command("T", &gsi)),
    }];
    let evidence = |sampled| Evidence {
        table_size_bytes: 0,
        indexes: &[],
        metrics: Some(&m),
        insights: &off,
        sampled,
    };
    let verdicts = diagnose(&evidence(&[]));
    assert_eq!(keys_wanted(&verdicts, &off), vec![gsi.clone()]);
    assert!(
        verdicts[0]
            .says
            .contains("'dynoscope diagnose --sample-keys' names the largest"),
        "{}",
        verdicts[0].says
    );
    let sampled = [SampledKey {
        target: gsi.clone(),
        key: "STATUS#PENDING".into(),
        items: 400,
        sampled: 500,
        source: SampleSource::Stored {
            rcu: 25.0,
            partial: true,
        },
    }];
    let verdicts = diagnose(&evidence(&sampled));
    assert_eq!(verdicts[0].kind, VerdictKind::HotGsi);
    assert!(
        verdicts[0].says.contains(
            "Contributor Insights is off; the largest stored key is 'STATUS#PENDING' (80.0% of the 500 items of a keys-only sample that stopped at its budget, 25.0 RCU) — the likely hot key"
        ),
        "{}",
        verdicts[0].says
    );
    // The stream's writes, beside it.
    let both = [
        sampled[0].clone(),
        SampledKey {
            target: gsi.clone(),
            key: "STATUS#PENDING".into(),
            items: 90,
            sampled: 100,
            source: SampleSource::Writes { seconds: 30.0 },
        },
    ];
    let verdicts = diagnose(&evidence(&both));
    assert!(
        verdicts[0].says.contains(
            "stopped at its budget, 25.0 RCU) — the likely hot key; the key written most is 'STATUS#PENDING' (90.0% of the 100 changes the stream showed in 30 s) — the key the writes land on"
        ),
        "{}",
        verdicts[0].says
    );
    // A key Contributor Insights names needs no sample.
    let on = [TargetInsights {
        target: gsi.clone(),
        status: "ENABLED".into(),
        mode: Some("THROTTLED_KEYS".into()),
        rules: vec![RuleReport::new("r", 10.0, vec![(vec!["K".into()], 9.0)])],
        enable_with: None,
    }];
    assert!(keys_wanted(&verdicts, &on).is_empty());
}
