use super::*;

const ARN: &str = "arn:aws:dynamodb:us-east-1:123456789012:table/app";

#[test]
fn times_in_rfc_3339_and_epoch_seconds() {
    let cases: &[(&str, Result<i64, &str>)] = &[
        ("1767268800", Ok(1_767_268_800_000)),
        ("1767268800.25", Ok(1_767_268_800_250)),
        ("2026-01-01T12:00:00Z", Ok(1_767_268_800_000)),
        ("2026-01-01t12:00:00z", Ok(1_767_268_800_000)),
        ("2026-01-01 12:00:00Z", Ok(1_767_268_800_000)),
        ("2026-01-01T14:00:00+02:00", Ok(1_767_268_800_000)),
        ("2026-01-01T07:30:00-04:30", Ok(1_767_268_800_000)),
        ("2026-01-01T12:00:00.123456Z", Ok(1_767_268_800_123)),
        ("2024-02-29T00:00:00Z", Ok(1_709_164_800_000)),
        ("1970-01-01T00:00:00Z", Ok(0)),
        ("", Err("it is empty")),
        ("yesterday", Err("neither RFC 3339 nor epoch seconds")),
        ("2026-01-01", Err("neither RFC 3339 nor epoch seconds")),
        ("2026-01-01T12:00:00", Err("no time zone")),
        ("2026-01-01T12:00Z", Err("neither RFC 3339")),
        ("2025-02-29T00:00:00Z", Err("not in the calendar")),
        ("2026-13-01T00:00:00Z", Err("not in the calendar")),
        ("2026-01-01T25:00:00Z", Err("time of day is out of range")),
        ("2026-01-01T12:00:00+2", Err("offset is not ±HH:MM")),
        (
            "2026-01-01T12:00:00.Z",
            Err("fraction of a second is empty"),
        ),
        ("1.2.3", Err("not a number of seconds")),
        ("99999999999999999999", Err("past the year 9999")),
        ("2026-01-01T12:00:00€", Err("no time zone")),
        ("2026-01-01T12:00:0€+00:00", Err("neither RFC 3339")),
        ("€€€€€€€€€€€", Err("neither RFC 3339")),
    ];
    for (text, want) in cases {
        match (parse_instant(text), want) {
            (Ok(got), Ok(want)) => assert_eq!(got, *want, "{text}"),
            (Err(got), Err(want)) => assert!(got.contains(want), "{text}: {got}"),
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }
}

/// `--incremental`, `--from`, `--to`, and the window in ms or a part of the error.
type WindowCase<'a> = (
    bool,
    Option<&'a str>,
    Option<&'a str>,
    Result<Option<(i64, i64)>, &'a str>,
);

#[test]
fn the_window_follows_aws_rules() {
    let from = "2026-01-01T00:00:00Z";
    let cases: &[WindowCase] = &[
        (false, None, None, Ok(None)),
        (
            true,
            Some(from),
            Some("2026-01-01T01:00:00Z"),
            Ok(Some((1_767_225_600_000, 1_767_229_200_000))),
        ),
        (
            true,
            Some(from),
            Some("2026-01-01T00:15:00Z"),
            Ok(Some((1_767_225_600_000, 1_767_226_500_000))),
        ),
        (
            true,
            Some(from),
            Some("2026-01-02T00:00:00Z"),
            Ok(Some((1_767_225_600_000, 1_767_312_000_000))),
        ),
        (
            false,
            Some(from),
            None,
            Err("--from '2026-01-01T00:00:00Z' needs --incremental"),
        ),
        (
            false,
            None,
            Some(from),
            Err("--to '2026-01-01T00:00:00Z' needs --incremental"),
        ),
        (true, None, Some(from), Err("--incremental needs --from")),
        (true, Some(from), None, Err("--incremental needs --to")),
        (
            true,
            Some("noon"),
            Some(from),
            Err("--from 'noon' is not a time (it is neither"),
        ),
        (
            true,
            Some(from),
            Some("1767225600"),
            Err("--to '1767225600' is not after --from '2026-01-01T00:00:00Z'; swap them"),
        ),
        (
            true,
            Some(from),
            Some("2025-12-31T23:00:00Z"),
            Err("is not after"),
        ),
        (
            true,
            Some(from),
            Some("2026-01-01T00:14:59Z"),
            Err(
                "is 14 minutes long and an incremental export covers at least 15 minutes; widen it",
            ),
        ),
        (
            true,
            Some(from),
            Some("2026-01-02T00:00:01Z"),
            Err("is 1440 minutes long and an incremental export covers at most 24 hours"),
        ),
    ];
    for (incremental, from, to, want) in cases {
        let got = window(*incremental, *from, *to);
        match (got, want) {
            (Ok(got), Ok(want)) => {
                assert_eq!(got.map(|w| (w.from_ms, w.to_ms)), *want, "{from:?} {to:?}")
            }
            (Err(got), Err(want)) => {
                assert!(got.to_string().contains(want), "{from:?} {to:?}: {got}")
            }
            (got, want) => panic!("{from:?} {to:?}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn bucket_names_and_owners_are_checked() {
    for ok in ["my-bucket", "abc", "a.b-c.1", &"a".repeat(63)] {
        assert_eq!(check_bucket(ok), Ok(()), "{ok}");
    }
    for bad in [
        "ab",
        "My-Bucket",
        "s3://b/p",
        "-ab",
        "ab-",
        "a..b",
        "b_c",
        &"a".repeat(64),
    ] {
        let e = check_bucket(bad).unwrap_err().to_string();
        assert!(e.starts_with(&format!("--s3-bucket '{bad}' is not")), "{e}");
    }
    assert_eq!(check_bucket_owner("123456789012"), Ok(()));
    for bad in ["12345678901", "12345678901x", "me"] {
        assert!(check_bucket_owner(bad)
            .unwrap_err()
            .to_string()
            .contains("12 digits"));
    }
}

fn request(prefix: Option<&str>, window: Option<ExportWindow>) -> ExportRequest {
    ExportRequest {
        table_arn: ARN.into(),
        bucket: "exports".into(),
        prefix: prefix.map(str::to_string),
        bucket_owner: None,
        format: ExportFormat::DynamoJson,
        window,
    }
}

#[test]
fn the_aws_cli_command_sends_the_same_request() {
    let base =
        format!("aws dynamodb export-table-to-point-in-time --table-arn {ARN} --s3-bucket exports");
    let window = ExportWindow {
        from_ms: 1_767_225_600_000,
        to_ms: 1_767_229_200_500,
    };
    let mut ion_owned = request(Some("p q"), None);
    ion_owned.format = ExportFormat::Ion;
    ion_owned.bucket_owner = Some("123456789012".into());
    let cases = [
        (request(None, None), format!("{base} --export-format DYNAMODB_JSON")),
        (request(Some("team/exports"), None), format!("{base} --s3-prefix team/exports --export-format DYNAMODB_JSON")),
        (ion_owned, format!("{base} --s3-bucket-owner 123456789012 --s3-prefix 'p q' --export-format ION")),
        (
            request(Some("it's"), Some(window)),
            format!("{base} --s3-prefix 'it'\\''s' --export-format DYNAMODB_JSON --export-type INCREMENTAL_EXPORT --incremental-export-specification ExportFromTime=2026-01-01T00:00:00Z,ExportToTime=2026-01-01T01:00:00.500Z,ExportViewType=NEW_AND_OLD_IMAGES"),
        ),
    ];
    for (request, want) in cases {
        assert_eq!(request.aws_cli(), want);
    }
}

#[test]
fn the_export_folder_and_the_command_that_reads_it() {
    let arn = format!("{ARN}/export/01767225600000-abcd1234");
    let cases = [
        (None, "s3://b/AWSDynamoDB/01767225600000-abcd1234/"),
        (Some(""), "s3://b/AWSDynamoDB/01767225600000-abcd1234/"),
        (Some("p"), "s3://b/p/AWSDynamoDB/01767225600000-abcd1234/"),
        (
            Some("/p/q/"),
            "s3://b/p/q/AWSDynamoDB/01767225600000-abcd1234/",
        ),
    ];
    for (prefix, want) in cases {
        assert_eq!(export_folder("b", prefix, &arn), want, "{prefix:?}");
    }
    assert_eq!(
        read_command("s3://b/p/AWSDynamoDB/x/"),
        "dynoscope scan --export s3://b/p/AWSDynamoDB/x/"
    );
    assert_eq!(
        read_command("s3://b/a b/AWSDynamoDB/x/"),
        "dynoscope scan --export 's3://b/a b/AWSDynamoDB/x/'"
    );
}

#[test]
fn the_cost_is_the_size_times_the_price_or_bounded_by_it() {
    let gib = 1024 * 1024 * 1024;
    let cases: &[(u64, f64, bool, &[&str])] = &[
        (5 * gib, 0.10, false, &["# estimated cost: $0.50: the table's 5.0 GB", "at $0.10 per GB (price_per_gb_export"]),
        (gib / 2, 0.25, false, &["# estimated cost: $0.12", "512.0 MB", "at $0.25 per GB"]),
        (0, 0.10, false, &["# estimated cost: $0: the table's 0 B"]),
        (
            20 * gib,
            0.10,
            true,
            &["depends on the data changed in the window, priced per GB processed at $0.10 per GB", "billed with a 10 MB minimum ($0.00098)", "# upper bound: about $2.00 if it is as much as the whole table (20.0 GB"],
        ),
    ];
    for (size, price, incremental, wants) in cases {
        let text = cost_lines(*size, *price, *incremental).join("\n");
        for want in *wants {
            assert!(text.contains(want), "{size} {price} {incremental}: {text}");
        }
        assert!(text.lines().all(|l| l.starts_with("# ")), "{text}");
    }
}

#[test]
fn the_pitr_message_gives_the_command_that_turns_it_on() {
    assert_eq!(
        pitr_off_message("app"),
        "table 'app' does not have point-in-time recovery on, and an export is read from it; turn it on with: aws dynamodb update-continuous-backups --table-name app --point-in-time-recovery-specification PointInTimeRecoveryEnabled=true"
    );
}
