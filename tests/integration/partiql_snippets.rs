//! The boto3 and AWS SDK for JavaScript v3 snippets `partiql --explain` prints, run against
//! DynamoDB Local (boto3 from the venv and the SDK from the node modules that
//! scripts/install-corpus-tools.sh installs): they return the same items as `dynoscope partiql`.

use crate::common;

use common::corpus::corpus_node_dir;
use common::*;
use dynoscope::model::formats::json::parse_dynamo_item;
use dynoscope::model::item::value::Item;
use dynoscope::model::query::partiql::{dialects, parse, parse_parameters, translate, Statement};
use std::process::{Command, Stdio};

fn demo() -> &'static str {
    shared_demo(40)
}

fn plan_for(statement: &str, parameters: &str) -> dynoscope::model::query::partiql::Plan {
    let table = demo();
    let Ok(Statement::Select(select)) = parse(statement) else {
        panic!("{statement}")
    };
    let info = block_on(async {
        let conn = dynoscope::aws::connect(&dynoscope::aws::ConnectOptions {
            endpoint_url: Some(local().endpoint.clone()),
            region: Some("us-east-1".into()),
            ..Default::default()
        })
        .await
        .unwrap();
        dynoscope::aws::Engine::new(&conn)
            .describe_table(table)
            .await
            .unwrap()
    });
    translate(&select, &parse_parameters(parameters).unwrap(), &info).unwrap()
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

fn run_snippet(mut cmd: Command, args: &[&str]) -> Vec<String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    aws_env(&mut cmd)
        .args(args)
        .env("AWS_ENDPOINT_URL", &local().endpoint)
        // botocore reads its region from AWS_DEFAULT_REGION only.
        .env("AWS_DEFAULT_REGION", "us-east-1")
        .env("AWS_ACCESS_KEY_ID", "dummy")
        .env("AWS_SECRET_ACCESS_KEY", "dummy")
        .stdin(Stdio::null());
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    sorted(&String::from_utf8_lossy(&out.stdout))
}

fn sorted(ddb_json_lines: &str) -> Vec<String> {
    let mut items: Vec<String> = ddb_json_lines
        .lines()
        .map(|l| {
            let item: Item = parse_dynamo_item(l).unwrap();
            let mut out = String::new();
            dynoscope::model::formats::json::append_dynamo_json(&mut out, &item);
            out
        })
        .collect();
    items.sort();
    items
}

fn both_snippets_return_what_dynoscope_does(statement: &str, parameters: &str) {
    let plan = plan_for(statement, parameters);
    let expected = sorted(&ok(run(&[
        "partiql",
        statement,
        "--parameters",
        parameters,
        "--allow-scan",
        "--output",
        "ddb-jsonl",
    ])));
    assert!(!expected.is_empty(), "{statement} returns items");
    let dir = tempfile::tempdir().unwrap();
    let python = dir.path().join("snippet.py");
    std::fs::write(&python, dialects::boto3(&plan)).unwrap();
    let boto3 = run_snippet(common::pyfork::python(), &[python.to_str().unwrap()]);
    assert_eq!(boto3, expected, "boto3 for {statement}");
    // ESM resolves packages from the script's own directory upwards.
    let node_dir = corpus_node_dir();
    let js = node_dir.join(format!("partiql-snippet-{}.mjs", table_name("js")));
    std::fs::write(&js, dialects::javascript(&plan)).unwrap();
    let node = run_snippet(Command::new("node"), &[js.to_str().unwrap()]);
    let _ = std::fs::remove_file(&js);
    assert_eq!(node, expected, "JavaScript v3 for {statement}");
}

#[test]
fn a_query_with_a_filter_and_a_projection() {
    let table = demo();
    both_snippets_return_what_dynoscope_does(
        &format!(
            "SELECT PK, SK, status, total FROM \"{table}\".\"GSI1\" WHERE GSI1PK = ? AND total > 10"
        ),
        r#"["STATUS#SHIPPED"]"#,
    );
}

#[test]
fn several_queries_of_an_in() {
    let table = demo();
    both_snippets_return_what_dynoscope_does(
        &format!(
            "SELECT * FROM \"{table}\".\"GSI1\" WHERE GSI1PK IN ['STATUS#SHIPPED', 'STATUS#DELIVERED'] ORDER BY GSI1SK DESC"
        ),
        "[]",
    );
}

#[test]
fn a_scan_with_hostile_values() {
    let table = demo();
    both_snippets_return_what_dynoscope_does(
        &format!(
            "SELECT * FROM \"{table}\" WHERE status = ? OR status = 'it''s `${{x}}` \\ \"q\"'"
        ),
        r#"[{"S":"SHIPPED"}]"#,
    );
}
