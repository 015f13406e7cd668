//! Contributor Insights in the metrics pane: `I` asks once with an id, stale answers are
//! dropped, the minute timer asks again while shown, a denied call costs only the section,
//! the keys feed the verdicts, and the cursor and Enter open a key's collection.

use crate::app::fixtures::{char, loaded, press, send};
use crate::app::input::KeyCode;
use crate::app::metrics::fixtures::*;
use crate::app::msg::{Effect, MetricsEffect, Msg, ReadEffect, TimeMsg, Timer, TimerEffect};
use crate::app::state::{InsightsSection, MetricsPane, State};
use crate::model::engine::permission::Denied;
use crate::model::engine::FeatureError;
use crate::model::engine::ReadSpec;
use crate::model::traffic::diagnose::{diagnose, Evidence, IndexFacts};

fn sized() -> State {
    let mut s = loaded(false);
    s.width = 120;
    s.height = 40;
    s
}

fn pane(s: &State) -> &MetricsPane {
    s.table.as_ref().unwrap().metrics().unwrap()
}

fn section(s: &State) -> &InsightsSection {
    pane(s).insights.as_ref().unwrap()
}

/// The pane open on the throttling GSI's batch, and Contributor Insights shown: its id.
fn shown(s: &mut State) -> u64 {
    let id = pane_opened(s);
    send(s, [answer(id, Ok(gsi_throttling()))]);
    insights_opened(s)
}

fn the_read(effects: &[Effect]) -> &ReadSpec {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(&**spec),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no read in {effects:?}"))
}

fn queried_key(spec: &ReadSpec) -> String {
    let [(_, value)] = spec.values.as_slice() else {
        panic!("one key value expected: {spec:?}");
    };
    value.as_s().unwrap().to_string()
}

#[test]
fn i_asks_once_and_the_keys_feed_the_verdicts_as_diagnose_does() {
    let mut s = sized();
    let id = shown(&mut s);
    assert_eq!(section(&s).targets, None);
    let before = pane(&s).verdicts.clone();
    assert!(before.iter().all(|v| !v.says.contains("STATUS#SHIPPED")));
    // Another answer's id: dropped.
    send(
        &mut s,
        [insights_answer(id + 100, insights_disabled(), vec![])],
    );
    assert_eq!(section(&s).targets, None);
    send(&mut s, [insights_answer(id, insights_enabled(), vec![])]);
    assert_eq!(
        section(&s).targets.as_deref(),
        Some(&insights_enabled()[..])
    );
    // The same verdicts `dynoscope diagnose` gives on the same evidence.
    let info = provisioned_or_demo(&s);
    let expected = diagnose(&Evidence {
        table_size_bytes: info.size_bytes,
        indexes: &IndexFacts::of_gsis(&info),
        metrics: Some(&gsi_throttling()),
        insights: &insights_enabled(),
        sampled: &[],
    });
    assert_eq!(pane(&s).verdicts, expected);
    assert!(
        pane(&s)
            .verdicts
            .iter()
            .any(|v| v.throttling_now && v.says.contains("'STATUS#SHIPPED'")),
        "{:?}",
        pane(&s).verdicts
    );
    // `I` again hides the section, and the verdicts go without its keys.
    let effects = send(&mut s, [char('I')]);
    assert!(effects.is_empty() && pane(&s).insights.is_none());
    assert_eq!(pane(&s).verdicts, before);
}

fn provisioned_or_demo(s: &State) -> crate::model::design::schema::TableInfo {
    s.table.as_ref().unwrap().info.loaded().unwrap().clone()
}

#[test]
fn the_minute_timer_asks_again_while_shown() {
    let mut s = sized();
    let first = shown(&mut s);
    let g = pane(&s).generation;
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    let second = match effects.as_slice() {
        [Effect::Metrics(MetricsEffect::Fetch { .. }), Effect::Metrics(MetricsEffect::Insights { id, .. }), Effect::Timer(TimerEffect::After { .. })] => {
            *id
        }
        other => panic!("expected both fetches and the next timer, got {other:?}"),
    };
    assert_ne!(first, second);
    // The first answer arrives late: only the last one asked for counts.
    send(&mut s, [insights_answer(first, insights_enabled(), vec![])]);
    assert_eq!(section(&s).targets, None);
    send(
        &mut s,
        [insights_answer(second, insights_enabled(), vec![])],
    );
    assert!(section(&s).targets.is_some());
    // Hidden: the timer asks for the series only.
    send(&mut s, [char('I')]);
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    assert!(
        matches!(
            effects.as_slice(),
            [
                Effect::Metrics(MetricsEffect::Fetch { .. }),
                Effect::Timer(_)
            ]
        ),
        "{effects:?}"
    );
    // The answer of a hidden section is dropped.
    send(
        &mut s,
        [insights_answer(second, insights_enabled(), vec![])],
    );
    assert!(pane(&s).insights.is_none());
}

#[test]
fn a_denied_call_costs_only_the_section() {
    let mut s = sized();
    let id = shown(&mut s);
    let verdicts = pane(&s).verdicts.clone();
    let denied = Denied::new(
        "dynamodb:DescribeContributorInsights",
        "Contributor Insights",
    );
    send(
        &mut s,
        [insights_answer(
            id,
            Vec::new(),
            vec![FeatureError::Denied(denied.clone())],
        )],
    );
    assert_eq!(section(&s).problems, [denied.line()]);
    assert_eq!(section(&s).targets.as_deref(), Some(&[][..]));
    // The series and their verdicts stay; the pane still scrolls.
    assert!(pane(&s).report.is_some());
    assert_eq!(pane(&s).verdicts, verdicts);
    s.height = 16;
    send(&mut s, [char('j')]);
    assert_eq!(pane(&s).scroll, 1);
    // A rule report denied after the status was read: the status stays, with the line.
    let again = {
        send(&mut s, [char('I')]);
        insights_opened(&mut s)
    };
    let rules = Denied::new("cloudwatch:GetInsightRuleReport", "the top keys");
    let mut found = insights_enabled();
    found.iter_mut().for_each(|t| t.rules.clear());
    send(
        &mut s,
        [insights_answer(
            again,
            found,
            vec![FeatureError::Denied(rules.clone())],
        )],
    );
    assert_eq!(section(&s).problems, [rules.line()]);
    assert_eq!(section(&s).targets.as_ref().unwrap().len(), 2);
    // A refresh that fails outright keeps those, with its line.
    let g = pane(&s).generation;
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    let next = effects
        .iter()
        .find_map(|e| match e {
            Effect::Metrics(MetricsEffect::Insights { id, .. }) => Some(*id),
            _ => None,
        })
        .unwrap();
    let failed = FeatureError::Failed("DescribeContributorInsights failed: timeout".into());
    send(&mut s, [insights_answer(next, Vec::new(), vec![failed])]);
    assert_eq!(section(&s).targets.as_ref().unwrap().len(), 2);
    assert_eq!(
        section(&s).problems,
        ["note: DescribeContributorInsights failed: timeout"]
    );
}

#[test]
fn the_cursor_moves_over_the_keys_and_stays_on_its_key_across_refreshes() {
    let mut s = sized();
    let id = shown(&mut s);
    send(&mut s, [insights_answer(id, insights_enabled(), vec![])]);
    let keys = |s: &State| section(s).selected().unwrap().contributor.keys.clone();
    assert_eq!(keys(&s), ["USER#celebrity"]);
    send(&mut s, [char('j'), press(KeyCode::Down)]);
    assert_eq!(keys(&s), ["PRODUCT#p0001"]);
    send(&mut s, [char('k')]);
    assert_eq!(keys(&s), ["USER#u0001"]);
    // The cursor stops at both ends, and does not scroll the pane while its key is shown.
    send(&mut s, [char('k'), char('k'), char('k')]);
    assert_eq!((section(&s).cursor, pane(&s).scroll), (0, 0));
    send(&mut s, std::iter::repeat_with(|| char('j')).take(10));
    assert_eq!(keys(&s), ["STATUS#DELIVERED"]);
    // A refresh that reorders the keys keeps the cursor on its key.
    send(&mut s, [char('k')]);
    let g = pane(&s).generation;
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(g)))],
    );
    let next = effects
        .iter()
        .find_map(|e| match e {
            Effect::Metrics(MetricsEffect::Insights { id, .. }) => Some(*id),
            _ => None,
        })
        .unwrap();
    let mut reordered = insights_enabled();
    reordered[0].rules.remove(1);
    send(&mut s, [insights_answer(next, reordered, vec![])]);
    assert_eq!(keys(&s), ["STATUS#SHIPPED"]);
    assert_eq!(section(&s).cursor, 3);
}

#[test]
fn enter_opens_the_keys_collection_on_the_index_its_rule_ranks() {
    let mut s = sized();
    let id = shown(&mut s);
    send(&mut s, [insights_answer(id, insights_enabled(), vec![])]);
    // GSI1's most throttled key: the fifth listed.
    send(&mut s, std::iter::repeat_with(|| char('j')).take(4));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(
        s.table.as_ref().unwrap().metrics().is_none(),
        "the pane closes"
    );
    let spec = the_read(&effects);
    assert_eq!(spec.index.as_deref(), Some("GSI1"));
    assert_eq!(queried_key(spec), "STATUS#SHIPPED");
    assert_eq!(
        s.table.as_ref().unwrap().view.index.as_deref(),
        Some("GSI1")
    );

    // A partition+sort key of the table opens its partition, on the table.
    let mut s = sized();
    let id = shown(&mut s);
    send(&mut s, [insights_answer(id, insights_enabled(), vec![])]);
    send(&mut s, std::iter::repeat_with(|| char('j')).take(3));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = the_read(&effects);
    assert_eq!(spec.index, None);
    assert_eq!(queried_key(spec), "USER#celebrity");
    // Backspace goes back to the view it left, as any opened collection does.
    send(&mut s, [press(KeyCode::Backspace)]);
    assert_eq!(s.table.as_ref().unwrap().view.index, None);
}

#[test]
fn disabled_lists_no_keys_and_never_enables_it() {
    let mut s = sized();
    let id = shown(&mut s);
    send(&mut s, [insights_answer(id, insights_disabled(), vec![])]);
    assert!(section(&s).keys().is_empty());
    // No key to open: Enter does nothing and ↓ scrolls the pane as without the section.
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(effects.is_empty() && s.table.as_ref().unwrap().metrics().is_some());
    s.height = 16;
    send(&mut s, [char('j')]);
    assert_eq!(pane(&s).scroll, 1);
    // The verdict says how to turn it on, from the same answer.
    assert!(pane(&s).verdicts.iter().any(|v| v
        .says
        .contains("update-contributor-insights --table-name app --index-name GSI1")));
}

#[test]
fn i_in_the_table_view_opens_the_pane_with_the_section() {
    let mut s = sized();
    let effects = send(&mut s, [char('I')]);
    assert!(
        matches!(
            effects.as_slice(),
            [
                Effect::Metrics(MetricsEffect::Fetch { .. }),
                Effect::Timer(_),
                Effect::Metrics(MetricsEffect::Insights { .. })
            ]
        ),
        "{effects:?}"
    );
    assert!(pane(&s).insights.is_some());
}

#[test]
fn keys_and_service_text_are_sanitised_before_display() {
    let mut s = sized();
    let id = shown(&mut s);
    let mut found = insights_enabled();
    found[0].rules[0].top[0].keys = vec!["USER#\u{1b}]0;owned\u{7}\u{202e}x\r".into()];
    found[1].mode = Some("THROTTLED\u{1b}[2J".into());
    let problems = vec![FeatureError::Failed("boom\u{1b}[31m\n".into())];
    send(&mut s, [insights_answer(id, found, problems)]);
    let lines = crate::app::metrics::lines::pane_lines(pane(&s), 118);
    for l in &lines {
        assert!(
            !l.text.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{:?}",
            l.text
        );
    }
    assert!(lines.iter().any(|l| l.text.contains("USER#")));
}
