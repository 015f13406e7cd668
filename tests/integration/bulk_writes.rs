//! `partiql 'UPDATE/DELETE … WHERE …'` and `undo` on DynamoDB Local, checked against boto3's
//! view of the table (bulk_writes/boto3_state.py computes each expected state from the dump
//! taken before the statement): exactly the expected items change, a dry run sends no write,
//! the write guard holds, a killed run resumes writing each item once, a concurrent writer's
//! change survives as a conflict, throttled writes lose nothing, undo restores the table.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::fault_proxy::{Fault, FaultConfig, FaultProxy};
use common::*;

mod contract;

/// boto3: setup, dump, touch, add, put or expect (see the script).
pub(crate) fn boto3(endpoint: &str, table: &str, args: &[&str]) -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/bulk_writes/boto3_state.py");
    let out = common::pyfork::python()
        .arg(script)
        .args([endpoint, table])
        .args(args)
        .env_remove("AWS_PROFILE")
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "boto3 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn expect(endpoint: &str, table: &str, scenario: &str, before: &str, dir: &Path) -> String {
    let file = dir.join(format!("before-{scenario}.jsonl"));
    std::fs::write(&file, before).unwrap();
    boto3(
        endpoint,
        table,
        &["expect", scenario, file.to_str().unwrap()],
    )
}

fn command(endpoint: &str, state: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env("XDG_STATE_HOME", state)
        .arg("--endpoint-url")
        .arg(endpoint)
        .args(args)
        .stdin(Stdio::null());
    cmd
}

pub(crate) fn dyno(endpoint: &str, state: &Path, args: &[&str]) -> Output {
    command(endpoint, state, args)
        .output()
        .expect("run dynoscope")
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn writes(proxy: &FaultProxy) -> usize {
    [
        "UpdateItem",
        "DeleteItem",
        "PutItem",
        "TransactWriteItems",
        "BatchWriteItem",
        "ExecuteStatement",
    ]
    .iter()
    .map(|op| proxy.requests(op))
    .sum()
}

/// The items of a dump whose partition key is `pk`, replaced by those of `from`.
fn with_partition_from(dump: &str, from: &str, pk: &str) -> String {
    let mark = format!("\"PK\": {{\"S\": \"{pk}\"}}");
    let mut lines: Vec<&str> = dump.lines().filter(|l| !l.contains(&mark)).collect();
    lines.extend(from.lines().filter(|l| l.contains(&mark)));
    lines.sort_by_key(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        (
            v["PK"]["S"].as_str().unwrap().to_string(),
            v["SK"]["S"].as_str().unwrap().to_string(),
        )
    });
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn update_and_delete_change_exactly_the_expected_items_and_undo_restores_them() {
    let endpoint = &local().endpoint;
    let table = table_name("bulk");
    boto3(endpoint, &table, &["setup"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let initial = boto3(endpoint, &table, &["dump"]);

    // The dry run: the items, their diffs and the cost; nothing written.
    let update = format!(
        "UPDATE \"{table}\" SET status = 'DONE', total = 12.5 REMOVE note WHERE PK = 'P#1' AND status = 'PENDING'"
    );
    let out = dyno(&proxy.url, &state, &["partiql", &update]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(
        shown.contains("matches 3 items (Query); 3 would be written"),
        "{shown}"
    );
    assert!(
        shown.contains(r#"status: {"S":"PENDING"} → {"S":"DONE"}"#),
        "{shown}"
    );
    assert!(
        shown.contains(r#"total: {"S":"12.5"} → {"N":"12.5"}"#),
        "{shown}"
    );
    assert!(
        shown.contains(r#"note: {"S":"note 1/0"} → (absent)"#),
        "{shown}"
    );
    // S#000 is in GSI1 (ALL): its entry changes too.
    assert!(shown.contains("GSI1 1"), "{shown}");
    let out = dyno(
        &proxy.url,
        &state,
        &["--allow-writes", "partiql", &update, "--output", "json"],
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (json["matched"].as_u64(), json["to_write"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(json["wcu"]["total"].as_f64(), Some(4.0), "{json}");
    assert_eq!(writes(&proxy), 0, "a dry run sends no write");
    assert_eq!(boto3(endpoint, &table, &["dump"]), initial);

    // UPDATE over one partition.
    let j1 = dir.path().join("j1.jsonl");
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &update,
            "--yes",
            "--journal",
            j1.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("3 written, 0 unchanged, 0 conflicts"),
        "{}",
        text(&out.stderr)
    );
    let after_update = boto3(endpoint, &table, &["dump"]);
    assert_eq!(
        after_update,
        expect(endpoint, &table, "update-partition", &initial, dir.path())
    );
    assert_eq!(proxy.requests("UpdateItem"), 3);

    // DELETE over an IN of partitions, with a filter.
    let delete = format!("DELETE FROM \"{table}\" WHERE PK IN ['P#2', 'P#3'] AND status = 'DONE'");
    let out = dyno(
        &proxy.url,
        &state,
        &["--allow-writes", "partiql", &delete, "--yes"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("journal: "),
        "{}",
        text(&out.stderr)
    );
    let after_delete = boto3(endpoint, &table, &["dump"]);
    assert_eq!(
        after_delete,
        expect(endpoint, &table, "delete-in", &after_update, dir.path())
    );
    assert_eq!(proxy.requests("DeleteItem"), 6);

    // Through a GSI: re-keys its entries.
    let rekey = format!(
        "UPDATE \"{table}\".\"GSI1\" SET GSI1PK = ? WHERE GSI1PK = 'HOT' AND begins_with(GSI1SK, '4#')"
    );
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &rekey,
            "--parameters",
            r#"["COLD"]"#,
            "--yes",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let after_rekey = boto3(endpoint, &table, &["dump"]);
    assert_eq!(
        after_rekey,
        expect(endpoint, &table, "rekey-gsi", &after_delete, dir.path())
    );

    // Undo the first run: its dry run writes nothing, then P#1 is as it was.
    let before_undo = writes(&proxy);
    let out = dyno(&proxy.url, &state, &["undo", j1.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("restores 3 of its 3 items"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(writes(&proxy), before_undo);
    let out = dyno(
        &proxy.url,
        &state,
        &["--allow-writes", "undo", j1.to_str().unwrap(), "--yes"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        boto3(endpoint, &table, &["dump"]),
        with_partition_from(&after_rekey, &initial, "P#1"),
        "undo restores the run's items byte for byte"
    );

    // INSERT stays refused, naming the explorer's N.
    let insert = format!("INSERT INTO \"{table}\" VALUE {{'PK': 'x', 'SK': 'y'}}");
    let out = dyno(&proxy.url, &state, &["--allow-writes", "partiql", &insert]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("'N'"), "{}", text(&out.stderr));
}

/// UpdateItem requests per key (the item's SK), from the proxy's log.
fn updates_per_key(proxy: &FaultProxy) -> std::collections::BTreeMap<String, usize> {
    let mut per_key = std::collections::BTreeMap::new();
    for r in proxy
        .log()
        .iter()
        .filter(|r| r.operation == "UpdateItem" && r.fault.is_none())
    {
        let body: serde_json::Value = serde_json::from_str(&r.body).unwrap();
        let sk = body["Key"]["SK"]["S"].as_str().unwrap().to_string();
        *per_key.entry(sk).or_insert(0) += 1;
    }
    per_key
}

#[test]
fn the_write_guard_holds_a_killed_run_resumes_once_and_conflicts_survive() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulk-guard");
    boto3(endpoint, &table, &["setup", "20"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let initial = boto3(endpoint, &table, &["dump"]);
    let statement = format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#4'");
    let journal = dir.path().join("run.jsonl");
    let j = journal.to_str().unwrap();

    // --max-wcu 10: items of 1 WCU, 2 with their GSI1 entry (every third): S#000..S#006 cost
    // 2+1+1+2+1+1+2 = 10, and S#007 would go past it.
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--max-wcu",
            "10",
            "--journal",
            j,
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--max-wcu 10 reached"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(proxy.requests("UpdateItem"), 7);

    // Resumed at 4 WCU/s and killed partway.
    let started = Instant::now();
    let mut child = command(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--resume",
            j,
            "--wcu-per-second",
            "4",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    child.kill().unwrap();
    child.wait().unwrap();
    let killed_at = started.elapsed();
    let sent = proxy.requests("UpdateItem") - 7;
    assert!((1..13).contains(&sent), "{sent} writes before the kill");
    // At 4 WCU/s the first write goes at once and each next after the last is paid for.
    assert!(
        sent as f64 <= 1.0 + killed_at.as_secs_f64() * 4.0,
        "{sent} writes in {killed_at:?}"
    );

    // Another writer changes the last item meanwhile: it must survive as a conflict.
    boto3(endpoint, &table, &["touch", "P#4", "S#019"]);
    let touched = boto3(endpoint, &table, &["dump"]);
    let touched_item = touched
        .lines()
        .find(|l| l.contains("S#019") && l.contains("\"P#4\""))
        .unwrap()
        .to_string();

    // Resumed again, at 9 WCU/s.
    let started = Instant::now();
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--resume",
            j,
            "--wcu-per-second",
            "9",
        ],
    );
    let took = started.elapsed();
    assert_eq!(
        out.status.code(),
        Some(4),
        "conflicts exit 4: {}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("changed by another writer"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("1 conflicts skipped"),
        "{}",
        text(&out.stderr)
    );

    // Each item written once: one UpdateItem per key, but for the one the kill cut short
    // (resent, refused by its condition, recognised as written) and none twice accepted.
    let per_key = updates_per_key(&proxy);
    assert_eq!(per_key.len(), 20, "{per_key:?}");
    assert!(
        per_key.values().filter(|&&n| n > 1).count() <= 1,
        "{per_key:?}"
    );
    assert!(per_key.values().all(|&n| n <= 2), "{per_key:?}");
    let expected = expect(endpoint, &table, "touch-all-p4", &initial, dir.path());
    let expected: String = expected
        .lines()
        .map(|l| {
            if l.contains("S#019") && l.contains("\"P#4\"") {
                touched_item.clone()
            } else {
                l.to_string()
            }
        })
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(boto3(endpoint, &table, &["dump"]), expected);
    // The last resumed run's writes (at least 20 - 7 - sent - 1 of them, 1 or 2 WCU each)
    // went at 9 WCU/s: all but the first paid for before the next.
    let remaining = 20 - 7 - sent;
    if remaining > 3 {
        assert!(
            took.as_secs_f64() >= (remaining as f64 - 2.0) / 9.0,
            "{remaining} writes in {took:?}"
        );
    }

    // Throttled writes lose nothing: 40% of UpdateItems answered ProvisionedThroughputExceeded.
    let throttling = FaultProxy::start(
        endpoint,
        FaultConfig::new(0.4, 33, &[Fault::ProvisionedThroughput]).only(&["UpdateItem"]),
    );
    let before = boto3(endpoint, &table, &["dump"]);
    let statement =
        format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#4' AND SK < 'S#019'");
    let again = dyno(
        &throttling.url,
        &state,
        &["--allow-writes", "partiql", &statement, "--yes"],
    );
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(
        boto3(endpoint, &table, &["dump"]),
        before,
        "already SEEN: nothing changes"
    );
    let statement = format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#3'");
    let out = dyno(
        &throttling.url,
        &state,
        &[
            "--allow-writes",
            "--max-attempts",
            "2",
            "partiql",
            &statement,
            "--yes",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(throttling.throttles("UpdateItem") > 0);
    assert!(
        text(&out.stderr).contains("throttled attempts retried"),
        "{}",
        text(&out.stderr)
    );
    let mut expected_p3 = String::new();
    for l in before.lines() {
        let l = if l.contains("\"P#3\"") {
            l.replace("{\"S\": \"PENDING\"}", "{\"S\": \"SEEN\"}")
                .replace("{\"S\": \"DONE\"}", "{\"S\": \"SEEN\"}")
        } else {
            l.to_string()
        };
        expected_p3.push_str(&l);
        expected_p3.push('\n');
    }
    assert_eq!(boto3(endpoint, &table, &["dump"]), expected_p3);
}

/// `--wcu-per-second R` measured where the writes arrive: the fault proxy's arrival time and
/// reported units of each UpdateItem. The guard lets a write go once the one before it is
/// paid for at the rate, so any one-second window holds at most `R` plus one item's write,
/// and all writes but the last fit in `R` times the run's length (its average).
#[test]
fn the_write_rate_holds_in_every_second_and_on_average() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulkrate");
    boto3(endpoint, &table, &["setup", "12"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // 24 items: 1 WCU each, 2 for the 8 with a GSI1 entry; 32 WCU at 8 a second.
    let statement = format!("UPDATE \"{table}\" SET status = 'RATED' WHERE PK IN ['P#1', 'P#2']");
    let rate = 8.0;
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--wcu-per-second",
            "8",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let writes = proxy.timed("UpdateItem");
    assert_eq!(writes.len(), 24, "{}", proxy.summary());
    let units: Vec<f64> = writes.iter().map(|(_, u)| *u).collect();
    assert!(units.iter().all(|u| *u >= 1.0), "{units:?}");
    let total: f64 = units.iter().sum();
    // DynamoDB Local's own report of each write (table and index).
    assert!(total >= 24.0, "{units:?}");
    let largest = units.iter().cloned().fold(0.0, f64::max);
    // Arrival times carry the scheduler's jitter: a write delayed on its way narrows the gap
    // to the next. 50 ms of it at the rate is the slack, far below one item's units.
    let slack = 0.05 * rate;
    let second = Duration::from_secs(1);
    for (i, (start, _)) in writes.iter().enumerate() {
        let in_window: f64 = writes[i..]
            .iter()
            .take_while(|(at, _)| at.duration_since(*start) < second)
            .map(|(_, u)| u)
            .sum();
        assert!(
            in_window <= rate + largest + slack,
            "{in_window} WCU in the second from write {i}"
        );
    }
    let (first, _) = writes[0];
    let (last, last_units) = writes[writes.len() - 1];
    let span = last.duration_since(first).as_secs_f64();
    assert!(
        total - last_units <= rate * span + slack,
        "{} WCU before the last write in {span:.2} s",
        total - last_units
    );
}
