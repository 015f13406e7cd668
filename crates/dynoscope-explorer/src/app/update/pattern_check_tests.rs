use super::*;
use crate::app::fixtures::*;
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{InputMsg, Msg};
use crate::model::design::pattern_check::{
    assess, plan, Assessment, CallCost, FindingKind, Measured,
};

fn ctrl_k() -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char('k'),
        Modifiers::CONTROL,
    )))
}

fn with_palette() -> State {
    let mut s = loaded(false);
    s.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    s
}

/// The report `patterns check` gives `name` measured at `rcu` a call.
pub(crate) fn measured_report(s: &State, name: &str, rcu: f64) -> PatternReport {
    let info = s.table.as_ref().unwrap().info.loaded().unwrap().clone();
    let p = s.patterns.iter().find(|p| p.name == name).unwrap();
    let call = CallCost {
        returned: 4,
        read: 4,
        pages: 1,
        rcu,
    };
    assess(Assessment {
        pattern: p,
        source: "demo",
        plan: plan(p, &info),
        sample: &Default::default(),
        measured: Measured::of(vec![call; 3], false),
        unmeasured: None,
        advice: None,
    })
}

#[test]
fn ctrl_k_checks_the_highlighted_pattern_once_under_the_session() {
    let mut s = with_palette();
    send(&mut s, [press(KeyCode::Down)]);
    let effects = send(&mut s, [ctrl_k()]);
    match effects.as_slice() {
        [Effect::Read(ReadEffect::CheckPattern {
            id,
            info,
            pattern,
            calls,
            max_rcu,
        })] => {
            assert_eq!(pattern.name, "user-orders");
            assert_eq!(info.name, "app");
            assert_eq!(*calls, PALETTE_CALLS);
            // No --max-rcu in this session: the check has a bound of its own, said on screen.
            assert_eq!(*max_rcu, Some(CHECK_MAX_RCU));
            let notice = &s.notice.as_ref().unwrap().text;
            assert!(
                notice.contains("at most 25 RCU") && notice.contains("Esc stops it"),
                "{notice}"
            );
            assert_eq!(
                s.queries.pattern_checks.get("app", "user-orders"),
                Some(&PatternCheck::Running { id: *id })
            );
        }
        other => panic!("expected one CheckPattern, got {other:?}"),
    }
    // A second Ctrl-K while it runs sends nothing more; the palette stays open.
    assert!(send(&mut s, [ctrl_k()]).is_empty());
    assert!(s.table.as_ref().unwrap().palette().is_some());
}

#[test]
fn the_answer_is_kept_beside_the_pattern_and_said_once() {
    let mut s = with_palette();
    send(&mut s, [press(KeyCode::Down), ctrl_k()]);
    let report = measured_report(&s, "user-orders", 1.5);
    assert_eq!(report.verdict.kind, FindingKind::Served);
    send(
        &mut s,
        [Msg::PatternChecked {
            table: "app".into(),
            pattern: "user-orders".into(),
            result: Ok(Box::new(report)),
            spent_rcu: 6.5,
            stopped: false,
        }],
    );
    let check = s.queries.pattern_checks.get("app", "user-orders").unwrap();
    assert_eq!(check.summary(), "1.5 RCU a call · served");
    let notice = s.notice.as_ref().unwrap();
    assert_eq!(
        notice.text,
        "pattern 'user-orders' checked, 1.5 RCU a call: served by one Query · the check spent 6.5 RCU"
    );
    assert!(!notice.error);

    send(
        &mut s,
        [Msg::PatternChecked {
            table: "app".into(),
            pattern: "user-by-id".into(),
            result: Err("the session's --max-rcu is spent".into()),
            spent_rcu: 0.0,
            stopped: false,
        }],
    );
    let failed = s.queries.pattern_checks.get("app", "user-by-id").unwrap();
    assert_eq!(
        failed.summary(),
        "check failed: the session's --max-rcu is spent"
    );
    assert!(s.notice.as_ref().unwrap().error);
}

#[test]
fn esc_stops_a_running_check_before_it_closes_the_palette() {
    let mut s = with_palette();
    send(&mut s, [press(KeyCode::Down)]);
    let id = match send(&mut s, [ctrl_k()]).as_slice() {
        [Effect::Read(ReadEffect::CheckPattern { id, .. })] => *id,
        other => panic!("expected one CheckPattern, got {other:?}"),
    };
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(
        matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c))] if *c == id),
        "{effects:?}"
    );
    assert!(s.table.as_ref().unwrap().palette().is_some());
    send(
        &mut s,
        [Msg::PatternChecked {
            table: "app".into(),
            pattern: "user-orders".into(),
            result: Err("the check was stopped".into()),
            spent_rcu: 3.5,
            stopped: true,
        }],
    );
    let check = s.queries.pattern_checks.get("app", "user-orders").unwrap();
    assert_eq!(check.summary(), "stopped · 3.5 RCU spent");
    assert_eq!(
        s.notice.as_ref().unwrap().text,
        "pattern 'user-orders': check stopped; it spent 3.5 RCU"
    );
    // Nothing runs now: Esc closes the palette.
    assert!(send(&mut s, [press(KeyCode::Esc)]).is_empty());
    assert!(s.table.as_ref().unwrap().palette().is_none());
}
