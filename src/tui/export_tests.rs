use super::*;
use crate::app::msg::ExportMsg;
use crate::app::state::{CsvColumns, ExportItems, ExportRequest};
use crate::model::exports::export::ExportFormat;
use crate::model::item::value::AttrValue;

fn items(n: usize) -> Vec<Item> {
    (0..n)
        .map(|i| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(format!("P#{i}"))),
                ("n".into(), AttrValue::N(i.to_string())),
            ])
        })
        .collect()
}

fn request(path: &Path, stream: bool, overwrite: bool) -> ExportRequest {
    ExportRequest {
        job: 7,
        path: path.to_string_lossy().into_owned(),
        format: ExportFormat::Jsonl,
        columns: CsvColumns::Fixed(Vec::new()),
        overwrite,
        items: ExportItems::List(items(3)),
        stream,
        design: None,
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

async fn done(rx: &mut mpsc::UnboundedReceiver<Msg>) -> Result<ExportSummary, String> {
    loop {
        match rx.recv().await.expect("a message") {
            Msg::Export(ExportMsg::Done { result, .. }) => return result,
            _ => continue,
        }
    }
}

#[tokio::test]
async fn a_finished_export_is_renamed_into_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    exports.start(request(&path, false, false));
    let summary = done(&mut rx).await.unwrap();
    assert_eq!(
        (summary.items, summary.bytes),
        (3, fs::metadata(&path).unwrap().len())
    );
    assert_eq!(files(dir.path()), ["out.jsonl"]);
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
}

#[tokio::test]
async fn a_cancelled_stream_leaves_no_file_under_the_final_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    exports.start(request(&path, true, false));
    exports.send(7, SinkInput::Items(items(5)));
    // The sink's task makes its temporary file when it starts, on a thread of its own: waited
    // for, with a backstop a passing run never reaches (a fixed 50 ms was outlasted on a
    // loaded machine).
    let started = std::time::Instant::now();
    while files(dir.path()).is_empty() && started.elapsed() < Duration::from_secs(30) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(
        files(dir.path()).len(),
        1,
        "the temporary file exists while it runs"
    );
    assert!(!path.exists());
    exports.cancel(7);
    let err = done(&mut rx).await.unwrap_err();
    assert!(err.contains("cancelled"), "{err}");
    assert!(files(dir.path()).is_empty(), "{:?}", files(dir.path()));
}

#[tokio::test]
async fn an_existing_file_is_replaced_only_when_agreed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    fs::write(&path, "keep me\n").unwrap();
    assert_eq!(check_path(path.to_str().unwrap()), Ok(true));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    exports.start(request(&path, false, false));
    let err = done(&mut rx).await.unwrap_err();
    assert!(err.contains("appeared"), "{err}");
    assert_eq!(fs::read_to_string(&path).unwrap(), "keep me\n");
    assert_eq!(files(dir.path()), ["out.jsonl"]);
    exports.start(request(&path, false, true));
    done(&mut rx).await.unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 3);
}

#[test]
fn paths_are_checked_and_directories_completed() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("exports")).unwrap();
    fs::create_dir(dir.path().join("extra")).unwrap();
    fs::create_dir(dir.path().join(".hidden")).unwrap();
    fs::write(dir.path().join("exfile"), "").unwrap();
    let base = format!("{}/", dir.path().display());
    assert_eq!(
        complete_dirs(&format!("{base}ex")),
        [format!("{base}exports/"), format!("{base}extra/")]
    );
    assert_eq!(
        complete_dirs(&format!("{base}.h")),
        [format!("{base}.hidden/")]
    );
    assert_eq!(
        check_path(&format!("{base}exports")).unwrap_err(),
        format!("'{base}exports' is a directory, not a file; it is never replaced: name a file")
    );
    assert!(check_path(&format!("{base}nope/x.csv"))
        .unwrap_err()
        .contains("does not exist"));
    assert_eq!(check_path(&format!("{base}new.csv")), Ok(false));
}

#[test]
fn a_target_that_is_not_a_regular_file_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let base = format!("{}/", dir.path().display());
    assert_eq!(
        check_path(&format!("{base}pipe")).unwrap_err(),
        format!(
            "'{base}pipe' is a named pipe (fifo), not a file; it is never replaced: name a file"
        )
    );
    assert!(check_path(&format!("{base}link"))
        .unwrap_err()
        .contains("is a symlink to a named pipe (fifo), not a file"));
    assert!(check_path("/dev/null")
        .unwrap_err()
        .contains("'/dev/null' is a character device"));
    // A device node made here (as root), so nothing outside the temp dir is at stake.
    let node = dir.path().join("mynull");
    let c_path = std::ffi::CString::new(node.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mknod only reads it.
    let made_node =
        unsafe { libc::mknod(c_path.as_ptr(), libc::S_IFCHR | 0o600, libc::makedev(1, 3)) } == 0;
    if made_node {
        assert!(check_path(node.to_str().unwrap())
            .unwrap_err()
            .contains("is a character device, not a file"));
    }
}

/// Agreed to replace a file, the export still leaves a target that became a device alone.
#[tokio::test]
async fn an_agreed_replacement_is_refused_when_the_target_is_a_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    exports.start(request(&path, false, true));
    let err = done(&mut rx).await.unwrap_err();
    assert!(
        err.contains("is a named pipe (fifo), not a file, and was left as it was"),
        "{err}"
    );
    assert!(fs::symlink_metadata(&path).unwrap().file_type().is_fifo());
    assert_eq!(files(dir.path()), ["out.jsonl"]);
}

/// Pages tee'd in while the loaded items are still being written wait their turn: every
/// item reaches the file once, in order.
#[tokio::test(flavor = "multi_thread")]
async fn pages_arriving_while_the_loaded_items_are_written_are_all_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.jsonl");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    let mut req = request(&path, true, false);
    req.items = ExportItems::List(items(20 * CHUNK));
    exports.start(req);
    let sink = exports.sinks[&7].tx.clone();
    for _ in 0..5 {
        sink.send(SinkInput::Items(items(100))).await.unwrap();
    }
    exports.finish(7);
    let summary = done(&mut rx).await.unwrap();
    assert_eq!(summary.items, (20 * CHUNK + 500) as u64);
    assert_eq!(
        fs::read_to_string(&path).unwrap().lines().count(),
        20 * CHUNK + 500
    );
}

/// `X`'s file: the design document those items show (model export's Markdown), written in
/// place of the items through the same temporary file and rename.
#[tokio::test]
async fn a_design_export_writes_the_design_document_of_its_items() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("design.md");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut exports = Exports::new(tx);
    let mut info = crate::model::fixtures::demo_info();
    info.name = "orders|x".into();
    let mut design = request(&path, false, false);
    design.design = Some(Box::new(info));
    exports.start(design);
    let summary = done(&mut rx).await.unwrap();
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(summary.items, 3);
    assert!(text.starts_with("# Design of table orders\\|x\n"), "{text}");
    assert!(text.contains("from 3 sampled items"), "{text}");
    assert!(text.contains("```mermaid"), "{text}");
    assert_eq!(files(dir.path()), ["design.md"]);
}
