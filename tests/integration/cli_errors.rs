//! Every bad input and service failure gets one line on stderr naming the bad value, and the
//! documented exit code (2 bad input, 1 service/network).

use crate::common;

use std::time::{Duration, Instant};

use common::tables::{self, TableSpec};
use common::*;

fn fails(out: std::process::Output, code: i32, needles: &[&str]) {
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected: {err}"
    );
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

#[test]
fn bad_inputs_exit_2_naming_the_value() {
    let table = seeded_demo(2);
    let t = table.as_str();
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["query", "no-such-table", "--pk", "x"],
            vec!["'no-such-table'", "dynoscope tables"],
        ),
        (vec!["scan", "no-such-table"], vec!["'no-such-table'"]),
        (vec!["describe", "no-such-table"], vec!["'no-such-table'"]),
        (
            vec!["query", t, "--index", "GSI9", "--pk", "x"],
            vec!["'GSI9'", "GSI1", "LSI1"],
        ),
        (
            vec![
                "query",
                t,
                "--index",
                "LSI1",
                "--pk",
                "USER#1",
                "--sk-begins",
                "1",
            ],
            vec!["begins_with", "'LSI1SK'"],
        ),
        (
            vec![
                "query", t, "--index", "LSI1", "--pk", "USER#1", "--sk-gt", "ten",
            ],
            vec!["'ten'"],
        ),
        (
            vec!["query", t, "--pk", "USER#1", "--sk-between", "z", "a"],
            vec!["'z'", "'a'"],
        ),
        (vec!["query", t, "--pk", ""], vec!["'PK'", "empty"]),
        (
            vec!["query", t, "--pk", "x", "--values", "{not json"],
            vec!["'{not json'"],
        ),
        (
            vec![
                "query",
                t,
                "--pk",
                "x",
                "--filter",
                "#s = :s",
                "--names",
                r##"{"#s":"status"}"##,
                "--values",
                r#"{":t":"X"}"#,
            ],
            vec!["':s'"],
        ),
        (
            vec![
                "query",
                t,
                "--pk",
                "x",
                "--filter",
                "status = :s",
                "--values",
                r#"{":s":"X"}"#,
            ],
            vec!["'status'", "#status"],
        ),
        (
            vec![
                "query",
                t,
                "--pk",
                "x",
                "--filter",
                "(a = :s",
                "--values",
                r#"{":s":"X"}"#,
            ],
            vec!["never closed", "')'"],
        ),
        (
            vec![
                "query",
                t,
                "--key-condition-expression",
                "PK > :p",
                "--expression-attribute-values",
                r#"{":p":{"S":"x"}}"#,
            ],
            vec!["'PK'", "="],
        ),
        (
            vec![
                "query",
                t,
                "--key-condition-expression",
                "PK = :p AND contains(SK, :s)",
                "--expression-attribute-values",
                r#"{":p":{"S":"x"},":s":{"S":"y"}}"#,
            ],
            vec!["contains"],
        ),
        (
            vec![
                "query",
                t,
                "--key-condition-expression",
                "PK = :p AND SK <> :s",
                "--expression-attribute-values",
                r#"{":p":{"S":"x"},":s":{"S":"y"}}"#,
            ],
            vec!["<>"],
        ),
        (
            vec!["scan", t, "--segments", "1001"],
            vec!["'1001'", "1000"],
        ),
        (vec!["scan", t, "--output", "xml"], vec!["'xml'"]),
        // A change is not an item row: tail offers only its own formats.
        (
            vec!["tail", t, "--output", "csv"],
            vec!["'csv'", "jsonl, ddb-jsonl, table"],
        ),
        (vec!["query", t], vec!["--pk"]),
    ];
    for (args, needles) in cases {
        fails(run(&args), 2, &needles);
    }
}

/// Every numeric flag has a range; a value outside it is refused by the parser, before any
/// connection, with the value as typed and the range. (`--timeout 1e20` used to panic in
/// `Duration::from_secs_f64`.)
#[test]
fn every_numeric_flag_out_of_range_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--timeout", "1e20", "tables"],
            &["'1e20'", "0.01 to 3600 seconds"],
        ),
        (&["--timeout", "0", "tables"], &["'0'", "0.01 to 3600"]),
        (&["--timeout", "NaN", "tables"], &["'NaN'", "0.01 to 3600"]),
        (&["--max-attempts", "0", "tables"], &["'0'", "1 to 100"]),
        (&["--max-attempts", "101", "tables"], &["'101'", "1 to 100"]),
        (
            &["--max-items", "0", "tbl"],
            &["'0'", "1 to 1000000000 items"],
        ),
        (
            &["scan", "tbl", "--rcu-per-second", "1e-20"],
            &["'1e-20'", "0.01 to 1000000000"],
        ),
        (
            &["scan", "tbl", "--rcu-per-second", "inf"],
            &["'inf'", "read units per second"],
        ),
        (
            &["scan", "tbl", "--max-rcu", "0"],
            &["'0'", "more than 0, up to 1000000000000"],
        ),
        (
            &["scan", "tbl", "--max-rcu", "1e300"],
            &["'1e300'", "1000000000000"],
        ),
        (
            &["scan", "tbl", "--segments", "0"],
            &["'0'", "1 to 1000 segments"],
        ),
        (
            &["scan", "tbl", "--page-size", "0"],
            &["'0'", "1 to 1000000 items"],
        ),
        (
            &["scan", "tbl", "--page-size", "2000000"],
            &["'2000000'", "1 to 1000000"],
        ),
        (
            &["query", "tbl", "--pk", "x", "--limit", "0"],
            &["'0'", "1 to 1000000000 items"],
        ),
        (
            &[
                "query",
                "tbl",
                "--pk",
                "x",
                "--limit",
                "99999999999999999999999",
            ],
            &["1 to 1000000000"],
        ),
        (&["run", "p", "--limit", "0"], &["'0'", "1 to 1000000000"]),
        (
            &["hotkeys", "tbl", "--top", "0"],
            &["'0'", "1 to 1000000 keys"],
        ),
        (
            &["hotkeys", "tbl", "--segments", "1001"],
            &["'1001'", "1 to 1000"],
        ),
        (&["seed", "--users", "0"], &["'0'", "1 to 100000 users"]),
        (
            &["seed", "--users", "5000000000"],
            &["'5000000000'", "1 to 100000"],
        ),
        (&["demo", "--users", "100001"], &["'100001'", "1 to 100000"]),
        (&["demo", "--port", "0"], &["'0'", "--port", "1..=65535"]),
        (
            &["demo", "--port", "70000"],
            &["'70000'", "--port", "1..=65535"],
        ),
    ];
    for (args, needles) in cases {
        // Port 9 (discard) on loopback: whatever happens, nothing goes beyond this machine.
        let mut full = vec!["--endpoint-url", "http://127.0.0.1:9"];
        full.extend_from_slice(args);
        fails(run_raw(&full, &[]), 2, needles);
    }
}

#[tokio::test]
async fn sort_condition_on_a_table_without_sort_key_is_refused() {
    let table = table_name("hashonly");
    TableSpec::new(&table, tables::n("id"))
        .create(&client().await)
        .await;
    fails(
        run(&["query", &table, "--pk", "1", "--sk-eq", "x"]),
        2,
        &["'id'", "no sort key"],
    );
    fails(run(&["query", &table, "--pk", "one"]), 2, &["'one'"]);
    assert_eq!(ok(run(&["query", &table, "--pk", "1"])), "");
}

#[test]
fn unreachable_endpoint_fails_fast_with_exit_1() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    let out = run_raw(&["--endpoint-url", &url, "tables"], &[]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    // The cause itself, without the layers of HTTP client that wrap it.
    assert!(
        !stderr(&out).contains("client error (Connect)"),
        "{}",
        stderr(&out)
    );
    fails(out, 1, &[&url, "connection failed: Connection refused"]);
}

#[test]
fn connection_setup_errors() {
    fails(
        run_raw(&["--endpoint-url", "localhost:8000", "tables"], &[]),
        2,
        &["'localhost:8000'", "--endpoint-url"],
    );
    fails(
        run_raw(&["--endpoint-url", "http://", "tables"], &[]),
        2,
        &["'http://'"],
    );
    // No region anywhere, against AWS itself (no request is sent: the check comes first).
    let out = {
        let mut cmd = std::process::Command::new(bin());
        aws_env(&mut cmd)
            .env_remove("AWS_REGION")
            .env_remove("AWS_DEFAULT_REGION")
            .arg("tables");
        cmd.output().unwrap()
    };
    fails(out, 2, &["--region", "AWS_REGION"]);
    // No credentials anywhere (IMDS disabled), against a non-local endpoint.
    let out = {
        let mut cmd = std::process::Command::new(bin());
        aws_env(&mut cmd)
            .env_remove("AWS_ACCESS_KEY_ID")
            .env_remove("AWS_SECRET_ACCESS_KEY")
            .args(["--region", "eu-west-1", "tables"]);
        cmd.output().unwrap()
    };
    fails(out, 2, &["no AWS credentials", "--profile"]);
}

#[test]
fn local_endpoint_without_credentials_falls_back_to_dummy_keys() {
    let mut cmd = std::process::Command::new(bin());
    aws_env(&mut cmd)
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_REGION")
        .args(["--endpoint-url", &local().endpoint, "tables"]);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn seed_and_demo_refuse_what_they_cannot_do() {
    fails(
        run_raw(
            &[
                "--endpoint-url",
                "https://dynamodb.us-east-1.amazonaws.com",
                "seed",
            ],
            &[],
        ),
        2,
        &["local endpoint", "amazonaws"],
    );
    fails(run_raw(&["seed"], &[]), 2, &["local endpoint"]);
    fails(
        run_raw(&["demo"], &[("DYNAMODB_LOCAL_DIR", "/nonexistent/ddb")]),
        2,
        &["'/nonexistent/ddb'", "scripts/install-dynamodb-local.sh"],
    );
    // Where the JVM's SQLite library would go: named, with the fix, before any JVM starts.
    fails(
        run_raw(&["demo"], &[("TMPDIR", "/nonexistent/tmp")]),
        2,
        &["'/nonexistent/tmp'", "set TMPDIR to a writable folder"],
    );
    let table = seeded_demo(1);
    fails(
        run(&["seed", "--table", &table, "--users", "1"]),
        2,
        &["already exists"],
    );
}

#[test]
fn tables_and_describe() {
    let table = seeded_demo(3);
    let names = ok(run(&["tables"]));
    assert!(names.lines().any(|l| l == table), "{names}");
    let desc: serde_json::Value = serde_json::from_str(&ok(run(&["describe", &table]))).unwrap();
    assert_eq!(desc["name"], table.as_str());
    assert_eq!(desc["keys"]["partition"][0]["name"], "PK");
    assert_eq!(desc["keys"]["sort"][0]["type"], "S");
    assert_eq!(desc["billing_mode"], "PAY_PER_REQUEST");
    let indexes = desc["indexes"].as_array().unwrap();
    let gsi = indexes.iter().find(|i| i["name"] == "GSI1").unwrap();
    assert_eq!(gsi["kind"], "GSI");
    assert_eq!(gsi["keys"]["partition"][0]["name"], "GSI1PK");
    assert_eq!(gsi["projection"]["type"], "ALL");
    let lsi = indexes.iter().find(|i| i["name"] == "LSI1").unwrap();
    assert_eq!(lsi["kind"], "LSI");
    assert_eq!(lsi["keys"]["sort"][0]["type"], "N");
    assert_eq!(lsi["projection"]["type"], "INCLUDE");
    assert!(desc["item_count"].as_i64().is_some());
}

#[test]
fn a_bad_config_file_names_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("dynoscope")).unwrap();
    let path = dir.path().join("dynoscope/config.toml");
    std::fs::write(&path, "price_per_million_reads = 0.125\ncolour = \"red\"\n").unwrap();
    let xdg = dir.path().to_str().unwrap();
    let out = run_raw(
        &["--endpoint-url", &local().endpoint, "some-table"],
        &[("XDG_CONFIG_HOME", xdg)],
    );
    fails(out, 2, &[path.to_str().unwrap(), "line 2", "colour"]);
}

#[test]
fn the_explorer_needs_a_terminal() {
    let out = run_raw(
        &["--endpoint-url", &local().endpoint],
        &[("XDG_CONFIG_HOME", "/nonexistent")],
    );
    fails(out, 2, &["terminal"]);
}

/// Names the SDK or DynamoDB would refuse are refused first, in one line that quotes them and
/// says the fix, exit 2: nothing is sent (the endpoint does not listen; a request would fail
/// with exit 1).
#[test]
fn empty_and_rejected_names_exit_2_before_anything_is_sent() {
    let e = "http://127.0.0.1:9";
    let empty_table = ["''", "the table name is empty", "dynoscope tables"];
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["scan", ""], empty_table.to_vec()),
        (vec!["describe", ""], empty_table.to_vec()),
        (vec!["query", "", "--pk", "x"], empty_table.to_vec()),
        (vec!["hotkeys", ""], empty_table.to_vec()),
        (vec!["tail", ""], empty_table.to_vec()),
        (vec![""], empty_table.to_vec()),
        (vec!["scan", "a b"], vec!["'a b'", "3 to 255 letters"]),
        (vec!["describe", "ab"], vec!["'ab'", "3 to 255 letters"]),
        (
            vec!["--region", "", "tables"],
            vec!["''", "--region", "empty"],
        ),
        (
            vec!["--region", "us east", "tables"],
            vec!["'us east'", "us-east-1"],
        ),
        (
            vec!["scan", "tbl", "--output", "csv", "--columns", ""],
            vec!["''", "--columns", "names no attribute"],
        ),
        (
            vec!["scan", "tbl", "--output", "csv", "--columns", " , "],
            vec!["' , '", "--columns", "names no attribute"],
        ),
    ];
    for (args, needles) in cases {
        let mut full = vec!["--endpoint-url", e];
        full.extend(&args);
        fails(run_raw(&full, &[]), 2, &needles);
    }
    for url in ["http://127.0.0.1:9/a b", "http://127.0.0.1:9 "] {
        let out = run_raw(&["--endpoint-url", url, "tables"], &[]);
        fails(out, 2, &[&format!("'{url}'"), "space"]);
    }
    let out = run_raw(
        &["tables"],
        &[("AWS_ENDPOINT_URL", "http://127.0.0.1:9/a b")],
    );
    assert!(!stderr(&out).contains("Request {"), "{}", stderr(&out));
    fails(
        out,
        2,
        &["'http://127.0.0.1:9/a b'", "space", "AWS_ENDPOINT_URL"],
    );
}

/// A profile that is not in the AWS files is refused (the SDK would take the environment's
/// credentials instead: another account), and so is a file the SDK cannot parse.
#[test]
fn a_missing_profile_or_a_malformed_aws_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    let creds = dir.path().join("credentials");
    std::fs::write(&config, "[profile prod]\nregion = eu-west-1\n").unwrap();
    let files = [
        ("AWS_CONFIG_FILE", config.to_str().unwrap()),
        ("AWS_SHARED_CREDENTIALS_FILE", creds.to_str().unwrap()),
    ];
    let e = "http://127.0.0.1:9";
    let out = run_raw(
        &["--endpoint-url", e, "--profile", "nope", "tables"],
        &files,
    );
    fails(
        out,
        2,
        &[
            "--profile 'nope' names no profile in",
            config.to_str().unwrap(),
            creds.to_str().unwrap(),
            "defined: prod",
        ],
    );
    let mut env = files.to_vec();
    env.push(("AWS_PROFILE", "nope"));
    fails(
        run_raw(&["--endpoint-url", e, "tables"], &env),
        2,
        &["AWS_PROFILE 'nope'"],
    );
    std::fs::write(&config, "[profile prod]\nregion eu-west-1\n").unwrap();
    fails(
        run_raw(&["--endpoint-url", e, "tables"], &files),
        2,
        &[
            &format!("AWS config file '{}', line 2: ", config.display()),
            "'='",
        ],
    );
}

/// A value pasted by mistake is quoted shortened, with its length, and the fix still shows.
#[test]
fn an_error_quoting_a_huge_input_stays_short() {
    let huge = "x".repeat(20_000);
    let e = "http://127.0.0.1:9";
    for args in [
        vec!["--endpoint-url", e, "--timeout", &huge, "tables"],
        vec!["--endpoint-url", e, "scan", &huge],
    ] {
        let out = run_raw(&args, &[]);
        let err = stderr(&out);
        assert!(err.len() < 600, "{} bytes: {err}", err.len());
        fails(
            out,
            2,
            &["… (20000 characters)'", "(see 'dynoscope --help')"],
        );
    }
}

/// `--live` is a table's live pane: on an export it is `W` inside it, and without a table it
/// names what is missing; one line and exit 2, never clap's "required <TABLE>".
#[test]
fn live_on_an_export_or_without_a_table_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().to_str().unwrap();
    fails(
        run_raw(&["--export", export, "--live"], &[]),
        2,
        &["on an export the live pane is W inside it", "drop --live"],
    );
    let out = run_raw(&["--export", export, "--live"], &[]);
    assert!(!stderr(&out).contains("required"), "{}", stderr(&out));
    fails(
        run_raw(&["--live"], &[]),
        2,
        &["--live needs a table", "dynoscope TABLE --live"],
    );
}
