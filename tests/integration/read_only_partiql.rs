//! Read-only is a property of the bytes sent: PartiQL writes hidden by comments (`--` ended by
//! CR as DynamoDB ends it, `/* */` blocks), by odd whitespace or case, behind a `;`, and
//! EXISTS, sent through the read-only MCP `partiql` tool and `dynoscope partiql --allow-scan`
//! without `--allow-writes`, against DynamoDB Local. boto3 finds the item as it was, and the
//! fault proxy sees no ExecuteStatement but the SELECT re-rendered without its comments.

use std::process::Stdio;

use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;
use dynoscope::model::query::partiql::is_bulk_write;

fn smuggled(table: &str) -> Vec<String> {
    let t = table;
    vec![
        format!("--\rUPDATE \"{t}\" SET a = 666 WHERE PK = 'x' /*\nSELECT * FROM \"{t}\" WHERE a IS NULL */"),
        format!("--\rDELETE FROM \"{t}\" WHERE PK = 'x' /*\nSELECT * FROM \"{t}\" WHERE a IS NULL */"),
        format!("--\r\ninsert INTO \"{t}\" VALUE {{'PK': 'y'}} /*\nSELECT * FROM \"{t}\" */"),
        format!("/* SELECT */ UpDaTe \"{t}\" SET a = 666 WHERE PK = 'x'"),
        format!("\u{b}\u{c}DELETE FROM \"{t}\" WHERE PK = 'x'"),
        format!("--\rEXISTS(SELECT * FROM \"{t}\" WHERE PK = 'x')"),
        format!("--\rBEGIN TRANSACTION"),
        format!("SELECT * FROM \"{t}\" WHERE a IS NULL; DELETE FROM \"{t}\" WHERE PK = 'x'"),
    ]
}

#[test]
fn writes_hidden_from_the_lexer_are_refused_on_every_read_only_path() {
    let endpoint = &local().endpoint;
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let table = table_name("smuggle");
    // MCP: the scenario creates the table with boto3, sends each statement, checks the table.
    let out = crate::mcp::client("smuggle", &table, endpoint, &proxy.url, &[], None);
    assert_eq!(out["items"], 1, "{out}");
    let sent = proxy.bodies("ExecuteStatement");
    assert_eq!(sent.len(), 1, "only the commented SELECT is sent: {sent:?}");
    let body: serde_json::Value = serde_json::from_str(&sent[0]).unwrap();
    assert_eq!(
        body["Statement"],
        format!("SELECT * FROM \"{table}\" WHERE a IS NOT NULL"),
        "sent without its comments"
    );
    proxy.clear_log();

    // The command line, without --allow-writes: exit 2, one line, nothing sent.
    for statement in smuggled(&table) {
        let mut cmd = std::process::Command::new(bin());
        let out = aws_env(&mut cmd)
            .args([
                "--endpoint-url",
                &proxy.url,
                "partiql",
                "--allow-scan",
                "--",
            ])
            .arg(&statement)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let (err, said) = (stderr(&out), stdout(&out));
        if is_bulk_write(&statement) {
            // Read as the UPDATE or DELETE it is: the conditional bulk writer's dry run,
            // which names the flag that would write.
            assert!(
                format!("{said}{err}").contains("--allow-writes"),
                "{statement:?}: {said}{err}"
            );
        } else {
            assert_eq!(out.status.code(), Some(2), "{statement:?}: {err}");
            assert!(said.is_empty(), "{statement:?}: {said}");
            assert_eq!(err.lines().count(), 1, "{statement:?}: {err}");
        }
    }
    let operations = proxy.operations();
    for write in [
        "ExecuteStatement",
        "BatchExecuteStatement",
        "ExecuteTransaction",
        "UpdateItem",
        "DeleteItem",
        "PutItem",
        "BatchWriteItem",
        "TransactWriteItems",
    ] {
        assert!(
            !operations.contains_key(write),
            "{write} was sent: {operations:?}"
        );
    }

    // EXPLAIN shows, and the read sends, the SELECT without its comments.
    let select = format!("SELECT * FROM \"{table}\" -- why\rWHERE a IS NOT NULL /* all */");
    let out = run_at(&proxy.url, &["partiql", "--explain", "--", &select]);
    let text = ok(out);
    assert!(
        text.contains(&format!(
            "SELECT * FROM \\\"{table}\\\" WHERE a IS NOT NULL"
        )) || text.contains(&format!("SELECT * FROM \"{table}\" WHERE a IS NOT NULL")),
        "{text}"
    );
    assert!(!text.contains("why") && !text.contains("/*"), "{text}");
    let out = run_at(&proxy.url, &["partiql", "--allow-scan", "--", &select]);
    let items = lines(&ok(out));
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0]["a"], 1, "{items:?}");
    let sent = proxy.bodies("ExecuteStatement");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(
        sent[0].contains(&format!(
            "\"Statement\":\"SELECT * FROM \\\"{table}\\\" WHERE a IS NOT NULL\""
        )),
        "{}",
        sent[0]
    );
}
