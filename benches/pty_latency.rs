//! Keypress-to-frame latency of the real binary in a pseudo-terminal, while a triage scan
//! streams from DynamoDB Local at full speed, against the same keypress with nothing streaming
//! (same process, same terminal).
//!
//! The key is `?`, which shows or hides the help screen: a change no streamed page can make, so
//! the frame that shows it is the key's own. Each sample is the time from writing the key to
//! the pty until the parsed screen shows the change; it includes the terminal path both ways
//! (pty, the reader thread, the vt100 parser), so it is an upper bound on dynoscope's share.
//!
//! A third phase measures the same key while the explorer streams a scan into a file (`x`,
//! the read to its end).
//!
//! run: cargo bench --bench pty_latency [-- USERS]    (default 10,500 users: about 200,000 items)

// The integration tests' harness; the bench uses its DynamoDB Local and its pty session only.
#[allow(dead_code)]
#[path = "../tests/integration/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::pty::Session;

const HELP: &str = "Show or hide this help";
const SAMPLES: usize = 400;

/// Presses `?` and waits for the help screen to appear or disappear; returns the wait in ms.
fn toggle_help(s: &mut Session) -> f64 {
    let showing = s.screen().contains(HELP);
    let sent = Instant::now();
    s.send("?");
    loop {
        if s.screen().contains(HELP) != showing {
            return sent.elapsed().as_secs_f64() * 1e3;
        }
        assert!(sent.elapsed() < Duration::from_secs(5), "no frame for `?`");
        // Polling is the harness's own CPU, taken from the same two cores: 0.3 ms is enough
        // resolution for a 16 ms target.
        std::thread::sleep(Duration::from_micros(300));
    }
}

/// A read is streaming: the status bar says so, and it stays visible under the help screen
/// (which is as wide as the terminal and covers the scan's progress panel).
fn streaming(s: &Session) -> bool {
    s.screen().contains("loading… Esc cancels")
}

/// Opens the scan launcher and starts a scan with its defaults (no rate limit).
fn start_scan(s: &mut Session) {
    s.keys("S");
    s.wait_text("Parallel scan");
    s.keys("\r");
    s.wait_for("a running scan", |screen| screen.contains("Scan running"));
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64, f64, usize) {
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), v[v.len() - 1], v.len())
}

/// Keypress latencies while scans stream, at a human pace (a pause of 5-25 ms between
/// presses); scans are restarted until enough samples are in, and samples whose frame came
/// after the scan ended are dropped. Returns the samples and the number of scans started.
fn while_streaming(s: &mut Session) -> (Vec<f64>, usize) {
    let mut busy = Vec::new();
    let mut scans = 0;
    while busy.len() < SAMPLES {
        if !streaming(s) {
            if s.screen().contains(HELP) {
                toggle_help(s);
            }
            start_scan(s);
            scans += 1;
        }
        let ms = toggle_help(s);
        if streaming(s) {
            busy.push(ms);
        }
        std::thread::sleep(Duration::from_millis(5 + (busy.len() as u64 * 7) % 20));
    }
    (busy, scans)
}

fn exporting(s: &Session) -> bool {
    s.screen().contains("exporting")
}

/// Starts a scan, then `x`: the read streamed to its end into `path` (the dialog's third
/// scope, the default jsonl format).
fn start_export(s: &mut Session, path: &std::path::Path) {
    start_scan(s);
    s.keys("x");
    s.wait_text(" Export ");
    s.keys("\x1b[C\x1b[C\x1b[B\x1b[B\x15");
    s.keys(&format!("{}\r", path.display()));
    // Needs a table that takes seconds to write (the default 200,000 items): a notice of an
    // earlier export would not do.
    s.wait_for("the export under way", |screen| {
        screen.contains("exporting")
    });
}

/// Keypress latencies while the explorer streams a scan into a file (issue 13: the UI stays
/// responsive while it writes); a new export starts whenever one ends, and its file is removed.
fn while_exporting(s: &mut Session) -> (Vec<f64>, usize) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut busy = Vec::new();
    let mut exports = 0;
    while busy.len() < SAMPLES {
        if !exporting(s) {
            if s.screen().contains(HELP) {
                toggle_help(s);
            }
            for old in std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let _ = std::fs::remove_file(old.path());
            }
            start_export(s, &dir.path().join(format!("export-{exports}.jsonl")));
            exports += 1;
        }
        let ms = toggle_help(s);
        if exporting(s) {
            busy.push(ms);
        }
        std::thread::sleep(Duration::from_millis(5 + (busy.len() as u64 * 7) % 20));
    }
    (busy, exports)
}

/// Sets the niceness of every thread of a process (Linux keeps it per thread).
fn renice(pid: u32, niceness: i32) {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the JVM's threads");
    for task in tasks.flatten() {
        if let Ok(tid) = task.file_name().to_string_lossy().parse::<libc::id_t>() {
            // SAFETY: setpriority takes no pointers.
            unsafe { libc::setpriority(libc::PRIO_PROCESS, tid, niceness) };
        }
    }
}

fn report(label: &str, samples: Vec<f64>, idle_p99: f64) {
    let (p50, p99, max, n) = percentiles(samples);
    println!(
        "| {label} | {n} | {p50:.2} ms | {p99:.2} ms | {max:.2} ms | {:.1} |",
        p99 / idle_p99
    );
}

fn main() {
    let users: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(10_500);
    eprintln!("seeding {users} users into DynamoDB Local…");
    let table = common::seeded_demo(users);
    let mut s = Session::start(&[&table]);
    s.wait_for("the first page", |screen| {
        screen.contains("Collections by PK")
    });

    // DynamoDB Local shares the two cores with the explorer here. First at the same priority
    // as the explorer (the worst case: a busy server on the same small machine), then at a
    // lower one, which is what a server elsewhere amounts to for the explorer's machine (and
    // what `dynoscope demo` does with its own DynamoDB Local).
    eprintln!("sampling while scans stream, DynamoDB Local at equal priority…");
    let (equal, equal_scans) = while_streaming(&mut s);
    renice(
        common::local().pid,
        dynoscope::platform::priority::WORKER_NICENESS,
    );
    eprintln!("…at lower priority…");
    let (lowered, lowered_scans) = while_streaming(&mut s);
    s.wait_for_within("the scan to end", Duration::from_secs(600), |screen| {
        !screen.contains("loading… Esc cancels")
    });
    eprintln!("…while a scan streams into a file…");
    let (exporting, exports) = while_exporting(&mut s);
    s.wait_for_within("the export to end", Duration::from_secs(600), |screen| {
        !screen.contains("exporting")
    });

    // Idle: the scan has ended and nothing else is running.
    s.wait_for_within("the scan to end", Duration::from_secs(600), |screen| {
        !screen.contains("loading… Esc cancels")
    });
    if s.screen().contains(HELP) {
        toggle_help(&mut s);
    }
    let idle: Vec<f64> = (0..SAMPLES)
        .map(|i| {
            let ms = toggle_help(&mut s);
            std::thread::sleep(Duration::from_millis(5 + (i as u64 * 7) % 20));
            ms
        })
        .collect();
    let idle_p99 = percentiles(idle.clone()).1;
    println!(
        "keypress (`?`) to the frame that shows it, real binary in a pty, triage scans of {users} users' demo items ({} + {} scans)",
        equal_scans, lowered_scans
    );
    println!("| while | samples | p50 | p99 | max | p99 / idle p99 |");
    println!("|---|---|---|---|---|---|");
    report(
        "streaming, DynamoDB Local at the explorer's priority",
        equal,
        idle_p99,
    );
    report(
        "streaming, DynamoDB Local at lower priority",
        lowered,
        idle_p99,
    );
    report(
        &format!(
            "streaming a scan into a file (x, {exports} exports), DynamoDB Local at lower priority"
        ),
        exporting,
        idle_p99,
    );
    report("idle", idle, idle_p99);
    s.keys("q");
    s.wait_exit();
}
