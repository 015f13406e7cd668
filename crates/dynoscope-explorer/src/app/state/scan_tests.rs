//! The scan launcher's plan: segments, estimates, confirmation and query hints.

use super::*;
use crate::app::fixtures::demo_info;

#[test]
fn segments_follow_table_size() {
    let mb = 1024 * 1024;
    for (size, want) in [
        (0, 1),
        (2 * mb, 1),
        (33 * mb, 2),
        (640 * mb, 20),
        (100_000 * mb, 32),
    ] {
        assert_eq!(default_segments(size), want, "{size}");
    }
}

#[test]
fn plan_estimates_and_asks_above_the_threshold() {
    let mut info = demo_info();
    info.size_bytes = 400 * 1024 * 1024;
    let mut l = ScanLauncher::new(&info, 0);
    let plan = l.plan(&info, 0.125, 10_000.0).unwrap();
    assert_eq!(plan.spec.segments, 13);
    assert_eq!(plan.estimate_rcu, 51_200.0, "400 MB / 4 KB / 2");
    assert!(plan.needs_confirmation);
    assert!((plan.estimate_cost - 0.0064).abs() < 1e-9);
    l.consistent = true;
    assert_eq!(l.plan(&info, 0.125, 1e9).unwrap().estimate_rcu, 102_400.0);
    l.index = 1;
    assert_eq!(
        l.plan(&info, 0.125, 1e9).unwrap_err().0,
        LauncherField::Consistency
    );
}

#[test]
fn bad_fields_are_named() {
    let info = demo_info();
    let mut l = ScanLauncher::new(&info, 0);
    l.segments = area("0");
    assert_eq!(
        l.plan(&info, 0.125, 1e9).unwrap_err().0,
        LauncherField::Segments
    );
    l.segments = area("4");
    l.max_rcu = area("-5");
    assert_eq!(
        l.plan(&info, 0.125, 1e9).unwrap_err().0,
        LauncherField::MaxRcu
    );
    l.max_rcu = area("50");
    l.rate = area("1e-20");
    let (field, message) = l.plan(&info, 0.125, 1e9).unwrap_err();
    assert_eq!(field, LauncherField::Rate);
    assert!(message.contains("0.01 to"), "{message}");
    l.rate = area("");
    l.filter = area("status = \"x");
    assert_eq!(
        l.plan(&info, 0.125, 1e9).unwrap_err().0,
        LauncherField::Filter
    );
}

#[test]
fn equality_on_a_gsi_key_hints_at_a_query() {
    let info = demo_info();
    let mut l = ScanLauncher::new(&info, 0);
    l.filter = area("GSI1PK = \"STATUS#SHIPPED\"");
    let hint = l.plan(&info, 0.125, 1e9).unwrap().hint.expect("a hint");
    assert!(
        hint.contains("index GSI1") && hint.contains("STATUS#SHIPPED"),
        "{hint}"
    );
    l.filter = area("status = \"SHIPPED\"");
    assert!(l.plan(&info, 0.125, 1e9).unwrap().hint.is_none());
}

/// Issue 52: on TournamentRegionIndex (partition tournamentId + region) the hint needs both
/// attributes, says which is missing, and an index keyed by one partition attribute and
/// several sort attributes (PlayerMatchHistoryIndex) is hinted by its partition attribute.
#[test]
fn a_multi_attribute_index_is_hinted_when_every_partition_attribute_is_given() {
    let info = crate::app::fixtures::matches_info();
    let mut l = ScanLauncher::new(&info, 0);
    let mut hint = |filter: &str| {
        l.filter = area(filter);
        l.plan(&info, 0.125, 1e9).unwrap().hint
    };
    let whole = hint("tournamentId = \"WINTER2024\" and region = \"EU-WEST\"").expect("a hint");
    assert!(
        whole.contains("index TournamentRegionIndex")
            && whole.contains("tournamentId = \"WINTER2024\" and region = \"EU-WEST\""),
        "{whole}"
    );
    let partial = hint("tournamentId = \"WINTER2024\"").expect("a hint");
    assert!(
        partial.contains("TournamentRegionIndex") && partial.contains("give region = …"),
        "{partial}"
    );
    let player = hint("player1Id = \"p1\"").expect("a hint");
    assert!(player.contains("index PlayerMatchHistoryIndex"), "{player}");
    assert!(hint("round = \"FINAL\"").is_none());
}
