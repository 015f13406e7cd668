//! Issue 53 in the real binary against DynamoDB Local: a column hidden with `C` stays hidden
//! after a restart with the same state folder, `Y` copies what is shown as a Markdown table
//! (OSC 52) and a request-log row as an aws-cli command that boto3 replays to the same items,
//! and a damaged choices file is one warning line, not a failed start.

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

/// The screen's text after `marker`.
fn screen_after(s: &Session, marker: &str) -> String {
    let screen = s.screen();
    let at = screen.find(marker).expect(marker) + marker.len();
    screen[at..].to_string()
}

/// Sends the request an `aws dynamodb …` command line describes through boto3 (the words a
/// shell would hand aws-cli, its `--cli-input-json` body and `--endpoint-url`) and returns
/// the `Count` DynamoDB answered.
fn replayed_count(command: &str) -> usize {
    let script = r#"
import json, shlex, sys, boto3
argv = shlex.split(sys.stdin.read())
assert argv[:2] == ["aws", "dynamodb"], argv
options, i = {}, 3
while i < len(argv):
    if argv[i] == "--no-paginate":
        i += 1
    else:
        options[argv[i]] = argv[i + 1]
        i += 2
client = boto3.client("dynamodb", endpoint_url=options["--endpoint-url"], region_name="us-east-1",
                      aws_access_key_id="dummy", aws_secret_access_key="dummy")
answer = getattr(client, argv[2].replace("-", "_"))(**json.loads(options["--cli-input-json"]))
print(answer["Count"])
"#;
    use std::io::Write;
    let mut child = common::pyfork::python()
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(command.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
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
    // In the request log (Shift-Tab from the collections, where a new read puts the focus),
    // `Y` copies the Query's row as the aws-cli command that sends it again; boto3, given
    // what that command line hands aws-cli, gets the same items back.
    s.keys("\u{1b}[Z");
    s.keys("Y");
    s.wait_text("as its aws-cli command");
    let command = clipboard(&s);
    assert!(
        command.starts_with("aws dynamodb query --cli-input-json '")
            && command.contains("--no-paginate --endpoint-url http://"),
        "{command}"
    );
    let listed: usize = {
        let at = screen_after(&s, "Items in USER#celebrity (");
        at.split(')')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap()
    };
    assert_eq!(replayed_count(&command), listed, "{command}");
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
