//! Issue 24: an export read with a damaged data file. The file's line (the one `scan --export`
//! prints) reaches the status line and the request log, and the title's marker stays with
//! the shortfall; a read cut short sends no report, and the view keeps what was read.

use crate::app::fixtures::*;
use crate::app::msg::Msg;
use crate::model::engine::EngineEvent;
use crate::model::exports::table_export::{FileProblem, FileReport, IntegrityReport};

/// Three files of 101 items: one read whole, one corrupt after 50, one missing.
pub fn damaged_report() -> IntegrityReport {
    let file = |n: u32, read: u64, problems: Vec<FileProblem>| FileReport {
        key: format!("p/AWSDynamoDB/01764586800000-a1b2c3d4/data/file00{n}.json.gz"),
        listed: 101,
        read,
        problems,
    };
    IntegrityReport {
        files: vec![
            file(0, 101, vec![]),
            file(
                1,
                50,
                vec![FileProblem::Corrupt("incomplete deflate stream".into())],
            ),
            file(2, 0, vec![FileProblem::Missing]),
        ],
    }
}

#[test]
fn a_damaged_file_is_named_in_the_status_line_and_the_log_and_the_title_keeps_the_shortfall() {
    let (mut s, id) = opened();
    s.session.export = Some("export 01764586800000-a1b2c3d4 of app at 2026-12-01".into());
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let pages = s.log.len();
    let requests = s.log.requests;
    let report = damaged_report();
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Integrity {
            request_id: id,
            report: report.clone(),
        })],
    );
    let notice = s.notice.as_ref().expect("a notice");
    assert!(notice.error);
    assert_eq!(
        notice.text,
        "data file 'p/AWSDynamoDB/01764586800000-a1b2c3d4/data/file001.json.gz' is corrupt after 50 of its 101 items (incomplete deflate stream); 51 are not in the results (and 1 more data file: see the request log)"
    );
    // One row per damaged file, each the line scan --export prints; neither is a request.
    assert_eq!(s.log.len(), pages + 2);
    assert_eq!(s.log.requests, requests);
    let lines: Vec<String> = report.troubled().filter_map(|f| f.message()).collect();
    let rows: Vec<String> = (pages..pages + 2)
        .filter_map(|i| s.log.get(i).and_then(|r| r.problem.clone()))
        .collect();
    assert_eq!(rows, lines);
    assert!(rows[1].contains("file002.json.gz' is missing; its 101 items"));
    let kept = s
        .session
        .export_damage
        .as_ref()
        .expect("the marker's report");
    assert_eq!((kept.items_read(), kept.items_listed()), (151, 303));
    // The items read stay on screen.
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    assert_eq!(store.len(), demo_items().len());
}

#[test]
fn a_report_without_problems_changes_nothing() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let report = IntegrityReport {
        files: damaged_report().files.into_iter().take(1).collect(),
    };
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Integrity {
            request_id: id,
            report,
        })],
    );
    assert!(s.session.export_damage.is_none());
    assert!(s.notice.as_ref().is_none_or(|n| !n.error));
}
