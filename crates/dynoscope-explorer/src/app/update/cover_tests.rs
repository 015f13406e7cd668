//! The live and metrics panes share one slot over the table (`OpenTable::cover`): opening one
//! closes the other, so a closed pane neither keeps asking its service nor reappears when the
//! other closes.

use crate::app::fixtures::{demo_info, loaded, press, send};
use crate::app::input::KeyCode;
use crate::app::metrics::fixtures::pane_opened;
use crate::app::msg::{Effect, LiveEffect, Msg, TableMsg, TimeMsg, Timer};
use crate::app::state::{CoverPane, Layer, State};

fn sized() -> State {
    let mut s = loaded(false);
    s.width = 120;
    s.height = 40;
    s
}

fn cover(s: &State) -> Option<&CoverPane> {
    s.table.as_ref().unwrap().cover.as_ref()
}

/// Another table's description arriving (the picker's) runs the pending `--live` / early `W`.
fn other_table_described() -> Msg {
    let mut info = demo_info();
    info.name = "other".into();
    Msg::Tables(TableMsg::Described {
        table: "other".into(),
        result: Ok(info),
    })
}

#[test]
fn a_pending_live_pane_takes_the_slot_from_the_metrics_pane_which_stops_refreshing() {
    let mut s = sized();
    pane_opened(&mut s);
    let generation = s.table.as_ref().unwrap().metrics().unwrap().generation;
    assert_eq!(s.layers(), vec![Layer::Metrics]);
    // A `W` left pending (pressed while a table was being described) opens the live pane now.
    s.open_live = true;
    let effects = send(&mut s, [other_table_described()]);
    assert!(
        matches!(effects.as_slice(), [Effect::Live(LiveEffect::Start { table, .. })] if table == "app"),
        "{effects:?}"
    );
    assert!(matches!(cover(&s), Some(CoverPane::Live(_))));
    assert!(s.table.as_ref().unwrap().metrics().is_none());
    assert_eq!(s.layers(), vec![Layer::Live]);
    // The metrics pane's minute comes round: it is gone, so CloudWatch is not asked.
    let effects = send(
        &mut s,
        [Msg::Time(TimeMsg::Timer(Timer::MetricsRefresh(generation)))],
    );
    assert!(effects.is_empty(), "{effects:?}");
    // Esc closes the live pane and its stream; the table is beneath, not the old metrics pane.
    let stream = s.table.as_ref().unwrap().live().unwrap().stream_id;
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(
        matches!(effects.as_slice(), [Effect::Live(LiveEffect::Stop(id))] if *id == stream),
        "{effects:?}"
    );
    assert!(cover(&s).is_none());
    assert_eq!(s.layers(), vec![Layer::Screen]);
}

#[test]
fn m_after_the_live_pane_closed_opens_a_fresh_metrics_pane_in_the_slot() {
    let mut s = sized();
    pane_opened(&mut s);
    let first = s.table.as_ref().unwrap().metrics().unwrap().generation;
    s.open_live = true;
    send(&mut s, [other_table_described()]);
    send(&mut s, [press(KeyCode::Esc)]);
    pane_opened(&mut s);
    let pane = s.table.as_ref().unwrap().metrics().unwrap();
    assert_ne!(
        pane.generation, first,
        "a new pane, not the one the live pane replaced"
    );
    assert!(pane.report.is_none());
    assert!(s.table.as_ref().unwrap().live().is_none());
    assert_eq!(s.layers(), vec![Layer::Metrics]);
}
