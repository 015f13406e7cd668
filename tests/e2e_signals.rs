//! Process hygiene: SIGTERM and SIGINT sent with `kill` to a running explorer restore the
//! terminal and end it promptly, and `demo` stops its DynamoDB Local on either signal, whether
//! it is seeding, running the explorer, or waiting in `--no-ui`. (Ctrl-C typed as a key is
//! covered in tests/e2e_pty.rs.)

mod common;

use std::time::{Duration, Instant};

use common::pty::*;
use common::*;

const LEAVE_ALTERNATE_SCREEN: &[u8] = b"\x1b[?1049l";
const SHOW_CURSOR: &[u8] = b"\x1b[?25h";

fn rfind_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// The output ends by leaving the alternate screen and showing the cursor (with mouse capture
/// and bracketed paste off), and nothing is drawn after that.
fn assert_restored(s: &Session, raw: &[u8]) {
    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(200)..]).into_owned();
    let leave = rfind_bytes(raw, LEAVE_ALTERNATE_SCREEN).expect("left the alternate screen");
    let enter = rfind_bytes(raw, b"\x1b[?1049h").expect("entered the alternate screen");
    assert!(leave > enter, "left after entering: {tail:?}");
    let show = rfind_bytes(raw, SHOW_CURSOR).expect("showed the cursor");
    assert!(show > leave, "cursor shown after leaving: {tail:?}");
    let after = &raw[show + SHOW_CURSOR.len()..];
    // Only a message line may follow (the demo's "interrupted" line), never drawing.
    assert!(
        !after.contains(&0x1b),
        "escape sequences after the restore: {:?}",
        String::from_utf8_lossy(after)
    );
    for off in [&b"\x1b[?1000l"[..], b"\x1b[?2004l"] {
        assert!(
            rfind_bytes(raw, off).is_some_and(|at| at > enter),
            "{:?} not sent: {tail:?}",
            String::from_utf8_lossy(off)
        );
    }
    let parser = s.parser.lock().unwrap();
    let screen = parser.screen();
    assert!(!screen.alternate_screen(), "still on the alternate screen");
    assert!(!screen.hide_cursor(), "cursor still hidden");
    assert!(!screen.bracketed_paste(), "bracketed paste still on");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture still on"
    );
    drop(parser);
    assert!(s.cooked(), "the terminal was left in raw mode");
}

fn explorer_on(table: &str) -> Session {
    let s = Session::start(&[table]);
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    assert!(!s.cooked(), "the explorer runs in raw mode");
    s
}

fn signal_ends_the_explorer(signal: i32) {
    let table = seeded_demo(3);
    let mut s = explorer_on(&table);
    let sent = Instant::now();
    s.signal(signal);
    let status = s.wait_exit_within(Duration::from_secs(5));
    let took = sent.elapsed();
    assert!(took < Duration::from_secs(3), "took {took:?} to exit");
    // Handled, not killed by the signal: the restore ran and the exit code is the explorer's.
    assert!(status.success(), "exit status {status:?}");
    let raw = s.raw_after_exit();
    assert_restored(&s, &raw);
}

#[test]
fn sigterm_restores_the_terminal_and_exits() {
    signal_ends_the_explorer(libc::SIGTERM);
}

#[test]
fn sigint_restores_the_terminal_and_exits() {
    signal_ends_the_explorer(libc::SIGINT);
}

#[test]
fn sigterm_while_a_scan_streams_exits_promptly() {
    // A triage scan rate-limited to 1 RCU/s is still running when the signal arrives (a plain
    // load-all of a small table can finish before the screen is read).
    let table = seeded_demo(100);
    let mut s = Session::start(&[&table]);
    s.wait_for("the first page", |s| s.contains("Collections by PK"));
    s.keys("S");
    s.wait_text("Parallel scan");
    for _ in 0..6 {
        s.keys("\t"); // to "RCU per second"
    }
    s.keys("1");
    s.keys("\r");
    s.wait_for("a running read", |s| s.contains("Scan running"));
    let sent = Instant::now();
    s.signal(libc::SIGTERM);
    s.wait_exit_within(Duration::from_secs(5));
    assert!(
        sent.elapsed() < Duration::from_secs(3),
        "{:?}",
        sent.elapsed()
    );
    let raw = s.raw_after_exit();
    assert_restored(&s, &raw);
}

/// The demo's DynamoDB Local JVM, found by its port, so a failing test can still stop it.
fn local_jvm_pid(port: u16) -> Option<i32> {
    let needle = format!("-port\0{port}\0");
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline);
        if cmdline.contains("DynamoDBLocal.jar") && cmdline.contains(&needle) {
            return Some(pid);
        }
    }
    None
}

/// Asserts DynamoDB Local on `port` stops within 10 s; if it does not, kills that JVM (by pid)
/// so the failure leaks nothing.
fn assert_local_stops(port: u16) {
    let started = Instant::now();
    while port_open(port) || local_jvm_pid(port).is_some() {
        if started.elapsed() > Duration::from_secs(10) {
            if let Some(pid) = local_jvm_pid(port) {
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            panic!("DynamoDB Local on port {port} still running 10 s after the signal");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

const UP: &str = "DynamoDB Local is up at ";

fn demo_port(s: &Session) -> u16 {
    let raw = String::from_utf8_lossy(&s.raw()).into_owned();
    port_after(&raw, UP).expect("demo names its endpoint")
}

fn wait_raw(s: &Session, what: &str) {
    let started = Instant::now();
    while !String::from_utf8_lossy(&s.raw()).contains(what) {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no {what:?} in {:?}",
            String::from_utf8_lossy(&s.raw())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn demo_stops_dynamodb_local_on_sigterm_in_the_explorer() {
    let mut s = Session::spawn(&["demo", "--users", "10"], &[], 40, 120);
    s.wait_for("the demo table", |s| {
        s.contains("dynoscope · app") && s.contains("-/1")
    });
    let port = demo_port(&s);
    assert!(port_open(port));
    s.signal(libc::SIGTERM);
    let status = s.wait_exit_within(Duration::from_secs(10));
    assert_local_stops(port);
    assert_eq!(status.exit_code(), 143, "128 + SIGTERM");
    let raw = s.raw_after_exit();
    assert_restored(&s, &raw);
    assert!(
        String::from_utf8_lossy(&raw).contains("interrupted by SIGTERM; DynamoDB Local stopped"),
        "{:?}",
        String::from_utf8_lossy(&raw[raw.len().saturating_sub(300)..])
    );
}

#[test]
fn demo_stops_dynamodb_local_on_a_signal_while_seeding() {
    for (signal, code) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        // Enough users that seeding is still running when the signal arrives.
        let mut s = Session::spawn(&["demo", "--users", "3000"], &[], 40, 120);
        wait_raw(&s, UP);
        let port = demo_port(&s);
        s.signal(signal);
        let status = s.wait_exit_within(Duration::from_secs(10));
        assert_local_stops(port);
        let out = String::from_utf8_lossy(&s.raw_after_exit()).into_owned();
        assert!(
            !out.contains("loaded "),
            "seeding finished before the signal: {out}"
        );
        assert_eq!(status.exit_code(), code, "{out}");
    }
}

#[test]
fn demo_no_ui_stops_dynamodb_local_on_sigterm() {
    let mut s = Session::spawn(&["demo", "--users", "2", "--no-ui"], &[], 40, 120);
    wait_raw(&s, "press Ctrl-C to stop DynamoDB Local");
    let port = demo_port(&s);
    assert!(port_open(port));
    s.signal(libc::SIGTERM);
    let status = s.wait_exit_within(Duration::from_secs(10));
    assert_local_stops(port);
    assert!(status.success(), "{status:?}");
}
