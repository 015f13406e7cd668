//! The metrics pane through the whole explorer: `M` sends one batch to the metrics source
//! off the terminal thread, the answer comes back as a message, and the open pane asks again
//! every minute (paused time) until it closes; Contributor Insights the same way once `I`
//! shows it, and Enter on one of its keys reads that collection.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::app::input::KeyCode;

use super::flow_harness::{engine, Harness};
use super::services::{InsightsSource, MetricsSource};
use crate::app::fixtures::{char, press};
use crate::app::metrics::fixtures::{gsi_throttling, insights_enabled};
use crate::app::state::{MetricsStatus, PANE_PERIOD_SECS};
use crate::app::update::start;
use crate::model::traffic::metrics::Window;

/// What the source was asked for: table, GSIs, window.
type Asked = Arc<Mutex<Vec<(String, Vec<String>, Window)>>>;

fn recording(asked: Asked) -> MetricsSource {
    Arc::new(move |table: String, gsis: Vec<String>, window: Window| {
        asked.lock().unwrap().push((table, gsis, window));
        Box::pin(async { Ok(gsi_throttling()) })
    })
}

#[tokio::test(start_paused = true)]
async fn the_pane_asks_once_then_every_minute_while_open() {
    let asked: Asked = Arc::new(Mutex::new(Vec::new()));
    let mut h = Harness::new(engine());
    h.runner = std::mem::replace(
        &mut h.runner,
        super::effects::EffectRunner::new(
            engine(),
            tokio::sync::mpsc::channel(1).0,
            tokio::sync::mpsc::unbounded_channel().0,
        ),
    )
    .with_metrics(Some(recording(asked.clone())));
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char('M')]);
    h.settle().await;
    {
        let asked = asked.lock().unwrap();
        assert_eq!(asked.len(), 1);
        let (table, gsis, window) = &asked[0];
        assert_eq!(
            (table.as_str(), gsis.as_slice()),
            ("app", &["GSI1".to_string()][..])
        );
        assert_eq!(window.period, PANE_PERIOD_SECS);
    }
    let pane = h.state.table.as_ref().unwrap().metrics().unwrap();
    assert_eq!(pane.status, MetricsStatus::Ready);
    assert!(pane.verdicts.iter().any(|v| v.throttling_now));

    tokio::time::sleep(Duration::from_secs(61)).await;
    h.settle().await;
    assert_eq!(
        asked.lock().unwrap().len(),
        2,
        "a minute later it asked again"
    );
    let pane = h.state.table.as_ref().unwrap().metrics().unwrap();
    assert_eq!(pane.refreshes, 2);

    h.send([press(KeyCode::Esc)]);
    tokio::time::sleep(Duration::from_secs(121)).await;
    h.settle().await;
    assert_eq!(asked.lock().unwrap().len(), 2, "a closed pane asks no more");
}

/// What the Contributor Insights source was asked for: table, GSIs, window.
fn recording_insights(asked: Asked) -> InsightsSource {
    Arc::new(move |table: String, gsis: Vec<String>, window: Window| {
        asked.lock().unwrap().push((table, gsis, window));
        Box::pin(async { (insights_enabled(), Vec::new()) })
    })
}

#[tokio::test(start_paused = true)]
async fn insights_are_asked_for_on_i_then_every_minute_and_enter_reads_the_key() {
    let (metrics, insights): (Asked, Asked) = Default::default();
    let mut h = Harness::new(engine());
    let runner = std::mem::replace(
        &mut h.runner,
        super::effects::EffectRunner::new(
            engine(),
            tokio::sync::mpsc::channel(1).0,
            tokio::sync::mpsc::unbounded_channel().0,
        ),
    );
    h.runner = runner
        .with_metrics(Some(recording(metrics.clone())))
        .with_insights(Some(recording_insights(insights.clone())));
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char('M')]);
    h.settle().await;
    assert!(insights.lock().unwrap().is_empty(), "not asked before I");
    h.send([char('I')]);
    h.settle().await;
    {
        let asked = insights.lock().unwrap();
        assert_eq!(asked.len(), 1);
        let (table, gsis, window) = &asked[0];
        assert_eq!(
            (table.as_str(), gsis.as_slice(), window.period),
            ("app", &["GSI1".to_string()][..], PANE_PERIOD_SECS)
        );
    }
    let pane = h.state.table.as_ref().unwrap().metrics().unwrap();
    assert!(pane.insights.as_ref().unwrap().targets.is_some());
    assert!(pane
        .verdicts
        .iter()
        .any(|v| v.says.contains("'STATUS#SHIPPED'")));

    tokio::time::sleep(Duration::from_secs(61)).await;
    h.settle().await;
    assert_eq!(
        insights.lock().unwrap().len(),
        2,
        "asked again a minute later"
    );
    assert_eq!(metrics.lock().unwrap().len(), 2);

    // GSI1's most throttled key: Enter reads its collection on the index.
    h.send(std::iter::repeat_with(|| char('j')).take(4));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    let view = h.state.table.as_ref().unwrap();
    assert!(view.metrics().is_none());
    assert_eq!(view.view.index.as_deref(), Some("GSI1"));
    let store = view.view.store.as_ref().unwrap();
    assert!(!store.is_empty());
    assert!(store
        .collections()
        .iter()
        .all(|c| c.key == "STATUS#SHIPPED"));
    tokio::time::sleep(Duration::from_secs(121)).await;
    h.settle().await;
    assert_eq!(
        insights.lock().unwrap().len(),
        2,
        "a closed pane asks no more"
    );
}
