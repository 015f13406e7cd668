//! `export-start` against DynamoDB Local (DescribeTable) behind the fault proxy, which answers
//! what DynamoDB Local does not implement: ExportTableToPointInTime and DescribeExport.

use crate::common;
use crate::common::fault_proxy;

use common::*;
use fault_proxy::{FaultConfig, FaultProxy};

const EXPORT_ID: &str = "01767225600000-abcd1234";

fn export_arn(table: &str) -> String {
    format!("arn:aws:dynamodb:ddblocal:000000000000:table/{table}/export/{EXPORT_ID}")
}

/// An ExportDescription in `status`, as ExportTableToPointInTime and DescribeExport answer.
fn description(table: &str, status: &str, extra: &str) -> String {
    format!(
        r#"{{"ExportDescription":{{"ExportArn":"{}","ExportStatus":"{status}","S3Bucket":"exports","S3Prefix":"team/p"{extra}}}}}"#,
        export_arn(table)
    )
}

/// `dynoscope --endpoint-url <proxy> export-start ARGS…`, with no config file but `config`.
fn export_start(proxy: &FaultProxy, args: &[&str], config: &str) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("dynoscope")).unwrap();
    std::fs::write(home.path().join("dynoscope/config.toml"), config).unwrap();
    let mut full = vec!["--endpoint-url", &proxy.url, "export-start"];
    full.extend_from_slice(args);
    let home = home.path().to_str().unwrap();
    run_raw(
        &full,
        &[
            ("XDG_CONFIG_HOME", home),
            ("DYNOSCOPE_EXPORT_POLL_MS", "20"),
        ],
    )
}

fn proxy(config: FaultConfig) -> FaultProxy {
    FaultProxy::start(&local().endpoint, config)
}

#[test]
fn without_yes_it_prints_the_command_and_cost_and_sends_no_export() {
    let table = seeded_demo(1);
    let p = proxy(FaultConfig::none());
    let out = export_start(
        &p,
        &[&table, "--s3-bucket", "exports", "--s3-prefix", "team/p"],
        "price_per_gb_export = 0.25\n",
    );
    let text = ok_keep(&out);
    assert_eq!(p.requests("ExportTableToPointInTime"), 0, "{}", p.summary());
    assert_eq!(p.requests("DescribeExport"), 0);
    assert_eq!(p.requests("DescribeTable"), 1);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("# estimated cost: $0.0") && lines[0].contains("at $0.25 per GB"),
        "{text}"
    );
    assert_eq!(
        lines[1],
        format!("aws dynamodb export-table-to-point-in-time --table-arn arn:aws:dynamodb:ddblocal:000000000000:table/{table} --s3-bucket exports --s3-prefix team/p --export-format DYNAMODB_JSON")
    );
    let err = stderr(&out);
    assert_eq!(
        err.trim(),
        "not sent: an export is billed; add --yes to start it (or run the aws command above)"
    );
}

fn ok_keep(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(out));
    stdout(out)
}

#[test]
fn with_yes_one_export_is_sent_and_followed_to_completion() {
    let table = seeded_demo(1);
    let done = r#","ItemCount":1234,"BilledSizeBytes":5872025"#;
    let p = proxy(
        FaultConfig::none()
            .answer(
                "ExportTableToPointInTime",
                200,
                &description(&table, "IN_PROGRESS", ""),
            )
            .answer_in_turn(
                "DescribeExport",
                &[
                    (200, &description(&table, "IN_PROGRESS", "")),
                    (200, &description(&table, "IN_PROGRESS", "")),
                    (200, &description(&table, "COMPLETED", done)),
                ],
            ),
    );
    let args = [
        table.as_str(),
        "--s3-bucket",
        "exports",
        "--s3-prefix",
        "team/p",
        "--s3-bucket-owner",
        "123456789012",
        "--format",
        "ION",
        "--incremental",
        "--from",
        "2026-01-01T00:00:00Z",
        "--to",
        "1767229200",
        "--yes",
    ];
    let out = export_start(&p, &args, "");
    let text = ok_keep(&out);
    assert_eq!(p.requests("ExportTableToPointInTime"), 1, "{}", p.summary());
    assert_eq!(p.requests("DescribeExport"), 3);
    let sent: serde_json::Value =
        serde_json::from_str(&p.bodies("ExportTableToPointInTime")[0]).unwrap();
    assert_eq!(
        sent["TableArn"],
        format!("arn:aws:dynamodb:ddblocal:000000000000:table/{table}")
    );
    assert_eq!(sent["S3Bucket"], "exports");
    assert_eq!(sent["S3Prefix"], "team/p");
    assert_eq!(sent["S3BucketOwner"], "123456789012");
    assert_eq!(sent["ExportFormat"], "ION");
    assert_eq!(sent["ExportType"], "INCREMENTAL_EXPORT");
    let spec = &sent["IncrementalExportSpecification"];
    assert_eq!(
        spec["ExportFromTime"].as_f64(),
        Some(1_767_225_600.0),
        "{sent}"
    );
    assert_eq!(
        spec["ExportToTime"].as_f64(),
        Some(1_767_229_200.0),
        "{sent}"
    );
    assert_eq!(spec["ExportViewType"], "NEW_AND_OLD_IMAGES");
    assert!(
        sent["ClientToken"].as_str().is_some_and(|t| t.len() >= 20),
        "{sent}"
    );
    for body in p.bodies("DescribeExport") {
        assert!(body.contains(&export_arn(&table)), "{body}");
    }

    let err = stderr(&out);
    let progress: Vec<&str> = err.lines().collect();
    assert_eq!(progress.len(), 3, "{err}");
    for (line, status) in progress
        .iter()
        .zip(["IN_PROGRESS", "IN_PROGRESS", "COMPLETED"])
    {
        assert!(
            line.starts_with(&format!("export {EXPORT_ID}: {status}, "))
                && line.ends_with("s elapsed"),
            "{err}"
        );
    }
    let folder = format!("s3://exports/team/p/AWSDynamoDB/{EXPORT_ID}/");
    assert!(text.contains("--export-type INCREMENTAL_EXPORT --incremental-export-specification ExportFromTime=2026-01-01T00:00:00Z,ExportToTime=2026-01-01T01:00:00Z,ExportViewType=NEW_AND_OLD_IMAGES"), "{text}");
    assert!(
        text.contains("# estimated cost: depends on the data changed in the window"),
        "{text}"
    );
    assert!(
        text.contains(&format!("started {}\n", export_arn(&table))),
        "{text}"
    );
    assert!(
        text.contains(&format!("completed {}\n", export_arn(&table))),
        "{text}"
    );
    assert!(text.contains(&format!("location {folder}\n")), "{text}");
    assert!(
        text.contains("items 1,234 · billed size 5.6 MB\n"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("next: dynoscope scan --export {folder}\n")),
        "{text}"
    );
}

#[test]
fn no_wait_prints_the_arn_and_does_not_follow() {
    let table = seeded_demo(1);
    let p = proxy(FaultConfig::none().answer(
        "ExportTableToPointInTime",
        200,
        &description(&table, "IN_PROGRESS", ""),
    ));
    let out = export_start(
        &p,
        &[&table, "--s3-bucket", "exports", "--yes", "--no-wait"],
        "",
    );
    let text = ok_keep(&out);
    assert_eq!(p.requests("ExportTableToPointInTime"), 1);
    assert_eq!(p.requests("DescribeExport"), 0);
    let sent: serde_json::Value =
        serde_json::from_str(&p.bodies("ExportTableToPointInTime")[0]).unwrap();
    assert_eq!(sent["ExportFormat"], "DYNAMODB_JSON");
    assert!(
        sent.get("ExportType").is_none() && sent.get("S3Prefix").is_none(),
        "{sent}"
    );
    assert!(
        text.ends_with(&format!("started {}\n", export_arn(&table))),
        "{text}"
    );
    assert!(stderr(&out).contains("--no-wait"), "{}", stderr(&out));
}

/// Runs `export-start --yes` and returns its exit code and stderr's last line.
fn failing(p: &FaultProxy, table: &str) -> (Option<i32>, String) {
    let out = export_start(p, &[table, "--s3-bucket", "exports", "--yes"], "");
    let err = stderr(&out);
    (
        out.status.code(),
        err.lines().last().unwrap_or("").to_string(),
    )
}

#[test]
fn a_failed_export_exits_1_with_its_code_and_message() {
    let table = seeded_demo(1);
    let failed = description(
        &table,
        "FAILED",
        r#","FailureCode":"S3NoSuchBucket","FailureMessage":"no bucket \u001b[31mexports""#,
    );
    let p = proxy(
        FaultConfig::none()
            .answer(
                "ExportTableToPointInTime",
                200,
                &description(&table, "IN_PROGRESS", ""),
            )
            .answer("DescribeExport", 200, &failed),
    );
    let (code, last) = failing(&p, &table);
    assert_eq!(code, Some(1));
    assert_eq!(
        last,
        format!(
            "error: export '{}' FAILED: S3NoSuchBucket: no bucket \\x1b[31mexports",
            export_arn(&table)
        )
    );
}

#[test]
fn without_point_in_time_recovery_it_says_how_to_turn_it_on() {
    let table = seeded_demo(1);
    let p = proxy(FaultConfig::none().answer(
        "ExportTableToPointInTime",
        400,
        r#"{"__type":"com.amazonaws.dynamodb.v20120810#PointInTimeRecoveryUnavailableException","message":"Point in time recovery is not enabled for table"}"#,
    ));
    let (code, last) = failing(&p, &table);
    assert_eq!(code, Some(1));
    assert_eq!(last, format!("error: table '{table}' does not have point-in-time recovery on, and an export is read from it; turn it on with: aws dynamodb update-continuous-backups --table-name {table} --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true"));
}

#[test]
fn denied_calls_name_their_permission_in_one_line() {
    let table = seeded_demo(1);
    let p = proxy(FaultConfig::none().deny(
        "ExportTableToPointInTime",
        "dynamodb:ExportTableToPointInTime",
    ));
    let (code, last) = failing(&p, &table);
    assert_eq!(code, Some(1));
    assert!(last.starts_with("error: these credentials are not allowed 'dynamodb:ExportTableToPointInTime', so starting the export is skipped; add it to the IAM policy"), "{last}");

    let p = proxy(
        FaultConfig::none()
            .answer(
                "ExportTableToPointInTime",
                200,
                &description(&table, "IN_PROGRESS", ""),
            )
            .deny("DescribeExport", "dynamodb:DescribeExport"),
    );
    let out = export_start(&p, &[&table, "--s3-bucket", "exports", "--yes"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(&format!("started {}", export_arn(&table))));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: these credentials are not allowed 'dynamodb:DescribeExport', so following the export is skipped"), "{err}");
}

#[test]
fn bad_flags_are_one_line_and_exit_2_before_anything_is_sent() {
    let p = proxy(FaultConfig::none());
    let from = "2026-01-01T00:00:00Z";
    let cases: &[(&[&str], &str)] = &[
        (
            &["--from", from],
            "--from '2026-01-01T00:00:00Z' needs --incremental",
        ),
        (
            &["--to", from],
            "--to '2026-01-01T00:00:00Z' needs --incremental",
        ),
        (
            &["--incremental", "--to", from],
            "--incremental needs --from",
        ),
        (
            &["--incremental", "--from", from],
            "--incremental needs --to",
        ),
        (
            &["--incremental", "--from", "noon", "--to", from],
            "--from 'noon' is not a time",
        ),
        (
            &[
                "--incremental",
                "--from",
                from,
                "--to",
                "2026-01-01T00:00:00",
            ],
            "--to '2026-01-01T00:00:00' is not a time (it has no time zone",
        ),
        (
            &["--incremental", "--from", from, "--to", "1767225000"],
            "--to '1767225000' is not after --from",
        ),
        (
            &[
                "--incremental",
                "--from",
                from,
                "--to",
                "2026-01-01T00:10:00Z",
            ],
            "is 10 minutes long and an incremental export covers at least 15 minutes",
        ),
        (
            &[
                "--incremental",
                "--from",
                from,
                "--to",
                "2026-01-03T00:00:00Z",
            ],
            "is 2880 minutes long and an incremental export covers at most 24 hours",
        ),
        (
            &["--s3-bucket-owner", "me"],
            "--s3-bucket-owner 'me' is not an AWS account id",
        ),
        (&["--format", "CSV"], "'CSV'"),
    ];
    for (extra, want) in cases {
        let mut args = vec!["some-table", "--s3-bucket", "exports"];
        args.extend_from_slice(extra);
        let out = export_start(&p, &args, "");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
    }
    for (args, want) in [
        (
            vec!["some-table", "--s3-bucket", "s3://exports/p"],
            "--s3-bucket 's3://exports/p' is not an S3 bucket name",
        ),
        (vec!["some-table"], "--s3-bucket"),
    ] {
        let out = export_start(&p, &args, "");
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    assert!(p.log().is_empty(), "{}", p.summary());
}
