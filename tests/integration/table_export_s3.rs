//! `--export s3://…` against a local S3 server (moto): the exports of tests/integration/table_export.rs,
//! uploaded as AWS lays them out (`exports/AWSDynamoDB/<id>/…`), must read exactly as the table
//! itself does; a damaged or missing object is named in its line and the run fails (exit 1).

use crate::common;
use crate::common::table_export;

use crate::common::export_fixture;
use crate::common::moto;

use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use common::*;
use export_fixture::*;
use moto::*;
use table_export::*;

/// The fixture's two exports, uploaded once: `s3://dyno-json/exports/…`, `s3://dyno-ion/…`.
fn uploaded() -> &'static Fixture {
    static DONE: OnceLock<()> = OnceLock::new();
    let f = fixture();
    DONE.get_or_init(|| {
        tokio::runtime::Runtime::new().unwrap().block_on(async {
            upload("dyno-json", &f.json.root, "exports/").await;
            upload("dyno-ion", &f.ion.root, "exports/").await;
        })
    });
    f
}

/// Runs the binary with DynamoDB at DynamoDB Local (`--endpoint-url`) and S3 at moto (the SDK's
/// own `AWS_ENDPOINT_URL_S3`: `--endpoint-url` names DynamoDB's only).
fn run_s3(args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env("AWS_ENDPOINT_URL_S3", &moto().endpoint)
        .arg("--endpoint-url")
        .arg(&local().endpoint)
        .args(args);
    cmd.stdin(Stdio::null()).output().expect("run dynoscope")
}

fn url(bucket: &str, layout: &ExportLayout) -> String {
    format!("s3://{bucket}/exports/AWSDynamoDB/{}/", layout.id)
}

#[test]
fn scan_of_an_s3_export_equals_scan_of_the_table_in_both_formats() {
    let f = uploaded();
    let want = sorted(&f.scanned.join("\n"));
    assert_eq!(want.len(), 402);
    for given in [
        url("dyno-json", &f.json),
        url("dyno-ion", &f.ion),
        // A prefix above AWSDynamoDB/<id>/ is accepted too, with or without its slash.
        "s3://dyno-json/exports".to_string(),
        "s3://dyno-ion/exports/".to_string(),
    ] {
        for segments in ["1", "3"] {
            let out = ok(run_s3(&[
                "scan",
                "--export",
                &given,
                "--output",
                "ddb-jsonl",
                "--segments",
                segments,
            ]));
            assert_eq!(sorted(&out), want, "{given} segments {segments}");
        }
    }
}

#[test]
fn hotkeys_of_an_s3_export_equals_hotkeys_of_the_table_and_its_index() {
    let f = uploaded();
    for index in [None, Some("GSI1")] {
        let mut table_args = vec!["hotkeys", f.table.as_str(), "--top", "50"];
        table_args.extend(index.iter().flat_map(|i| ["--index", *i]));
        let want = ok(run(&table_args));
        for given in [url("dyno-json", &f.json), url("dyno-ion", &f.ion)] {
            let mut args = vec!["hotkeys", "--export", given.as_str(), "--top", "50"];
            args.extend(index.iter().flat_map(|i| ["--index", *i]));
            assert_eq!(ok(run_s3(&args)), want, "{index:?} {given}");
        }
    }
}

#[test]
fn damaged_and_missing_objects_are_named_and_the_run_fails() {
    let f = uploaded();
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(dir.path(), &f.table, Format::DynamoJson, &f.scanned, 4, 1);
    let truncated = truncate(&layout, 0);
    let replaced = replace_with(&layout, 2, "");
    let missing = name_of(&layout, 1);
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        upload("dyno-damaged", &layout.root, "exports/").await;
        delete("dyno-damaged", &missing).await;
    });
    let given = url("dyno-damaged", &layout);
    let out = run_s3(&["scan", "--export", &given, "--output", "ddb-jsonl"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    let has = |want: &str| lines.iter().any(|l| l.contains(want));
    assert!(has(&format!("'{truncated}' is corrupt after")), "{err}");
    assert!(
        has(&format!("'{missing}' is missing; its 101 items")),
        "{err}"
    );
    // The MD5 is of the bytes read from S3, as on disk.
    assert!(has(&format!("'{replaced}' has MD5")), "{err}");
    let written = stdout(&out).lines().count();
    assert!(written >= 100, "{written}");
    assert!(
        lines.last().unwrap().starts_with(&format!(
            "error: export incomplete: {written} of the 402 items"
        )),
        "{err}"
    );

    // A prefix with no export, a bucket that does not exist: one line each, naming it.
    for (given, want) in [
        (
            "s3://dyno-json/nothing/",
            "no export in 's3://dyno-json/nothing/'",
        ),
        (
            "s3://no-such-bucket/exports/",
            "bucket 'no-such-bucket' does not exist",
        ),
    ] {
        let out = run_s3(&["scan", "--export", given]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{given}: {err}");
        assert_eq!(err.lines().count(), 1, "{given}: {err}");
        assert!(err.contains(want), "{given}: {err}");
    }
    // A manifest gone: the object is named.
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let key = format!("exports/AWSDynamoDB/{}/manifest-files.json", layout.id);
        delete("dyno-damaged", &key).await;
    });
    let out = run_s3(&["scan", "--export", &given]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("'{given}manifest-files.json': it does not exist")),
        "{err}"
    );
}

#[test]
fn a_local_s3_endpoint_needs_no_credentials() {
    let f = uploaded();
    // No keys anywhere and no DynamoDB (--key): the local S3 server gets the dummy keys
    // DynamoDB Local would.
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env("AWS_ENDPOINT_URL_S3", &moto().endpoint)
        .args(["scan", "--export", &url("dyno-json", &f.json)])
        .args(["--key", "PK,SK", "--output", "ddb-jsonl"]);
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    assert_eq!(
        sorted(&ok(out)),
        sorted(&f.scanned.join("\n")),
        "the export without credentials"
    );
}

/// The same output from the export on disk and in S3 (what the disk read gives is checked
/// against the table in tests/integration/table_export.rs).
fn same_from_disk_and_s3(args: &[&str], disk: &str, s3: &str) {
    let with = |given: &str| {
        let args: Vec<&str> = args
            .iter()
            .map(|a| if *a == "EXPORT" { given } else { a })
            .collect();
        ok(run_s3(&args))
    };
    let from_disk = with(disk);
    assert!(!from_disk.is_empty(), "{args:?}");
    assert_eq!(with(s3), from_disk, "{args:?}");
}

#[test]
fn tail_and_athena_read_an_s3_export_as_they_read_it_on_disk() {
    use dynoscope::model::exports::table_export::Change;
    use dynoscope::model::item::value::{AttrValue, Item};
    let f = uploaded();
    let key = |pk: &str| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.into())),
            ("SK".into(), AttrValue::S("A".into())),
        ])
    };
    let changes: Vec<Change> = (0..40u64)
        .map(|t| Change {
            write_micros: 1_764_000_000_000_000 + (t * 7919) % 40,
            keys: key(if t % 3 == 0 { "HOT" } else { "COLD" }),
            new_image: (t % 5 != 4).then(|| key("X")),
            old_image: (t > 1).then(|| key("Y")),
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (format, bucket) in [
        (Format::DynamoJson, "dyno-incr-json"),
        (Format::Ion, "dyno-incr-ion"),
    ] {
        let layout = write_incremental_export(dir.path(), "orders", format, &changes, 3);
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(upload(bucket, &layout.root, "exports/"));
        let (disk, s3) = (path(&layout.folder), url(bucket, &layout));
        let tail = ["tail", "--export", "EXPORT", "--key", "PK,SK"];
        same_from_disk_and_s3(&tail, &disk, &s3);
        let out = ok(run_s3(&["tail", "--export", &s3, "--key", "PK,SK"]));
        assert_eq!(out.lines().count(), 40, "{format:?}");
    }
    let athena = ["hotkeys", "--export", "EXPORT", "--athena", "--top", "5"];
    same_from_disk_and_s3(&athena, &path(&f.json.folder), &url("dyno-json", &f.json));
}

#[test]
fn the_s3_endpoint_may_come_from_a_profiles_services_section() {
    let f = uploaded();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::write(
        &config,
        format!(
            "[profile exports]\nregion = us-east-1\nservices = local-s3\n\n[services local-s3]\ns3 =\n  endpoint_url = {}\n",
            moto().endpoint
        ),
    )
    .unwrap();
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env("AWS_CONFIG_FILE", &config)
        .env_remove("AWS_ENDPOINT_URL_S3")
        .args(["--profile", "exports", "--endpoint-url", &local().endpoint])
        .args([
            "hotkeys",
            "--export",
            &url("dyno-json", &f.json),
            "--top",
            "50",
        ]);
    let out = cmd.stdin(Stdio::null()).output().unwrap();
    assert_eq!(ok(out), ok(run(&["hotkeys", &f.table, "--top", "50"])));
}
