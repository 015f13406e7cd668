//! Hostile S3 exports on disk, made by each test at run time: a `manifest-files.json` whose
//! keys leave the export's folder (absolute, `..`, `data/../..`, a symlink out, a FIFO), a
//! manifest too large to read, a gzip bomb with no newline (read with bounded memory), a
//! huge file of blank lines that SIGINT must end at once, a key schema that matches no item,
//! and a long key whose file name every message keeps. No DynamoDB: `--key` names the keys.

use crate::common;
use crate::common::table_export;

use crate::common::moto;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::pty::Session;
use common::*;
use table_export::*;

const ITEMS: [&str; 2] = [
    r#"{"PK":{"S":"CUST#1"},"SK":{"S":"PROFILE"}}"#,
    r#"{"PK":{"S":"CUST#2"},"SK":{"S":"PROFILE"}}"#,
];

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// `copies` gzip members each inflating to `chunk`: one file that inflates to
/// `copies × chunk.len()` bytes while compressing only `chunk` once.
fn bomb(chunk: &[u8], copies: usize) -> Vec<u8> {
    gzip(chunk).repeat(copies)
}

/// A one-file export of [`ITEMS`] under `dir/root`.
fn export(dir: &Path) -> ExportLayout {
    let items: Vec<String> = ITEMS.iter().map(|s| s.to_string()).collect();
    write_full_export(&dir.join("root"), "shop", Format::DynamoJson, &items, 1, 0)
}

/// Appends a `manifest-files.json` entry for `key`.
fn list(layout: &ExportLayout, key: &str, items: u64) {
    let mut manifest = std::fs::OpenOptions::new()
        .append(true)
        .open(layout.folder.join("manifest-files.json"))
        .unwrap();
    let entry = serde_json::json!({"itemCount": items, "md5Checksum": null, "dataFileS3Key": key});
    writeln!(manifest, "{entry}").unwrap();
}

/// Replaces data file 0 with `bytes` (its listed MD5 then disagrees, which is not the point).
fn data_file_is(layout: &ExportLayout, bytes: &[u8]) {
    std::fs::write(layout.folder.join(&layout.data_files[0]), bytes).unwrap();
}

fn scan(layout: &ExportLayout) -> std::process::Output {
    let folder = layout.folder.to_string_lossy().into_owned();
    run_raw(&["scan", "--export", &folder, "--key", "PK,SK"], &[])
}

#[test]
fn keys_that_leave_the_export_folder_are_refused_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    let outside = dir.path().join("outside.json.gz");
    std::fs::write(
        &outside,
        gzip(br#"{"Item":{"PK":{"S":"SECRET"},"SK":{"S":"x"}}}"#),
    )
    .unwrap();
    let id = &layout.id;
    let keys = [
        outside.to_string_lossy().into_owned(),
        "/dev/zero".to_string(),
        "../../../outside.json.gz".to_string(),
        format!("exports/AWSDynamoDB/{id}/data/../../../../outside.json.gz"),
        format!("exports/AWSDynamoDB/{id}/data/link.json.gz"),
    ];
    std::os::unix::fs::symlink(&outside, layout.folder.join("data/link.json.gz")).unwrap();
    for key in &keys {
        list(&layout, key, 1);
    }
    // A FIFO inside the folder is not a file either: it would block or never end.
    let fifo = layout.folder.join("data/fifo.json.gz");
    let c_path = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    list(
        &layout,
        &format!("exports/AWSDynamoDB/{id}/data/fifo.json.gz"),
        1,
    );

    for command in ["scan", "hotkeys"] {
        let folder = layout.folder.to_string_lossy().into_owned();
        let out = run_raw(&[command, "--export", &folder, "--key", "PK,SK"], &[]);
        let (err, text) = (stderr(&out), stdout(&out));
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert!(!text.contains("SECRET"), "{command} read outside: {text}");
        for key in &keys {
            let lines: Vec<&str> = err
                .lines()
                .filter(|l| {
                    l.starts_with(&format!("data file '{key}' is outside the export's folder"))
                })
                .collect();
            assert_eq!(lines.len(), 1, "{command} {key}: {err}");
        }
        assert!(
            err.contains("it resolves to '"),
            "the symlink says where: {err}"
        );
        assert!(err.contains("not a regular file"), "{err}");
        assert!(
            err.lines().last().unwrap().contains("2 of the 8 items"),
            "{command}: {err}"
        );
        if command == "scan" {
            assert_eq!(text.lines().count(), 2, "{text}");
        }
    }
}

#[test]
fn a_manifest_outside_the_folder_or_too_large_is_refused_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    let summary = layout.folder.join("manifest-summary.json");
    let moved = dir.path().join("elsewhere.json");
    std::fs::rename(&summary, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &summary).unwrap();
    let out = scan(&layout);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("manifest-summary.json': it is outside the export's folder"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_file(&summary).unwrap();
    std::fs::rename(&moved, &summary).unwrap();

    // 20 GB, sparse: no disk is used, and none of it is read.
    let files = std::fs::File::create(layout.folder.join("manifest-files.json")).unwrap();
    files.set_len(20 << 30).unwrap();
    let started = Instant::now();
    let out = scan(&layout);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("manifest-files.json': it is 21,474,836,480 bytes, over the 64 MiB"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// Runs `args` and returns its output and its own peak resident memory (kB).
fn run_measured(args: &[&str]) -> (std::process::Output, u64) {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd).args(args);
    let run = common::peak_memory::run(&mut cmd, Duration::from_secs(600));
    let output = std::process::Output {
        status: run.status,
        stdout: run.stdout,
        stderr: run.stderr,
    };
    (output, run.peak_kb)
}

#[test]
fn a_gzip_bomb_with_no_newline_is_one_line_of_integrity_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    // 256 MB of one line: the reader kept it all (and doubled its buffer) before.
    data_file_is(&layout, &bomb(&vec![b'a'; 1 << 20], 256));
    let folder = layout.folder.to_string_lossy().into_owned();
    for command in ["scan", "hotkeys"] {
        let (out, peak_kb) = run_measured(&[command, "--export", &folder, "--key", "PK,SK"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        let name = name_of(&layout, 0);
        assert!(
            err.lines().any(|l| l.starts_with(&format!("data file '{name}' has 1 line that is not a record, the first at line 1: it is 268,435,456 bytes or more, over the 8,257,536"))),
            "{err}"
        );
        assert!(peak_kb < 150 * 1024, "{command}: peak RSS {peak_kb} kB");
        eprintln!("{command} on a 256 MB line: peak RSS {peak_kb} kB");
    }
}

/// The bytes `pid` has read so far (`rchar` of /proc/PID/io).
fn bytes_read(pid: u32) -> u64 {
    let io = std::fs::read_to_string(format!("/proc/{pid}/io")).unwrap_or_default();
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Whether `pid` catches SIGINT (`SigCgt` of /proc/PID/status, bit 1 for signal 2).
fn handles_sigint(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0)
}

#[test]
fn sigint_ends_a_scan_of_gigabytes_of_blank_lines_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    // 8 GB of blank lines in 8 MB of gzip: minutes of inflating in a debug build.
    let file = bomb(&vec![b'\n'; 1 << 20], 8192);
    data_file_is(&layout, &file);
    let folder = layout.folder.to_string_lossy().into_owned();
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd).args(["scan", "--export", &folder, "--key", "PK,SK"]);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Polled, not slept: SIGINT is handled (not the default exit) and the data file's first
    // buffer (256 KB of its gzip, a quarter of a GB inflated) has been read.
    let started = Instant::now();
    while !(handles_sigint(child.id()) && bytes_read(child.id()) > 256 << 10) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the read never began"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before the signal"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Instant::now();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(30),
            "SIGINT did not end it"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?} after SIGINT");
    assert_eq!(status.code(), Some(130), "{status:?}");
}

#[test]
fn a_key_schema_that_matches_no_item_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    let folder = layout.folder.to_string_lossy().into_owned();
    let out = run_raw(&["hotkeys", "--export", &folder, "--key", "pk,sk"], &[]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: none of the 2 items read has the partition key attribute 'pk': the key schema does not match them"),
        "{err}"
    );
    let out = run_raw(&["hotkeys", "--export", &folder, "--key", "PK,SK"], &[]);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}

/// The path is what the reader opens or fetches next: the line names it whole, however long
/// (the line's other long values are still cut), escaped.
#[test]
fn an_error_naming_a_data_file_under_a_long_prefix_names_its_whole_path() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    let prefix = "team/exports/nightly/".repeat(12);
    let name = "e87d5e88c3af33ad58cf53726f0123456789abcdef\u{1b}]0;t\u{7}.json.gz";
    let key = format!("{prefix}AWSDynamoDB/{}/data/{name}", layout.id);
    list(&layout, &key, 7);
    let out = scan(&layout);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let line = err.lines().find(|l| l.contains("is missing")).expect(&err);
    let escaped = key.replace('\u{1b}', r"\x1b").replace('\u{7}', r"\x07");
    assert!(
        line.contains(&format!("data file '{escaped}' is missing")),
        "{line}"
    );
    assert!(!line.contains("characters)"), "{line}");
}

const ENTER_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049h";
const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// The explorer on an export whose one data file is 8 GB of blank lines, still loading it.
fn explorer_loading(dir: &Path) -> Session {
    let layout = export(dir);
    data_file_is(&layout, &bomb(&vec![b'\n'; 1 << 20], 8192));
    let folder = layout.folder.to_string_lossy().into_owned();
    let s = Session::spawn(&["--export", &folder, "--key", "PK,SK"], &[], 40, 120);
    s.wait_for("the read under way", |screen| {
        screen.contains("loading… Esc cancels")
    });
    s
}

/// The explorer exited within 5 s of `since`, with the terminal restored.
fn ended_restored(s: &mut Session, since: Instant, what: &str) -> portable_pty::ExitStatus {
    let status = s.wait_exit_within(Duration::from_secs(30));
    let took = since.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "{what}: took {took:?} to exit"
    );
    let raw = s.raw_after_exit();
    let enter = rfind(&raw, ENTER_ALTERNATE_SCREEN).expect("entered the alternate screen");
    let leave = rfind(&raw, LEAVE_ALTERNATE_SCREEN).expect("left the alternate screen");
    assert!(leave > enter, "{what}: the alternate screen was left last");
    assert!(s.cooked(), "{what}: the terminal was left raw");
    status
}

#[test]
fn esc_q_and_sigterm_end_the_explorers_read_of_a_never_ending_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = explorer_loading(dir.path());
    let pressed = Instant::now();
    s.send("\x1b");
    s.wait_for("the read cancelled", |screen| !screen.contains("loading…"));
    let took = pressed.elapsed();
    assert!(took < Duration::from_secs(5), "Esc took {took:?} to cancel");
    let pressed = Instant::now();
    s.send("q");
    let status = ended_restored(&mut s, pressed, "q after Esc");
    assert!(status.success(), "{status:?}");

    // `q` while the file is still being read.
    let dir = tempfile::tempdir().unwrap();
    let mut s = explorer_loading(dir.path());
    let pressed = Instant::now();
    s.send("q");
    let status = ended_restored(&mut s, pressed, "q while loading");
    assert!(status.success(), "{status:?}");

    let dir = tempfile::tempdir().unwrap();
    let mut s = explorer_loading(dir.path());
    let sent = Instant::now();
    s.signal(libc::SIGTERM);
    let status = ended_restored(&mut s, sent, "SIGTERM");
    assert_eq!(status.exit_code(), 128 + libc::SIGTERM as u32, "{status:?}");
}

#[test]
fn over_s3_keys_stay_below_the_exports_prefix_and_a_huge_manifest_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let layout = export(dir.path());
    let id = layout.id.clone();
    for key in [
        format!("exports/AWSDynamoDB/{id}/data/../../../../other/secret.json.gz"),
        "/other/secret.json.gz".to_string(),
        "../other/secret.json.gz".to_string(),
    ] {
        list(&layout, &key, 1);
    }
    let secret = gzip(br#"{"Item":{"PK":{"S":"SECRET"},"SK":{"S":"x"}}}"#);
    let bucket = "dyno-hostile";
    let url = format!("s3://{bucket}/exports/AWSDynamoDB/{id}/");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        moto::upload(bucket, &layout.root, "exports/").await;
        for key in ["other/secret.json.gz", "/other/secret.json.gz"] {
            moto::s3()
                .put_object()
                .bucket(bucket)
                .key(key)
                .body(secret.clone().into())
                .send()
                .await
                .unwrap();
        }
    });
    let endpoint = moto::moto().endpoint.clone();
    let env = [("AWS_ENDPOINT_URL_S3", endpoint.as_str())];
    let out = run_raw(&["scan", "--export", &url, "--key", "PK,SK"], &env);
    let (err, text) = (stderr(&out), stdout(&out));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!text.contains("SECRET"), "{text}");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("is outside the export's folder (it "))
            .count(),
        3,
        "{err}"
    );

    // A manifest over the cap is refused from its length, before its body is read.
    let huge = vec![b' '; (64 << 20) + 1];
    runtime.block_on(async {
        moto::s3()
            .put_object()
            .bucket(bucket)
            .key(format!("exports/AWSDynamoDB/{id}/manifest-files.json"))
            .body(huge.into())
            .send()
            .await
            .unwrap();
    });
    let out = run_raw(&["scan", "--export", &url, "--key", "PK,SK"], &env);
    let err = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("manifest-files.json': it is 67,108,865 bytes, over the 64 MiB"),
        "{err}"
    );
}
