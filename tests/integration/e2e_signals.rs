//! Process hygiene: SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to a running explorer restore the
//! terminal and end it promptly with exit code 128 + the signal, Ctrl-Z (or SIGTSTP) suspends
//! it with the terminal given back and `fg` (SIGCONT) brings it back, and `demo` stops its
//! DynamoDB Local on those signals, whether it is seeding, running the explorer, or waiting in
//! `--no-ui`. (Ctrl-C typed as a key is covered in tests/integration/e2e_pty.rs.)

use crate::common;

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
    // Handled, not killed by the signal: the restore ran, and the exit code says which signal
    // ended it, as a shell reports one.
    assert_eq!(status.exit_code(), 128 + signal as u32, "{status:?}");
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
fn sighup_restores_the_terminal_and_exits_129() {
    signal_ends_the_explorer(libc::SIGHUP);
}

#[test]
fn sigquit_restores_the_terminal_and_exits_131() {
    signal_ends_the_explorer(libc::SIGQUIT);
}

/// The process state letter from /proc (`T`: stopped).
fn process_state(pid: i32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The command name is in parentheses and may hold spaces: the state follows the last ')'.
    stat.rsplit(')')
        .next()
        .and_then(|rest| rest.trim_start().chars().next())
        .unwrap_or('?')
}

fn wait_state(s: &Session, want_stopped: bool) {
    let started = Instant::now();
    while (process_state(s.pid()) == 'T') != want_stopped {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "process state {} (wanted stopped: {want_stopped}); screen:\n{}",
            process_state(s.pid()),
            s.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Stopped with the terminal given back, then continued: the UI is drawn again and answers.
fn suspend_and_resume(stop: impl Fn(&mut Session)) {
    let table = seeded_demo(3);
    let mut s = explorer_on(&table);
    stop(&mut s);
    wait_state(&s, true);
    let raw = s.raw_after_exit();
    let leave = rfind_bytes(&raw, LEAVE_ALTERNATE_SCREEN).expect("left the alternate screen");
    let enter = rfind_bytes(&raw, b"\x1b[?1049h").expect("entered it first");
    assert!(
        leave > enter,
        "the terminal was not given back before stopping"
    );
    {
        let parser = s.parser.lock().unwrap();
        assert!(!parser.screen().alternate_screen());
        assert!(!parser.screen().hide_cursor(), "cursor still hidden");
    }
    assert!(s.cooked(), "raw mode left on while stopped");

    // `fg`: the shell sends SIGCONT.
    s.signal(libc::SIGCONT);
    wait_state(&s, false);
    s.wait_for("the explorer drawn again", |screen| {
        screen.contains("Collections by PK")
    });
    assert!(s.parser.lock().unwrap().screen().alternate_screen());
    let raw = s.raw();
    assert!(
        rfind_bytes(&raw, b"\x1b[?1049h").is_some_and(|at| at > leave),
        "the alternate screen was not entered again"
    );
    assert!(!s.cooked(), "raw mode is back");
    s.keys("?");
    // The help scrolls now, so it says which keys close it.
    s.wait_text("Keys · any other key closes");
    s.keys("q"); // closes the help
    s.keys("q");
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
}

#[test]
fn ctrl_z_suspends_the_explorer_and_sigcont_brings_it_back() {
    suspend_and_resume(|s| s.send("\u{1a}"));
}

#[test]
fn sigtstp_suspends_the_explorer_and_sigcont_brings_it_back() {
    suspend_and_resume(|s| s.signal(libc::SIGTSTP));
}

#[test]
fn sigterm_while_a_scan_streams_exits_promptly() {
    // A triage scan rate-limited to 1 RCU/s is still running when the signal arrives (a plain
    // load-all of a small table can finish before the screen is read).
    let table = shared_demo(200).to_string();
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

fn demo_stops_dynamodb_local_in_the_explorer(signal: i32, name: &str) {
    let _one_jvm = common::demo_jvm();
    let mut s = Session::spawn(&["demo", "--users", "10"], &[], 40, 120);
    s.wait_for("the demo table", |s| {
        s.contains("dynoscope · app") && s.contains("-/1")
    });
    let port = demo_port(&s);
    assert!(port_open(port));
    s.signal(signal);
    let status = s.wait_exit_within(Duration::from_secs(10));
    assert_local_stops(port);
    assert_eq!(status.exit_code(), 128 + signal as u32, "128 + {name}");
    let raw = s.raw_after_exit();
    assert_restored(&s, &raw);
    assert!(
        String::from_utf8_lossy(&raw)
            .contains(&format!("interrupted by {name}; DynamoDB Local stopped")),
        "{:?}",
        String::from_utf8_lossy(&raw[raw.len().saturating_sub(300)..])
    );
}

#[test]
fn demo_stops_dynamodb_local_on_sigterm_in_the_explorer() {
    demo_stops_dynamodb_local_in_the_explorer(libc::SIGTERM, "SIGTERM");
}

#[test]
fn demo_stops_dynamodb_local_on_sighup_in_the_explorer() {
    demo_stops_dynamodb_local_in_the_explorer(libc::SIGHUP, "SIGHUP");
}

#[test]
fn demo_stops_dynamodb_local_on_sigquit_in_the_explorer() {
    demo_stops_dynamodb_local_in_the_explorer(libc::SIGQUIT, "SIGQUIT");
}

#[test]
fn demo_stops_dynamodb_local_on_a_signal_while_seeding() {
    let _one_jvm = common::demo_jvm();
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

/// Every file under `dir`, as paths relative to it.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            let sub = files_under(&path);
            found.extend(
                sub.into_iter()
                    .map(|f| format!("{}/{f}", entry.file_name().to_string_lossy())),
            );
        } else {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found
}

/// The demo stops its JVM on these signals, and takes its temporary files with it: the JVM
/// writes out its SQLite library into the demo's own folder under TMPDIR (by default a
/// 900 KB file in /tmp, which a killed JVM left behind on every demo).
#[test]
fn demo_no_ui_stops_dynamodb_local_on_sigterm_and_sighup() {
    let _one_jvm = common::demo_jvm();
    for signal in [libc::SIGTERM, libc::SIGHUP] {
        let tmp = tempfile::tempdir().unwrap();
        let tmpdir = tmp.path().to_str().unwrap();
        let mut s = Session::spawn(
            &["demo", "--users", "2", "--no-ui"],
            &[("TMPDIR", tmpdir)],
            40,
            120,
        );
        wait_raw(&s, "press Ctrl-C to stop DynamoDB Local");
        let during = files_under(tmp.path());
        assert!(
            during.len() == 1
                && during[0].starts_with("dynoscope-demo-")
                && during[0].ends_with("libsqlite4java.so"),
            "the JVM's SQLite library in the demo's folder: {during:?}"
        );
        let port = demo_port(&s);
        assert!(port_open(port));
        s.signal(signal);
        let status = s.wait_exit_within(Duration::from_secs(10));
        assert_local_stops(port);
        assert!(status.success(), "{signal}: {status:?}");
        assert_eq!(
            files_under(tmp.path()),
            Vec::<String>::new(),
            "left in TMPDIR"
        );
    }
}

/// SIGKILL runs no clean-up in dynoscope: the kernel takes the JVM down with it
/// (PR_SET_PDEATHSIG), so no DynamoDB Local is left holding its port and memory. Run without
/// a terminal: in a pty the session's hang-up would end the JVM anyway.
#[test]
fn demo_sigkilled_takes_dynamodb_local_down() {
    let _one_jvm = common::demo_jvm();
    use std::io::{BufRead, BufReader};
    // A SIGKILLed demo cannot remove its temporary folder: it is left in this one.
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(bin());
    aws_env(&mut cmd)
        .env("TMPDIR", tmp.path())
        .args(["demo", "--users", "2", "--no-ui"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut port = None;
    for line in lines.by_ref() {
        let line = line.unwrap();
        port = port.or_else(|| port_after(&line, UP));
        if line.contains("press Ctrl-C to stop DynamoDB Local") {
            break;
        }
    }
    let port = port.expect("demo names its endpoint");
    assert!(port_open(port));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_local_stops(port);
}

/// A `--port` another program holds (here a proxy to the shared DynamoDB Local, which answers
/// ListTables as a DynamoDB Local would) stops the demo with one line naming the port, and the
/// readiness polls are all that program sees: the demo loads its data only into its own JVM.
/// Without `--port`, the same check makes the demo start again on another free port.
#[test]
fn demo_on_a_port_another_program_holds_stops_and_loads_nothing_there() {
    use common::fault_proxy::{FaultConfig, FaultProxy};
    let _one_jvm = common::demo_jvm();
    let squatter = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let port = squatter.url.rsplit(':').next().unwrap().to_string();
    let out = run_raw(&["demo", "--users", "2", "--no-ui", "--port", &port], &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("another program listens on port {port}")),
        "{err}"
    );
    let operations = squatter.operations();
    assert!(operations.contains_key("ListTables"), "{operations:?}");
    assert_eq!(operations.len(), 1, "only readiness polls: {operations:?}");
}
