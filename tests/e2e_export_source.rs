//! The explorer on an S3 export (`dynoscope --export PATH`), in a pty: an export written on
//! disk in AWS's layout opens in the table view titled as an export, with its kinds decoded,
//! an item's detail, a partition-key query answered from the files, and every write key
//! refused with one line; `--allow-writes` with `--export` is refused before any terminal.

mod common;
#[path = "common/table_export.rs"]
mod table_export;

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

#[test]
fn an_incremental_export_is_refused_naming_tail() {
    use dynoscope::model::table_export::Change;
    let dir = tempfile::tempdir().unwrap();
    let item = table_export::item_of(&lines()[0]);
    let change = Change {
        write_micros: 1_764_586_800_000_000,
        keys: item.clone(),
        new_image: Some(item),
        old_image: None,
    };
    let layout = write_incremental_export(dir.path(), "shop", Format::DynamoJson, &[change], 1);
    let path = layout.folder.to_string_lossy().into_owned();
    let out = run_raw(&["--export", &path, "--key", "PK,SK"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is incremental") && err.contains("tail --export"),
        "{err}"
    );
}
