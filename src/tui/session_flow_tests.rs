//! Switching region and profile through the whole explorer: the connector the command line
//! injects makes a new engine, the runner swaps to it, reads of the old one are cancelled.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::app::input::KeyCode;

use super::effects::EffectRunner;
use super::flow_harness::{engine, Harness};
use super::services::Connector;
use crate::app::fixtures::{char, demo_info, demo_items, press};
use crate::app::msg::Msg;
use crate::app::state::{ConnectTarget, ConnectionInfo, Screen};
use crate::app::update::start;
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::MemoryEngine;

/// The demo table with only its products: "another region's" copy.
fn other_region() -> MemoryEngine {
    let products: Vec<_> = demo_items()
        .into_iter()
        .filter(|i| {
            i.get("PK")
                .and_then(|v| v.as_s())
                .unwrap_or("")
                .starts_with("PRODUCT#")
        })
        .collect();
    MemoryEngine::new().with_table(demo_info(), MemorySource::new(products, &["PK", "SK"]))
}

/// A connector that records what it was asked for and answers with `engine` (or fails).
fn connector(
    engine: Option<MemoryEngine>,
    asked: Arc<Mutex<Vec<ConnectTarget>>>,
) -> Connector<MemoryEngine> {
    Arc::new(move |target: ConnectTarget| {
        asked.lock().unwrap().push(target.clone());
        let engine = engine.clone();
        Box::pin(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let engine = engine.ok_or("no credentials for profile 'prod'")?;
            let info = ConnectionInfo {
                endpoint: "https://dynamodb.eu-west-1.amazonaws.com".into(),
                region: target.region.unwrap_or_else(|| "ap-south-1".into()),
                profile: target.profile.unwrap_or_else(|| "default".into()),
            };
            Ok((engine, info))
        })
    })
}

fn harness(engine: MemoryEngine, connector: Connector<MemoryEngine>) -> Harness {
    let mut h = Harness::new(engine);
    let runner = std::mem::replace(
        &mut h.runner,
        EffectRunner::new(
            MemoryEngine::new(),
            tokio::sync::mpsc::channel(1).0,
            tokio::sync::mpsc::unbounded_channel().0,
        ),
    );
    h.runner = runner.with_connector(Some(connector));
    h
}

fn typed(text: &str) -> Vec<Msg> {
    text.chars().map(char).collect()
}

#[tokio::test(start_paused = true)]
async fn r_switches_region_reopens_the_table_there_and_cancels_the_old_reads() {
    // The old region answers slowly: its read is still running when the switch happens.
    let mut items = crate::model::demo::demo_data::generate(100);
    assert!(items.len() > crate::app::update::EXPLORER_PAGE_SIZE as usize);
    items.sort_by_key(|i| i.get("SK").and_then(|v| v.as_s()).map(String::from));
    let slow = MemorySource::new(items, &["PK", "SK"]).with_script(|n| Step {
        latency: Duration::from_secs(if n == 0 { 0 } else { 60 }),
        fail: false,
    });
    let old = MemoryEngine::new().with_table(demo_info(), slow);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let mut h = harness(old.clone(), connector(Some(other_region()), asked.clone()));
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char('L')]);
    tokio::time::sleep(Duration::from_millis(10)).await;
    assert_eq!(
        h.runner.running_reads(),
        1,
        "loading the rest from the old region"
    );

    h.send([char('R')]);
    assert!(h.state.switcher().is_some());
    h.send(typed("eu-west-1"));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(
        *asked.lock().unwrap(),
        [ConnectTarget {
            region: Some("eu-west-1".into()),
            profile: None,
        }]
    );
    assert_eq!(h.state.session.region, "eu-west-1");
    assert_eq!(h.state.endpoint, "https://dynamodb.eu-west-1.amazonaws.com");
    assert_eq!(h.state.screen, Screen::Table);
    let view = h.state.table.as_ref().unwrap();
    let store = view.view.store.as_ref().unwrap();
    assert!(
        store
            .collections()
            .iter()
            .all(|c| c.key.starts_with("PRODUCT#")),
        "the table as the new region has it"
    );
    assert_eq!(
        h.runner.running_reads(),
        0,
        "the old region's read was cancelled"
    );
    assert!(h.state.session.region_chosen);
}

#[tokio::test(start_paused = true)]
async fn a_switches_profile_keeping_a_chosen_region_and_a_failure_keeps_the_connection() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let mut h = harness(engine(), connector(None, asked.clone()));
    h.state.session.region_chosen = true;
    let effects = start(&mut h.state, None);
    h.apply(effects);
    h.settle().await;
    h.send([char('A')]);
    h.send(typed("pro"));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(
        *asked.lock().unwrap(),
        [ConnectTarget {
            region: Some("us-east-1".into()),
            profile: Some("prod".into()),
        }]
    );
    let notice = h.state.notice.clone().unwrap();
    assert!(
        notice.error && notice.text.contains("no credentials"),
        "{notice:?}"
    );
    assert_eq!(h.state.session.profile, "default", "unchanged");
    // The old connection still answers.
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(h.state.screen, Screen::Table);
    let store = h.state.table.as_ref().unwrap().view.store.as_ref().unwrap();
    assert!(!store.is_empty());
}

#[tokio::test(start_paused = true)]
async fn writes_enabled_for_one_region_are_off_after_switching_to_another() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let mut h = harness(engine(), connector(Some(other_region()), asked));
    h.state.writes_enabled = true;
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.settle().await;
    h.send([char('R')]);
    h.send(typed("eu-west-1"));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(h.state.session.region, "eu-west-1");
    assert!(!h.state.writes_enabled);
    let notice = h.state.notice.clone().unwrap();
    assert!(notice.text.contains("writes are off"), "{notice:?}");
    // The write keys now refuse, naming how to enable writes.
    h.send([press(KeyCode::Tab), char('D')]);
    let notice = h.state.notice.clone().unwrap();
    assert!(
        notice.error && notice.text.contains("--allow-writes"),
        "{notice:?}"
    );
    assert!(h.state.table.as_ref().unwrap().write().is_none());
}
