//! Issue 53 in the real binary against DynamoDB Local: a column hidden with `C` stays hidden
//! after a restart with the same state folder, `Y` copies what is shown as a Markdown table
//! (OSC 52), and a damaged choices file is one warning line, not a failed start.

use crate::common;

use common::pty::Session;
use common::*;

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// The user's own collection, read with a Query: the same items in every run.
fn open_celebrity(s: &mut Session) {
    s.wait_for("the first page", |sc| sc.contains("-/1"));
    s.keys("p");
    s.wait_text("Query partition key PK (S)");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
}

/// The attribute on the chooser's highlighted row (`▶ [x] name   count`).
fn highlighted(screen: &str) -> String {
    let line = screen
        .lines()
        .find(|l| l.contains("▶ [x] "))
        .unwrap_or_else(|| panic!("a shown attribute under the cursor:\n{screen}"));
    let at = line.find("▶ [x] ").unwrap() + "▶ [x] ".len();
    line[at..].split_whitespace().next().unwrap().to_string()
}

/// The last text put on the clipboard with OSC 52.
fn clipboard(s: &Session) -> String {
    use base64::Engine as _;
    let parser = s.parser.lock().unwrap();
    let copied = parser
        .callbacks()
        .clipboard
        .last()
        .cloned()
        .expect("an OSC 52 write");
    String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(copied)
            .expect("base64"),
    )
    .unwrap()
}

#[test]
fn a_column_hidden_with_c_stays_hidden_after_a_restart() {
    let table = shared_demo(3).to_string();
    let state = tempfile::tempdir().unwrap();
    let state_home = state.path().to_str().unwrap().to_string();
    let env = [("XDG_STATE_HOME", state_home.as_str())];
    let args = ["--endpoint-url", &local().endpoint, &table];

    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    open_celebrity(&mut s);
    s.keys("C");
    let screen = s.wait_text("automatic columns (forget this choice)");
    let hidden = highlighted(&screen);
    s.keys(" ");
    s.wait_text("▶ [ ] ");
    s.keys("\r");
    s.wait_text("1 hidden (C)");
    s.keys("q");
    assert!(s.wait_exit().success());

    let file = state.path().join("dynoscope").join("columns.json");
    let saved = std::fs::read_to_string(&file).expect("the choice written");
    assert!(
        saved.contains(&format!("\"{hidden}\"")) && saved.contains(&table),
        "{saved}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);

    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    open_celebrity(&mut s);
    s.wait_text("1 hidden (C)");
    // `Y`: the items listed, as a Markdown table of the columns shown: not the hidden one.
    s.keys("Y");
    s.wait_text("as a Markdown table of");
    let markdown = clipboard(&s);
    let header = markdown.lines().next().unwrap();
    assert!(header.starts_with("| kind | PK | SK |"), "{markdown}");
    let cells: Vec<&str> = header
        .split(" | ")
        .map(|c| c.trim_matches('|').trim())
        .collect();
    assert!(!cells.contains(&hidden.as_str()), "{hidden} in {header}");
    assert!(markdown.contains("| USER#celebrity |"), "{markdown}");
    // The chooser lists it hidden; its last entry brings the automatic columns back.
    s.keys("C");
    s.wait_text(&format!("[ ] {hidden}"));
    s.keys("G\r");
    s.wait_text("automatic again");
    s.keys("q");
    assert!(s.wait_exit().success());
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(!saved.contains(&table), "the choice forgotten: {saved}");
}

#[test]
fn a_damaged_choices_file_is_one_warning_line_and_the_explorer_starts() {
    let table = shared_demo(3).to_string();
    let state = tempfile::tempdir().unwrap();
    let dir = state.path().join("dynoscope");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("columns.json"), "{\"version\": 1, \"choices\": [").unwrap();
    let state_home = state.path().to_str().unwrap().to_string();
    let env = [("XDG_STATE_HOME", state_home.as_str())];
    let args = ["--endpoint-url", &local().endpoint, &table];

    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    // One line in the status bar, with what happened first and the file last (a status line
    // too narrow for all of it shortens the middle).
    let screen = s.wait_for("the warning", |sc| {
        sc.lines()
            .any(|l| l.contains("column choices not r") && l.contains("columns.json'"))
    });
    assert_eq!(
        screen.matches("columns.json").count(),
        1,
        "one warning line: {screen}"
    );
    open_celebrity(&mut s);
    s.keys("q");
    assert!(s.wait_exit().success());
}
