//! The metrics pane at 120x40: a provisioned table whose GSI throttles on a hot key range
//! (the verdict on top, in the alarm colour), an on-demand table, GetMetricData denied, and
//! the first batch still on its way; Contributor Insights (`I`) with top keys, off, and denied.

use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;

use crate::app::fixtures::{char, send};
use crate::app::metrics::fixtures::*;
use crate::app::state::State;
use crate::model::engine::permission::Denied;
use crate::model::engine::FeatureError;
use crate::model::traffic::insights::TargetInsights;

fn render(state: &State) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::draw(f, state)).unwrap();
    terminal
}

fn opened() -> (State, u64) {
    opened_with(crate::app::fixtures::demo_info())
}

fn opened_with(info: crate::model::design::schema::TableInfo) -> (State, u64) {
    let mut s = crate::app::fixtures::loaded_with(info, false);
    s.width = 120;
    s.height = 40;
    let id = pane_opened(&mut s);
    (s, id)
}

fn row_of(t: &Terminal<TestBackend>, text: &str) -> Option<u16> {
    let b = t.backend().buffer();
    (0..b.area.height).find(|&y| {
        let row: String = (0..b.area.width).map(|x| b[(x, y)].symbol()).collect();
        row.contains(text)
    })
}

#[test]
fn a_provisioned_table_with_a_throttling_gsi() {
    let (mut s, id) = opened_with(provisioned_info());
    send(&mut s, [answer(id, Ok(gsi_throttling()))]);
    let t = render(&s);
    insta::assert_snapshot!("metrics_gsi_throttling", t.backend());
    // The verdict of a table throttling now is drawn in the error colour.
    let y = row_of(&t, "now: ").expect("a verdict throttling now");
    let b = t.backend().buffer();
    let x = (0..120).find(|&x| b[(x, y)].symbol() == "n").unwrap();
    assert_eq!(
        b[(x, y)].fg,
        crate::ui::theme::error().fg.unwrap_or(Color::Reset)
    );
}

#[test]
fn an_on_demand_table() {
    // A maximum on reads only: the write side and the GSI have none to show.
    let mut info = crate::app::fixtures::demo_info();
    info.on_demand_max = crate::model::design::schema::OnDemandMax::of(Some(100), Some(-1));
    let (mut s, id) = opened_with(info);
    send(&mut s, [answer(id, Ok(on_demand()))]);
    let t = render(&s);
    insta::assert_snapshot!("metrics_on_demand", t.backend());
    assert!(row_of(&t, "on-demand · max 100 /s").is_some());
    assert!(row_of(&t, "on-demand · no maximum set").is_some());
}

/// CloudWatch answering NaN and infinities: missing points in the pane, never `inf/s`,
/// `NaN` or a backfill past 100%.
#[test]
fn nan_and_infinity_are_drawn_as_missing() {
    use crate::model::traffic::metrics::{Stat, Target};
    let gsi = Target::Index("GSI1".into());
    let wild = |i: usize| match i % 3 {
        0 => f64::NAN,
        1 => f64::INFINITY,
        _ => f64::NEG_INFINITY,
    };
    let inf = |_: usize| f64::INFINITY;
    let (mut s, id) = opened_with(provisioned_info());
    send(
        &mut s,
        [answer(
            id,
            Ok(report(
                &["GSI1"],
                &[
                    (
                        Target::Table,
                        "ConsumedReadCapacityUnits",
                        None,
                        Stat::Sum,
                        &wild,
                    ),
                    (
                        Target::Table,
                        "ProvisionedReadCapacityUnits",
                        None,
                        Stat::Average,
                        &inf,
                    ),
                    (Target::Table, "ReadThrottleEvents", None, Stat::Sum, &wild),
                    (
                        gsi.clone(),
                        "ConsumedWriteCapacityUnits",
                        None,
                        Stat::Sum,
                        &inf,
                    ),
                    (
                        gsi,
                        "OnlineIndexPercentageProgress",
                        None,
                        Stat::Maximum,
                        &wild,
                    ),
                ],
            )),
        )],
    );
    let t = render(&s);
    let b = t.backend().buffer();
    let text: String = (0..b.area.height)
        .flat_map(|y| (0..b.area.width).map(move |x| (x, y)))
        .map(|(x, y)| b[(x, y)].symbol().to_string())
        .collect();
    for bad in ["inf", "NaN", "backfill"] {
        assert!(!text.contains(bad), "{bad} drawn:\n{}", t.backend());
    }
    assert!(row_of(&t, "metrics · app").is_some(), "{}", t.backend());
}

#[test]
fn get_metric_data_denied() {
    let (mut s, id) = opened();
    let denied = Denied::new("cloudwatch:GetMetricData", "the metrics");
    send(&mut s, [answer(id, Err(FeatureError::Denied(denied)))]);
    let t = render(&s);
    insta::assert_snapshot!("metrics_denied", t.backend());
    assert!(row_of(&t, "'cloudwatch:GetMetricData'").is_some());
}

#[test]
fn the_first_batch_on_its_way() {
    let (s, _) = opened();
    let t = render(&s);
    assert!(row_of(&t, "asking CloudWatch (GetMetricData)").is_some());
    assert!(row_of(&t, "metrics · app · loading").is_some());
}

/// The throttling GSI's batch with Contributor Insights shown and answered with `found`.
fn with_insights(found: Vec<TargetInsights>, problems: Vec<FeatureError>) -> State {
    let (mut s, id) = opened_with(provisioned_info());
    send(&mut s, [answer(id, Ok(gsi_throttling()))]);
    let id = insights_opened(&mut s);
    send(&mut s, [insights_answer(id, found, problems)]);
    s
}

#[test]
fn contributor_insights_with_top_keys() {
    let mut s = with_insights(insights_enabled(), Vec::new());
    // The cursor on GSI1's most throttled key.
    send(&mut s, std::iter::repeat_with(|| char('j')).take(4));
    let t = render(&s);
    insta::assert_snapshot!("metrics_insights_top_keys", t.backend());
    // The verdict names the key Contributor Insights ranks first.
    assert!(row_of(&t, "the hot key is 'STATUS#SHIPPED'").is_some());
    // The cursor's key is drawn selected, and only it.
    let y = row_of(&t, "▶ STATUS#SHIPPED").expect("the cursor's key");
    let b = t.backend().buffer();
    let x = (0..120).find(|&x| b[(x, y)].symbol() == "▶").unwrap();
    assert_eq!(
        b[(x, y)].modifier,
        crate::ui::theme::selected().add_modifier
    );
    assert_eq!(
        row_of(&t, "▶"),
        Some(y),
        "one key under the cursor at a time"
    );
}

#[test]
fn contributor_insights_disabled() {
    let s = with_insights(insights_disabled(), Vec::new());
    let t = render(&s);
    insta::assert_snapshot!("metrics_insights_disabled", t.backend());
    assert!(row_of(&t, "--index-name GSI1 --contributor-insights-action ENABLE").is_some());
}

#[test]
fn contributor_insights_denied() {
    let denied = Denied::new(
        "dynamodb:DescribeContributorInsights",
        "Contributor Insights",
    );
    let s = with_insights(Vec::new(), vec![FeatureError::Denied(denied)]);
    let t = render(&s);
    insta::assert_snapshot!("metrics_insights_denied", t.backend());
    assert!(row_of(&t, "'dynamodb:DescribeContributorInsights'").is_some());
    // The series are still there.
    assert!(row_of(&t, "index GSI1").is_some() || row_of(&t, "GSI1").is_some());
}
