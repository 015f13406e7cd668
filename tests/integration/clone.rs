//! `clone TABLE --to-endpoint URL` from the shared DynamoDB Local to a second one of its own,
//! checked with boto3 (clone/boto3_clone.py): the copy's items equal the source's slice with
//! every type kept, its keys and indexes equal the source's, the read stays under --max-rcu
//! (counted by the fault proxy in front of the source), an existing target or a remote one is
//! refused, `--add` into a table of another key schema writes nothing, Ctrl-C stops a copy
//! within a second (the fault proxy in front of the target slows its writes), saying what it
//! copied, and `--max-wcu` admits every write attempt to the target (retries included).

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::fault_proxy::{Fault, FaultConfig, FaultProxy};
use common::*;

fn boto3(endpoint: &str, table: &str, command: &str) -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/clone/boto3_clone.py");
    let out = common::pyfork::python()
        .arg(script)
        .args([endpoint, table])
        .args(command.split(' '))
        .env_remove("AWS_PROFILE")
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "boto3 {command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn dyno(source: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .arg("--endpoint-url")
        .arg(source)
        .arg("clone")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run dynoscope")
}

fn only_partition(dump: &str, pk: &str) -> String {
    let mark = format!("\"PK\": {{\"S\": \"{pk}\"}}");
    dump.lines()
        .filter(|l| l.contains(&mark))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn clone_copies_the_slice_with_its_types_and_indexes_under_the_read_budget() {
    let source = &local().endpoint;
    let target = start_local();
    let to = target.endpoint.as_str();
    let table = table_name("clonesrc");
    boto3(source, &table, "setup");
    let all = boto3(source, &table, "dump");
    assert_eq!(all.lines().count(), 36);
    let shape = boto3(source, &table, "indexes");
    let proxy = FaultProxy::start(source, FaultConfig::none());

    // One item collection, through --query: exactly its items, every type as it was.
    let out = dyno(&proxy.url, &[&table, "--to-endpoint", to, "--query", "P#2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("12 of 12 items copied"),
        "{}",
        stderr(&out)
    );
    assert_eq!(boto3(to, &table, "dump"), only_partition(&all, "P#2"));
    assert_eq!(boto3(to, &table, "indexes"), shape);
    assert_eq!(proxy.requests("Query"), 1);
    assert_eq!(proxy.requests("Scan"), 0, "{}", proxy.summary());

    // The same target again: refused, nothing written; with --add, the items there are kept
    // and only the new ones written.
    let out = dyno(&proxy.url, &[&table, "--to-endpoint", to, "--query", "P#2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("table '{table}' already exists at"))
            && stderr(&out).contains("--add"),
        "{}",
        stderr(&out)
    );
    let select = format!("SELECT * FROM \"{table}\" WHERE PK IN ['P#2', 'P#3']");
    let out = dyno(
        &proxy.url,
        &[&table, "--to-endpoint", to, "--partiql", &select, "--add"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("12 of 24 items copied (12 already there kept as they were)"),
        "{}",
        stderr(&out)
    );
    let two: String = only_partition(&all, "P#2") + &only_partition(&all, "P#3");
    assert_eq!(boto3(to, &table, "dump"), two);

    // The whole table under --max-rcu 3 (it costs about ten): the read stops within the
    // budget, what it read is copied whole, and the exit says the copy is partial.
    proxy.clear_log();
    let before = proxy.consumed_units();
    let partial = format!("{table}-partial");
    let out = dyno(
        &proxy.url,
        &[
            &table,
            "--to-endpoint",
            to,
            "--to-table",
            &partial,
            "--max-rcu",
            "3",
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stopped at --max-rcu after"),
        "{}",
        stderr(&out)
    );
    let spent = proxy.consumed_units() - before;
    assert!(spent > 0.0 && spent <= 3.0, "consumed {spent} read units");
    let copied = boto3(to, &partial, "dump");
    assert!(
        !copied.is_empty() && copied.lines().count() < 36,
        "{copied}"
    );
    for line in copied.lines() {
        assert!(all.lines().any(|l| l == line), "not in the source: {line}");
    }
    assert_eq!(boto3(to, &partial, "indexes"), shape);

    // --sample N: the first N items of a scan.
    let sample = format!("{table}-sample");
    let out = dyno(
        &proxy.url,
        &[
            &table,
            "--to-endpoint",
            to,
            "--to-table",
            &sample,
            "--sample",
            "5",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let copied = boto3(to, &sample, "dump");
    assert_eq!(copied.lines().count(), 5, "{copied}");
    for line in copied.lines() {
        assert!(all.lines().any(|l| l == line), "not in the source: {line}");
    }
}

#[test]
fn clone_refuses_a_remote_target_and_a_partial_index() {
    let source = &local().endpoint;
    let out = dyno(
        source,
        &[
            "app",
            "--to-endpoint",
            "https://dynamodb.us-east-1.amazonaws.com",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "--to-endpoint 'https://dynamodb.us-east-1.amazonaws.com' is not on this machine"
        ),
        "{}",
        stderr(&out)
    );
    let table = table_name("clonekeys");
    boto3(source, &table, "setup");
    let out = dyno(
        source,
        &[
            &table,
            "--to-endpoint",
            source,
            "--to-table",
            "never",
            "--query",
            "x",
            "--index",
            "ByBlob",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("index 'ByBlob' projects KEYS_ONLY attributes"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn clone_add_refuses_a_target_of_another_key_schema_before_any_write() {
    let source = &local().endpoint;
    let table = table_name("clonesrc-add");
    boto3(source, &table, "setup");
    let target_table = table_name("clone-pk-only");
    boto3(source, &target_table, "pk-only");
    let proxy = FaultProxy::start(source, FaultConfig::none());
    let out = dyno(
        source,
        &[
            &table,
            "--to-endpoint",
            &proxy.url,
            "--to-table",
            &target_table,
            "--query",
            "P#1",
            "--add",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "--add copies only into a table of the source's key schema and indexes: '{target_table}' at {} has key (PK S) and no indexes, '{table}' has key (PK S, sort SK S) and GSI ByBlob (blobkey B; KEYS_ONLY), GSI GSI1 (GSI1PK S, sort rank N; ALL), LSI LSI1 (PK S, sort rank N; INCLUDE status tags); nothing was written",
            proxy.url
        )),
        "{err}"
    );
    let written: usize = ["PutItem", "BatchWriteItem", "UpdateItem"]
        .iter()
        .map(|op| proxy.requests(op))
        .sum();
    assert_eq!(written, 0, "{}", proxy.summary());
    assert_eq!(boto3(source, &target_table, "count").trim(), "0");
}

/// Waits for `child` to end, at most `within`; kills it (by its pid) when it does not.
fn wait_for_exit(child: &mut Child, within: Duration) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    None
}

/// Starts a clone, waits until the proxy has seen `writes` requests of `operation`, sends
/// SIGINT, and returns how long the exit took after it, the exit code and stderr.
fn interrupt_clone(
    args: &[&str],
    proxy: &FaultProxy,
    operation: &str,
    writes: usize,
) -> (Duration, Option<i32>, String) {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .arg("--endpoint-url")
        .arg(&local().endpoint)
        .arg("clone")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let until = Instant::now() + Duration::from_secs(60);
    while proxy.requests(operation) < writes {
        assert!(Instant::now() < until, "{}", proxy.summary());
        assert!(child.try_wait().unwrap().is_none(), "the clone ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = Instant::now();
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = wait_for_exit(&mut child, Duration::from_secs(20));
    let took = sent.elapsed();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    (took, status.and_then(|s| s.code()), err)
}

/// The number before `" of {total} items copied"` in `err`.
fn copied_of(err: &str, total: usize) -> usize {
    let mark = format!(" of {total} items copied");
    let head = &err[..err.find(&mark).unwrap_or_else(|| panic!("{err}"))];
    head.rsplit(' ').next().unwrap().parse().unwrap()
}

/// "N more were being written when it stopped" in `err`, or 0.
fn cut_off(err: &str) -> usize {
    err.find(" more were being written")
        .map(|at| err[..at].rsplit(' ').next().unwrap().parse().unwrap())
        .unwrap_or(0)
}

#[test]
fn ctrl_c_stops_a_copy_within_a_second_and_says_what_it_copied() {
    let source = &local().endpoint;
    let table = table_name("clonemany");
    boto3(source, &table, "setup-many 2000");
    let copy = table_name("clonemany-copy");
    // Every write to the target takes 400 ms: 80 batches, 8 at a time, take 4 s.
    let mut config = FaultConfig::new(1.0, 7, &[Fault::Delay]).only(&["BatchWriteItem", "PutItem"]);
    config.delay = Duration::from_millis(400);
    let proxy = FaultProxy::start(source, config);
    let args = [
        table.as_str(),
        "--to-endpoint",
        &proxy.url,
        "--to-table",
        &copy,
    ];

    let (took, code, err) = interrupt_clone(&args, &proxy, "BatchWriteItem", 9);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        took < Duration::from_secs(1),
        "exit {took:?} after SIGINT: {err}"
    );
    assert!(
        err.contains(&format!(
            "interrupted (Ctrl-C) while copying: created '{copy}' at {}: ",
            proxy.url
        )) && err.contains("clone again with --add"),
        "{err}"
    );
    let copied = copied_of(&err, 2000);
    let stored: usize = boto3(source, &copy, "count").trim().parse().unwrap();
    assert!(copied < 2000, "{err}");
    assert!(
        (copied..=copied + cut_off(&err)).contains(&stored),
        "{stored} items stored: {err}"
    );

    // Adding the rest, one conditional put each: stopped the same way.
    let mut add = args.to_vec();
    add.push("--add");
    let (took, code, err) = interrupt_clone(&add, &proxy, "PutItem", 9);
    assert_eq!(code, Some(130), "{err}");
    assert!(
        took < Duration::from_secs(1),
        "exit {took:?} after SIGINT: {err}"
    );
    assert!(err.contains("added to"), "{err}");
    let more = copied_of(&err, 2000);
    let now: usize = boto3(source, &copy, "count").trim().parse().unwrap();
    assert!(
        (stored + more..=stored + more + cut_off(&err)).contains(&now),
        "{now} items stored after {stored} and {more} more: {err}"
    );
}

/// `clone --max-wcu N`: every request to the target, and every retry of one, is admitted at
/// its worst case first (a batch of 25 items of 1 WCU: 25), as a bulk run's writes are. The
/// fault proxy in front of the target loses the first batch's answer after it was applied, so
/// the SDK sends it again: that retry is charged too, and the next batch no longer fits. What
/// DynamoDB received, counted by the proxy, stays within N; the copy stops with exit 5 saying
/// what it copied.
#[test]
fn max_wcu_admits_every_write_attempt_of_a_clone_and_stops_before_passing_it() {
    let source = &local().endpoint;
    let table = table_name("clonewcu");
    boto3(source, &table, "setup-many 100");
    let copy = table_name("clonewcu-copy");
    let proxy = FaultProxy::start(
        source,
        FaultConfig::new(1.0, 7, &[Fault::Truncate])
            .only(&["BatchWriteItem"])
            .at_most(1),
    );
    let received = |operation: &str| -> usize {
        proxy
            .bodies(operation)
            .iter()
            .map(|b| b.matches("\"PutRequest\"").count().max(1))
            .sum()
    };
    let args = [
        table.as_str(),
        "--to-endpoint",
        &proxy.url,
        "--to-table",
        &copy,
        "--max-wcu",
        "60",
    ];
    let out = dyno(source, &args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("--max-wcu 60 reached") && err.contains("25 of 100 items copied"),
        "{err}"
    );
    assert_eq!(
        proxy.requests("BatchWriteItem"),
        2,
        "the batch whose answer was lost and its retry; the next did not fit\n{}",
        proxy.summary()
    );
    let writes = received("BatchWriteItem");
    assert!(
        writes <= 60,
        "DynamoDB received {writes} item writes of 1 WCU under --max-wcu 60"
    );
    let stored: usize = boto3(source, &copy, "count").trim().parse().unwrap();
    assert_eq!(stored, 25);

    // Adding the rest: one conditional PutItem at a time, each admitted; an item already
    // there is kept and charged as well (a refused condition is billed).
    proxy.clear_log();
    let mut add = args.to_vec();
    add.push("--add");
    *add.iter_mut().rev().nth(1).unwrap() = "30";
    let out = dyno(source, &add);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("--max-wcu 30 reached"), "{err}");
    assert_eq!(proxy.requests("PutItem"), 30, "{}", proxy.summary());
    let stored: usize = boto3(source, &copy, "count").trim().parse().unwrap();
    assert_eq!(stored, 30, "{err}");
}
