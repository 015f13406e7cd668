//! Issue 24: an incremental export in the live pane ranks its hot key first. An export written
//! on disk by the test suite's generator (AWS's layout, data files in no time order), one
//! partition key taking most of the writes, is opened by the export backend as the live
//! pane's stream, and its events go through the explorer's own `update`, as the terminal loop
//! passes them.

use crate::common::table_export;

use dynoscope::app::config::Config;
use dynoscope::app::keymap::Keymap;
use dynoscope::app::msg::{Effect, LiveEffect, Msg, StreamMsg, TableMsg};
use dynoscope::app::state::{LiveStatus, State};
use dynoscope::app::update::{start, update};
use dynoscope::aws::stream::{StreamEvent, StreamStart};
use dynoscope::aws::table_export::{open_export, ExportBackend};
use dynoscope::aws::Backend;
use dynoscope::model::exports::table_export::Change;
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::stream::Timeline;
use table_export::{write_incremental_export, Format};

/// 2026-12-01T10:00:00Z, the generator's `exportFromTime`.
const FROM_MS: u64 = 1_796_119_200_000;

fn item(pk: &str, sk: &str, status: &str) -> Item {
    Item::from_attrs(vec![
        ("PK".into(), AttrValue::S(pk.into())),
        ("SK".into(), AttrValue::S(sk.into())),
        ("GSI1PK".into(), AttrValue::S(status.into())),
        ("GSI1SK".into(), AttrValue::S(sk.into())),
    ])
}

/// 1,000 writes over the export's hour: 600 to `TENANT#hot` (its orders shipped, each a
/// MODIFY), the rest inserts spread over 400 tenants.
pub fn changes() -> Vec<Change> {
    (0..1000u64)
        .map(|n| {
            let write_micros = (FROM_MS + n * 3_600) * 1000;
            if n % 5 < 3 {
                let sk = format!("ORDER#{n:05}");
                Change {
                    write_micros,
                    keys: Item::from_attrs(vec![
                        ("PK".into(), AttrValue::S("TENANT#hot".into())),
                        ("SK".into(), AttrValue::S(sk.clone())),
                    ]),
                    old_image: Some(item("TENANT#hot", &sk, "STATUS#PENDING")),
                    new_image: Some(item("TENANT#hot", &sk, "STATUS#SHIPPED")),
                }
            } else {
                let pk = format!("TENANT#t{:03}", n % 400);
                let image = item(&pk, "PROFILE", "STATUS#ACTIVE");
                Change {
                    write_micros,
                    keys: Item::from_attrs(vec![
                        ("PK".into(), AttrValue::S(pk.clone())),
                        ("SK".into(), AttrValue::S("PROFILE".into())),
                    ]),
                    old_image: None,
                    new_image: Some(image),
                }
            }
        })
        .collect()
}

#[tokio::test]
async fn an_incremental_export_in_the_live_pane_ranks_its_hot_key_first() {
    let dir = tempfile::tempdir().unwrap();
    // Written newest first, over three files: the reader must restore write-time order.
    let mut written = changes();
    written.reverse();
    let layout = write_incremental_export(dir.path(), "app", Format::DynamoJson, &written, 3);
    let info = dynoscope::model::demo::demo_data::stream_table_info();
    let backend = ExportBackend::new(open_export(&layout.folder).unwrap(), info.clone());

    // The explorer opened on the export with the pane asked for, as `dynoscope --export` does.
    let mut state = State::new(
        Config::default(),
        Keymap::default(),
        "export".into(),
        120,
        40,
    );
    state.open_live = true;
    start(&mut state, Some("app".into()));
    let effects = update(
        &mut state,
        Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info),
        }),
    );
    let id = effects
        .iter()
        .find_map(|e| match e {
            Effect::Live(LiveEffect::Start { id, .. }) => Some(*id),
            _ => None,
        })
        .expect("the pane starts its stream");

    // What the terminal loop's stream task does with the backend: describe, then read.
    let target = backend.stream_table("app").await.unwrap();
    assert_eq!(
        target.timeline,
        Timeline::Recorded {
            from_ms: FROM_MS,
            to_ms: FROM_MS + 3_600_000
        }
    );
    update(
        &mut state,
        Msg::Stream {
            id,
            event: StreamMsg::Found {
                view_type: target.view_type,
                timeline: target.timeline,
            },
        },
    );
    let (tx, mut rx) = tokio::sync::mpsc::channel(2);
    let handle = backend.start_stream(&target, StreamStart::Latest, tx);
    let mut last_micros = 0u64;
    while let Some(event) = rx.recv().await {
        if let StreamEvent::Changes { changes, .. } = &event {
            for c in changes {
                let micros: u64 = c.sequence_number.parse().unwrap();
                assert!(micros >= last_micros, "write-time order");
                last_micros = micros;
            }
        }
        let last = matches!(event, StreamEvent::Done { .. } | StreamEvent::Failed { .. });
        update(
            &mut state,
            Msg::Stream {
                id,
                event: StreamMsg::Event(event),
            },
        );
        if last {
            break;
        }
    }
    handle.join().await;

    let live = state.table.as_ref().unwrap().live().unwrap();
    assert_eq!(live.status, LiveStatus::Ended);
    assert_eq!(live.stats.totals().events, 1000);
    let s = &live.summary;
    assert_eq!(s.window_events, 1000, "the whole window is ranked");
    assert_eq!(s.by_events[0].key, "TENANT#hot");
    assert_eq!(
        (s.by_events[0].events, s.by_events[0].events_error),
        (600, 0)
    );
    assert_eq!(s.by_wcu[0].key, "TENANT#hot");
    assert!(
        s.warnings
            .iter()
            .any(|w| w.message.contains("'TENANT#hot'") && w.message.contains("export's window")),
        "{:?}",
        s.warnings
    );
    // GSI1: each shipped order counts against both its old and new GSI key.
    let gsi = live.stats.top(
        dynoscope::model::stream::RankTarget::Gsi(0),
        dynoscope::model::stream::RankBy::Events,
        live.window,
        FROM_MS + 3_600_000,
        1,
    );
    assert!(
        ["STATUS#SHIPPED", "STATUS#PENDING"].contains(&gsi[0].key.as_str()),
        "{gsi:?}"
    );
}
