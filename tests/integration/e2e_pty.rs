//! End to end: the real binary in a pseudo-terminal against DynamoDB Local with the demo data,
//! driven by keystrokes and read back through a vt100 parser.

use crate::common;

use std::time::{Duration, Instant};

use common::pty::Session;
use common::*;

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// The session total from the request log's title, e.g. `RCU 8.5`.
fn session_rcu(screen: &str) -> f64 {
    let at = screen.find("· RCU ").expect("request log title") + "· RCU ".len();
    screen[at..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn browse_the_demo_table_and_quit_cleanly() {
    let table = shared_demo(30).to_string();
    let mut s = Session::start(&[&table]);
    let screen = s.wait_for("a first page with capacity", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    assert!(session_rcu(&screen) > 0.0, "{screen}");
    assert!(
        screen.contains("USER") && screen.contains("ORDER"),
        "decoded kinds: {screen}"
    );

    // Query the celebrity's item collection by partition key.
    s.keys("p");
    s.wait_text("Query partition key PK (S)");
    s.keys("USER#celebrity\r");
    let screen = s.wait_text("Items in USER#celebrity");
    assert!(
        screen.contains("Query"),
        "a Query row in the request log: {screen}"
    );
    // The orders' key parts as columns, named after the attributes holding the same values.
    assert!(
        screen.contains("date") && screen.contains("orderId") && !screen.contains("part1"),
        "decoded key parts as columns: {screen}"
    );

    // Open the first item: pretty JSON with its size.
    s.keys("\t");
    s.keys("\r");
    let screen = s.wait_text("\"PK\": \"USER#celebrity\"");
    assert!(screen.contains("% of 400 KB"), "{screen}");
    s.keys("t");
    s.wait_text("{\"S\": \"USER#celebrity\"}");
    // `y` puts the item on the clipboard with OSC 52, as plain JSON.
    s.keys("y");
    s.wait_text("copied the item as JSON");
    {
        use base64::Engine as _;
        let parser = s.parser.lock().unwrap();
        let copied = parser
            .callbacks()
            .clipboard
            .last()
            .cloned()
            .expect("an OSC 52 write");
        let json = base64::engine::general_purpose::STANDARD
            .decode(copied)
            .expect("base64");
        let item: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(item["PK"], "USER#celebrity");
    }

    // Help is generated from the keymap.
    s.keys("?");
    s.wait_text("Keep loading pages until the end");
    s.keys("x");

    s.keys("q");
    let status = s.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    std::thread::sleep(Duration::from_millis(200));
    let raw = s.raw_after_exit();
    let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(200)..]).into_owned();
    assert!(
        tail.contains("\u{1b}[?1049l"),
        "alternate screen left at exit: {tail:?}"
    );
}

#[test]
fn table_picker_lists_tables_and_opens_one() {
    let table = seeded_demo(2);
    let mut s = Session::start(&[]);
    s.wait_text("Tables (");
    s.keys(&table);
    let screen = s.wait_text("PAY_PER_REQUEST");
    assert!(
        screen.contains("GSI1") && screen.contains("LSI1"),
        "{screen}"
    );
    s.keys("\r");
    s.wait_for("the table view", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    // Ctrl-C quits from anywhere and restores the terminal.
    s.keys("\u{3}");
    assert!(s.wait_exit().success());
}

#[test]
fn unknown_table_shows_the_error_and_stays_responsive() {
    let mut s = Session::start(&["no-such-table"]);
    let screen = s.wait_text("not found");
    assert!(screen.contains("'no-such-table'"), "{screen}");
    s.keys("T");
    s.wait_text("Tables (");
    s.keys("\u{1b}");
    assert!(s.wait_exit().success());
}

#[test]
fn demo_seeds_opens_the_explorer_and_stops_dynamodb_local_on_quit() {
    let _one_jvm = common::demo_jvm();
    let mut s = Session::spawn(&["demo", "--users", "10"], &[], ROWS, COLS);
    s.wait_for("the demo table", |s| {
        s.contains("dynoscope · app") && s.contains("-/1")
    });
    let raw = String::from_utf8_lossy(&s.raw()).into_owned();
    let at = raw
        .find("DynamoDB Local is up at http://127.0.0.1:")
        .expect("demo names its endpoint")
        + "DynamoDB Local is up at http://127.0.0.1:".len();
    let port: u16 = raw[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
    s.keys("q");
    assert!(s.wait_exit().success());
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "DynamoDB Local still running on {port}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn build_a_begins_with_query_by_accepting_completions() {
    let table = shared_demo(30).to_string();
    let mut s = Session::start(&[&table]);
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    // Load the celebrity's collection, so its keys are there to complete from.
    s.keys("p");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("USER#cel");
    s.wait_text("Tab/→ accepts");
    s.keys("\t"); // accept USER#celebrity
    s.wait_text("USER#celebrity ");
    s.keys("\t"); // operator
    s.keys("\u{1b}[D"); // ← : (none) wraps to begins_with
    s.wait_text("‹ begins_with ›");
    s.keys("\t"); // sort key
    s.keys("OR");
    s.wait_text("ORDER#20");
    // One Tab goes as far as every order key agrees: past `ORDER#`, into the year.
    s.keys("\t");
    let screen = s.wait_for("the shared prefix accepted", |s| {
        s.contains("sort key          ORDER#202")
    });
    let line = screen
        .lines()
        .find(|l| l.contains("sort key          ORDER#202"))
        .unwrap();
    let at = line.find("ORDER#202").unwrap();
    let prefix: String = line[at..]
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '█' && *c != '│')
        .collect();
    // The next level is offered, and Enter runs the prefix as typed, not a completion.
    assert!(screen.contains("Tab/→ accepts"), "{screen}");
    s.keys("\r"); // run
    s.wait_for("the query's page", |s| {
        !s.contains("EXPLAIN") && s.contains("Query · 1 page ·") && s.contains("ORDER  ORDER#")
    });
    // Read again once the output is quiet: a screen read while a frame is half written showed
    // the previous query's status line above the new query's empty panes.
    let screen = s.settle(Duration::from_millis(300), Duration::from_secs(5));
    let rows: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains("ORDER  ORDER#"))
        .collect();
    assert!(!rows.is_empty(), "{screen}");
    for row in rows {
        assert!(
            row.contains(&prefix),
            "every item begins with {prefix}: {row}"
        );
    }
    s.keys("q");
    assert!(s.wait_exit().success());
}

/// The RCU the scan panel reports, and its budget: `RCU 10.5 / budget 10`.
fn scan_panel_rcu(screen: &str) -> (f64, f64) {
    let at = screen
        .find("Scan stopped at the budget · RCU ")
        .expect("scan panel")
        + "Scan stopped at the budget · RCU ".len();
    let mut words = screen[at..].split_whitespace();
    let spent = words.next().unwrap().parse().unwrap();
    assert_eq!(words.next(), Some("/"));
    assert_eq!(words.next(), Some("budget"));
    (spent, words.next().unwrap().parse().unwrap())
}

#[test]
fn a_triage_scan_stops_at_its_budget_and_resumes_only_with_a_new_one() {
    // The issue's reproduction at this table's size: a full scan costs about 37 RCU.
    let table = shared_demo(200).to_string();
    let mut s = Session::start(&[&table]);
    s.wait_text("Collections by PK");
    s.keys("S");
    s.wait_text("Parallel scan");
    s.keys("\x7f4"); // segments: 4
    s.keys("\t\t\t\t\t10"); // max RCU: 10
    s.keys("\r");
    // The panel and the status line come from the same stop; wait for both in one screen.
    let screen = s.wait_for("the first stop", |sc| {
        sc.contains("Scan stopped at the budget") && sc.contains("stopped at the capacity budget")
    });
    let (spent, budget) = scan_panel_rcu(&screen);
    assert_eq!(budget, 10.0);
    // Pages past a small budget are sized to what is left; the whole table is 37.
    assert!((10.0..15.0).contains(&spent), "{screen}");
    assert!(
        screen.contains("stopped at the capacity budget"),
        "{screen}"
    );
    // Nothing more is read until a new budget is given.
    let before = session_rcu(&s.settle(Duration::from_millis(700), Duration::from_secs(3)));
    s.keys("n");
    s.wait_text("Resume the scan: max RCU for the rest");
    s.keys("\x7f\x7f5\r");
    // The new budget is what was spent plus 5: the first stop's "/ budget 10" must not pass.
    let screen = s.wait_for("the second stop", |sc| {
        sc.contains("Scan stopped at the budget") && scan_panel_rcu(sc).1 > 10.0
    });
    let (spent, budget) = scan_panel_rcu(&screen);
    assert!(budget > 14.9 && budget < 15.1 + 10.0, "{screen}");
    assert!(spent >= 15.0 - 0.01 && spent > before, "{screen}");
    s.keys("q");
    s.wait_exit();
}

#[test]
fn frames_are_drawn_whole_and_the_harness_shows_only_whole_frames() {
    let table = seeded_demo(20);
    let mut s = Session::start(&[&table]);
    s.wait_text("Collections by PK");
    s.keys("q");
    assert!(s.wait_exit().success());
    let raw = s.raw();
    let count = |needle: &[u8]| raw.windows(needle.len()).filter(|w| *w == needle).count();
    let (begun, ended) = (count(b"\x1b[?2026h"), count(b"\x1b[?2026l"));
    assert!(begun >= 1, "every frame is a synchronized update");
    assert_eq!(begun, ended, "every frame begun is ended");

    // The gate holds a begun frame, even one whose begin is split across reads.
    let mut gate = common::pty::FrameGate::default();
    assert_eq!(gate.pass(b"old\x1b[?20"), b"old");
    assert_eq!(gate.pass(b"26hnew top"), b"");
    assert_eq!(
        gate.pass(b" new bottom\x1b[?2026l"),
        b"\x1b[?2026hnew top new bottom\x1b[?2026l"
    );
    assert_eq!(gate.pass(b"plain"), b"plain");
    assert_eq!(gate.pass(b"\x1b[?2026hcut"), b"");
    assert_eq!(gate.rest(), b"\x1b[?2026hcut");
}
