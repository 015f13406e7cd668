//! The explorer on an S3 export (`dynoscope --export PATH`), in a pty: an export written on
//! disk in AWS's layout opens in the table view titled as an export, with its kinds decoded,
//! an item's detail, a partition-key query answered from the files, and every write key
//! refused with one line; `--allow-writes` with `--export` is refused before any terminal.

use crate::common;
use crate::common::table_export;

use std::time::Duration;

use common::pty::Session;
use common::*;
use table_export::*;

/// Two customers with a profile and orders each, and one hostile string (shown sanitised).
fn lines() -> Vec<String> {
    let mut lines = Vec::new();
    for c in 1..=2 {
        lines.push(format!(
            r#"{{"PK":{{"S":"CUST#{c}"}},"SK":{{"S":"PROFILE"}},"name":{{"S":"Customer \u001b[31m{c}"}}}}"#
        ));
        for o in 1..=3 {
            lines.push(format!(
                r#"{{"PK":{{"S":"CUST#{c}"}},"SK":{{"S":"ORDER#2026-0{o}"}},"total":{{"N":"{o}{c}.5"}}}}"#
            ));
        }
    }
    lines
}

fn open(dir: &std::path::Path, format: Format) -> (ExportLayout, Session) {
    let layout = write_full_export(dir, "shop", format, &lines(), 2, 1);
    let path = layout.folder.to_string_lossy().into_owned();
    // --key: no DynamoDB to describe the table with, as on a laptop holding a download.
    let s = Session::spawn(&["--export", &path, "--key", "PK,SK"], &[], 40, 120);
    (layout, s)
}

#[test]
fn an_export_on_disk_opens_in_the_table_view_with_kinds_detail_and_queries() {
    for format in [Format::DynamoJson, Format::Ion] {
        let dir = tempfile::tempdir().unwrap();
        let (layout, mut s) = open(dir.path(), format);
        let title = format!("export {} of shop at 2026-12-01T11:00:00.000Z", layout.id);
        let screen = s.wait_for("the export's items", |s| {
            s.contains(&title) && s.contains("ORDER") && s.contains("PROFILE")
        });
        assert!(screen.contains("no RCU · "), "{screen}");
        assert!(
            screen.contains("Pages read from the export's files"),
            "the log says what it shows: {screen}"
        );
        assert!(!screen.contains("\x1b[31m"), "sanitised: {screen}");

        // A partition key's collection, read from the files as a filter.
        s.keys("p");
        s.wait_text("Query partition key PK");
        s.keys("CUST#2\r");
        s.wait_text("Items in CUST#2");

        // An item's detail: pretty JSON of an item the export holds.
        s.keys("\t");
        s.keys("\r");
        let screen = s.wait_text("\"PK\": \"CUST#2\"");
        assert!(!screen.contains("\"PK\": \"CUST#1\""), "{screen}");
        s.send("q");
        s.send("q");
        s.send("q");
        s.wait_exit();
    }
}

#[test]
fn write_keys_on_an_export_say_it_is_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let (_layout, mut s) = open(dir.path(), Format::DynamoJson);
    s.wait_for("the export's items", |s| s.contains("PROFILE"));
    // On the items pane, with an item under the cursor, as an edit would start.
    s.keys("\t");
    s.keys("e");
    s.wait_text("an export is read-only");
    // Delete would ask to confirm first; on an export it says the same line instead.
    for key in ["N", "D", "U"] {
        s.keys(key);
    }
    let screen = s.settle(Duration::from_millis(300), Duration::from_secs(10));
    assert!(screen.contains("an export is read-only"), "{screen}");
    assert!(!screen.contains("Delete "), "no confirmation: {screen}");
    s.send("q");
    s.wait_exit();
}

#[test]
fn allow_writes_with_an_export_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(dir.path(), "shop", Format::DynamoJson, &lines(), 1, 0);
    let path = layout.folder.to_string_lossy().into_owned();
    let out = run_raw(&["--export", &path, "--allow-writes"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--allow-writes cannot be used with --export"),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

/// Issue 24: an incremental export opens with the live pane counting its changes over the
/// export's window (the title says so, and not "Live"): the hot key is ranked first. The
/// table view under it holds the newest image of each key written, not the change records.
#[test]
fn an_incremental_export_opens_in_the_live_pane_with_its_hot_key_first() {
    use dynoscope::model::exports::table_export::Change;
    let dir = tempfile::tempdir().unwrap();
    let item = |pk: &str, sk: &str, v: u64| {
        table_export::item_of(&format!(
            r#"{{"PK":{{"S":"{pk}"}},"SK":{{"S":"{sk}"}},"v":{{"N":"{v}"}}}}"#
        ))
    };
    // 2026-12-01T10:00:00Z onwards, one write every 12 s: 200 writes, 120 to CUST#hot's one
    // item (so the table view shows it once, at its last value), the rest to 80 others.
    let changes: Vec<Change> = (0..200u64)
        .map(|n| {
            let (pk, sk) = if n % 5 < 3 {
                ("CUST#hot".to_string(), "PROFILE".to_string())
            } else {
                (format!("CUST#c{:02}", n % 80), "PROFILE".to_string())
            };
            Change {
                write_micros: (1_796_119_200_000 + n * 12_000) * 1000,
                keys: item(&pk, &sk, 0),
                old_image: (n >= 5).then(|| item(&pk, &sk, n - 1)),
                new_image: Some(item(&pk, &sk, n)),
            }
        })
        .collect();
    let layout = write_incremental_export(dir.path(), "shop", Format::DynamoJson, &changes, 2);
    let path = layout.folder.to_string_lossy().into_owned();
    let mut s = Session::spawn(&["--export", &path, "--key", "PK,SK"], &[], 40, 120);
    let screen = s.wait_for("the export's window in the pane", |s| {
        s.contains(
            "Writes in the export's window from 2026-12-01T10:00:00Z to 2026-12-01T11:00:00Z",
        ) && s.contains("every change read")
    });
    assert!(!screen.contains("Live writes"), "{screen}");
    let first_ranked = screen
        .lines()
        .skip_while(|l| !l.contains("by writes"))
        .nth(1)
        .unwrap_or_default()
        .to_string();
    assert!(
        first_ranked.trim_start_matches('│').starts_with("CUST#hot"),
        "the hot key first: {first_ranked}\n{screen}"
    );
    assert!(first_ranked.contains("120"), "{first_ranked}");
    assert!(screen.contains("200 changes in 60m00s"), "{screen}");
    // Esc closes the pane: the table view holds each key once, as last written.
    s.keys("\x1b");
    let screen = s.wait_for("the table view", |s| {
        s.contains("incremental export") && s.contains("CUST#hot")
    });
    assert!(
        screen.contains(&format!(
            "incremental export {} of shop: items written from",
            layout.id
        )),
        "{screen}"
    );
    s.send("q");
    s.wait_exit();
}

/// Issue 24: an export with a truncated data file opens all the same; the title says it is
/// incomplete with the shortfall, the status line names the file as scan --export does, and
/// the request log lists the line under the pages read.
#[test]
fn a_truncated_data_file_is_named_and_the_title_says_the_export_is_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let many: Vec<String> = (0..400)
        .map(|i| {
            format!(
                r#"{{"PK":{{"S":"CUST#{}"}},"SK":{{"S":"ORDER#{i:04}"}},"note":{{"S":"{}"}}}}"#,
                i % 7,
                "x".repeat(200 + i % 13)
            )
        })
        .collect();
    let layout = write_full_export(dir.path(), "shop", Format::DynamoJson, &many, 2, 0);
    let name = table_export::truncate(&layout, 1);
    let path = layout.folder.to_string_lossy().into_owned();
    let mut s = Session::spawn(&["--export", &path, "--key", "PK,SK"], &[], 40, 120);
    let screen = s.wait_for("the damaged export", |s| {
        s.contains("EXPORT INCOMPLETE:") && s.contains("ORDER#")
    });
    assert!(screen.contains("of 400 items read"), "{screen}");
    let short_name: String = name.chars().take(40).collect();
    assert!(
        screen.contains(&format!("data file '{short_name}")) && screen.contains("is corrupt after"),
        "the status line or the log names the file: {screen}"
    );
    assert!(
        screen.contains("Pages read from the export's files"),
        "{screen}"
    );
    s.send("q");
    s.wait_exit();
}
