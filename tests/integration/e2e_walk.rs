//! Walking the demo's single-table design in the real binary against DynamoDB Local: a user's
//! collection, an order, the order with its lines (`g r`), the status GSI collection (`g r`
//! again), then back and back to the user on the same row; query history across two runs; the
//! region and profile switched without a restart.

use crate::common;

use std::time::Duration;

use common::pty::Session;
use common::*;
use dynoscope::model::demo::demo_data;
use dynoscope::model::item::value::{AttrValue, Item};

const ROWS: u16 = 40;
const COLS: u16 = 120;

fn text(item: &Item, name: &str) -> String {
    item.get(name)
        .and_then(AttrValue::as_s)
        .unwrap_or_default()
        .to_string()
}

/// A user of the seeded data with at least two orders, the second not PENDING (PENDING's GSI
/// key is sharded), and that second order's sort key.
fn walkable_user(users: u32) -> (String, String) {
    let items = demo_data::generate(users);
    let mut orders: Vec<&Item> = items
        .iter()
        .filter(|i| text(i, "SK").starts_with("ORDER#") && text(i, "PK") != "USER#celebrity")
        .collect();
    orders.sort_by_key(|i| (text(i, "PK"), text(i, "SK")));
    for pair in orders.windows(2) {
        let (first, second) = (pair[0], pair[1]);
        let same_user = text(first, "PK") == text(second, "PK");
        let is_first = orders
            .iter()
            .position(|o| text(o, "PK") == text(first, "PK"))
            .is_some_and(|at| std::ptr::eq(orders[at], first));
        if same_user && is_first && text(second, "status") != "PENDING" {
            return (text(second, "PK"), text(second, "SK"));
        }
    }
    panic!("no user with two orders");
}

/// The text of the screen row whose cells in columns `from..to` are shown reversed (the
/// selected row of a focused list), if any.
fn selected_row(s: &Session, from: u16, to: u16) -> Option<String> {
    let parser = s.parser.lock().unwrap();
    let screen = parser.screen();
    (0..s.rows).find_map(|r| {
        let inverse = (from..to).all(|c| screen.cell(r, c).is_some_and(|cell| cell.inverse()));
        inverse.then(|| {
            (from..to)
                .map(|c| {
                    screen
                        .cell(r, c)
                        .map_or(String::new(), |x| x.contents().to_string())
                })
                .collect()
        })
    })
}

/// The screen line of the row `selected_row` reads.
fn selected_line(s: &Session, from: u16, to: u16) -> Option<u16> {
    let parser = s.parser.lock().unwrap();
    let screen = parser.screen();
    (0..s.rows).find(|&r| (from..to).all(|c| screen.cell(r, c).is_some_and(|cell| cell.inverse())))
}

/// The screen line whose text holds `title` (a pane's top border).
fn title_line(s: &Session, title: &str) -> Option<u16> {
    let screen = s.screen();
    screen
        .lines()
        .position(|l| l.contains(title))
        .map(|at| at as u16)
}

/// `Requests (N)` from the request log's title.
fn requests(screen: &str) -> u64 {
    let at = screen.find("Requests (").expect("request log") + "Requests (".len();
    screen[at..]
        .split(')')
        .next()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap()
}

#[test]
fn user_to_order_to_lines_to_status_and_back_twice_to_the_same_row() {
    let users = 30;
    let table = seeded_demo(users);
    let (user, order_sk) = walkable_user(users);
    let order_id = order_sk.rsplit('#').next().unwrap().to_string();
    let mut s = Session::spawn(
        &["--endpoint-url", &local().endpoint, &table],
        &[("XDG_STATE_HOME", "/nonexistent/state")],
        ROWS,
        COLS,
    );
    s.wait_for("the first page", |sc| {
        sc.contains("Collections by PK") && sc.contains("-/1")
    });

    // The scan's fourth collection selected, to come back to at the end (waited for on the
    // screen: a loaded machine may draw the three moves one frame at a time).
    s.keys("jjj");
    s.wait_for("the fourth collection selected", |_| {
        selected_line(&s, 1, 12) == title_line(&s, "Collections by PK").map(|title| title + 4)
    });
    let scan_row = selected_row(&s, 1, 12).expect("the scan's selected collection");

    // The user's collection, by partition key; its second order selected.
    s.keys("p");
    s.wait_text("Query partition key PK (S)");
    s.keys(&format!("{user}\r"));
    let screen = s.wait_text(&format!("Items in {user}"));
    assert!(
        screen.contains("date") && screen.contains("orderId") && !screen.contains("part1"),
        "the order's key parts named from the data: {screen}"
    );
    s.keys("\t");
    s.keys("j");
    s.wait_for("the order selected", |_| {
        selected_row(&s, 40, 70).is_some_and(|r| r.contains(&order_id))
    });
    let selected_before = selected_row(&s, 38, 118).unwrap();
    assert!(selected_before.contains(&order_sk), "{selected_before}");

    // g r: the order's own collection, its header and lines, in two keystrokes.
    s.keys("gr");
    let screen = s.wait_for("the order with its lines", |sc| {
        sc.contains(&format!("Items in ORDER#{order_id}")) && sc.contains("ITEM#1")
    });
    assert!(screen.contains("#META"), "{screen}");
    assert!(
        screen.contains("Query"),
        "a Query in the request log: {screen}"
    );

    // From the order's header, g r again: its status's collection in GSI1.
    s.keys("gr");
    let screen = s.wait_for("the status collection in GSI1", |sc| {
        sc.contains("index GSI1") && sc.contains("Items in STATUS#")
    });
    let logged = requests(&screen);

    // Back to the order, back to the user: the same row, nothing read again.
    s.keys("\u{7f}");
    s.wait_text(&format!("Items in ORDER#{order_id}"));
    s.keys("\u{1b}[1;3D"); // Alt-←
    let screen = s.wait_text(&format!("Items in {user}"));
    let selected_after = selected_row(&s, 38, 118).expect("a selected row");
    assert_eq!(selected_after, selected_before);
    // And back once more, to the opening scan, on the collection it had selected.
    s.keys("\u{7f}");
    s.wait_for("the opening scan", |sc| sc.contains("Scan · 1 page ·"));
    assert_eq!(selected_row(&s, 1, 12).as_deref(), Some(scan_row.as_str()));
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        requests(&s.screen()),
        logged,
        "going back read nothing: {screen}"
    );

    // Enter on a request log row: the request exactly as the SDK sent it.
    s.keys("\t"); // collections → items
    s.keys("\t"); // items → log
    s.keys("\r");
    // The popup's own text: "as sent" is also in the log's border hint, drawn as soon as the
    // log has the focus, before the Enter is read.
    let screen = s.wait_for("the request as sent", |sc| sc.contains("X-Amz-Target:"));
    assert!(
        screen.contains("X-Amz-Target: DynamoDB_20120810.Query")
            && screen.contains("\"KeyConditionExpression\"")
            && screen.contains("\"ReturnConsumedCapacity\": \"INDEXES\""),
        "{screen}"
    );
    s.keys("x");
    s.keys("q");
    assert!(s.wait_exit().success());
}

#[test]
fn query_history_is_kept_across_two_runs_in_the_state_directory() {
    let table = seeded_demo(5);
    let state = tempfile::tempdir().unwrap();
    let state_home = state.path().to_str().unwrap().to_string();
    let env = [("XDG_STATE_HOME", state_home.as_str())];
    let args = ["--endpoint-url", &local().endpoint, &table];

    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    s.wait_for("the first page", |sc| sc.contains("-/1"));
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
    s.keys("q");
    assert!(s.wait_exit().success());

    let file = state.path().join("dynoscope").join("query-history.json");
    let saved = std::fs::read_to_string(&file).expect("history written");
    assert!(
        saved.contains("USER#celebrity") && saved.contains(&table),
        "{saved}"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);

    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    s.wait_for("the first page", |sc| sc.contains("-/1"));
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("\u{1b}[A"); // ↑ recalls the last query of this table at this endpoint
    s.wait_text("partition key     USER#celebrity");
    s.keys("\u{1b}\u{1b}");
    s.keys("q");
    assert!(s.wait_exit().success());

    // history = false: nothing read, nothing written.
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("dynoscope")).unwrap();
    std::fs::write(
        config.path().join("dynoscope").join("config.toml"),
        "history = false\n",
    )
    .unwrap();
    std::fs::remove_file(&file).unwrap();
    let config_home = config.path().to_str().unwrap().to_string();
    let env = [
        ("XDG_STATE_HOME", state_home.as_str()),
        ("XDG_CONFIG_HOME", config_home.as_str()),
    ];
    let mut s = Session::spawn(&args, &env, ROWS, COLS);
    s.wait_for("the first page", |sc| sc.contains("-/1"));
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
    s.keys("q");
    assert!(s.wait_exit().success());
    assert!(!file.exists(), "history = false writes nothing");
}

#[test]
fn region_and_profile_switch_without_a_restart() {
    let table = seeded_demo(3);
    let aws = tempfile::tempdir().unwrap();
    let config = aws.path().join("config");
    std::fs::write(
        &config,
        "[default]\nregion = us-east-1\n[profile other]\nregion = eu-west-1\n",
    )
    .unwrap();
    let config = config.to_str().unwrap().to_string();
    let mut s = Session::spawn(
        &["--endpoint-url", &local().endpoint, &table],
        &[("AWS_CONFIG_FILE", config.as_str())],
        ROWS,
        COLS,
    );
    s.wait_for("the first page", |sc| {
        sc.contains("us-east-1 · profile default") && sc.contains("-/1")
    });
    s.keys("R");
    s.wait_text("Switch region");
    s.keys("ap-southeast-2\r");
    // DynamoDB Local serves every region from one database: the same table opens again.
    let screen = s.wait_for("the table in the new region", |sc| {
        sc.contains("ap-southeast-2 · profile default") && sc.contains("Collections by PK")
    });
    assert!(screen.contains(&table), "{screen}");
    s.keys("A");
    s.wait_text("Switch profile");
    s.keys("oth\r");
    s.wait_for("the other profile, the chosen region kept", |sc| {
        sc.contains("ap-southeast-2 · profile other") && sc.contains("Collections by PK")
    });
    s.keys("q");
    assert!(s.wait_exit().success());
}
