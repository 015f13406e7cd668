//! The Athena SQL of `hotkeys --export --athena`, checked by DuckDB where the two dialects
//! agree. Every SELECT must parse with DuckDB's parser, and, run by DuckDB over the same
//! export's gzip data files (read as Athena's one-column `line` table), it must rank the same
//! partition keys with the same item counts as `hotkeys --export` itself. Two differences
//! between the dialects are bridged by the harness, not by dynoscope: DuckDB has no
//! `json_extract_scalar` (a macro over its `json_extract_string`), and its JSONPath lacks the
//! bracket form Athena takes (`$["Item"]["PK"]["S"]`), so paths are given to DuckDB as the
//! same JSON Pointer. The `CREATE EXTERNAL TABLE` is Hive DDL, which DuckDB does not speak; its
//! text is pinned by the snapshots in crates/dynoscope-model/src/exports/table_export.

use crate::common;
use crate::common::table_export;

use std::io::Write;
use std::process::Stdio;

use common::*;
use table_export::*;

/// Parses each SELECT of the SQL on stdin, runs it over the data files in argv[1] and prints
/// `{"statements": N, "ranked": [[[key, items], …] per statement]}`.
const DUCKDB: &str = r#"
import duckdb, json, re, sys
sql, glob = sys.stdin.read(), sys.argv[1]
con = duckdb.connect()
con.execute("CREATE MACRO json_extract_scalar(j, p) AS json_extract_string(j, p)")

def pointer(literal):
    # '$["Item"]["a''b"]["S"]' (an SQL literal holding a bracket JSONPath) -> '/Item/a''b/S'
    path = literal[1:-1].replace("''", "'")
    names = [json.loads('"' + s + '"') for s in re.findall(r'\["((?:[^"\\]|\\.)*)"\]', path)]
    text = "/" + "/".join(n.replace("~", "~0").replace("/", "~1") for n in names)
    return "'" + text.replace("'", "''") + "'"

ranked = []
blocks = [b for b in sql.split("\n\n") if "SELECT" in b]
for block in blocks:
    statement = "\n".join(l for l in block.splitlines() if not l.startswith("--"))
    parsed = json.loads(con.execute("SELECT json_serialize_sql(?)", [statement]).fetchone()[0])
    if parsed["error"]:
        sys.exit("DuckDB cannot parse:\n" + statement + "\n" + parsed.get("error_message", ""))
    table = re.search(r"FROM (\w+)", statement).group(1)
    con.execute(f"CREATE OR REPLACE VIEW {table} AS SELECT json::VARCHAR AS line "
                f"FROM read_json_objects('{glob}', format='newline_delimited')")
    runnable = re.sub(r"'\$\[(?:[^']|'')*'", lambda m: pointer(m.group(0)), statement)
    rows = con.execute(runnable.rstrip().rstrip(";")).fetchall()
    ranked.append([[key, items] for key, items, _ in rows])
print(json.dumps({"statements": len(blocks), "ranked": ranked}))
"#;

fn duckdb(sql: &str, glob: &str) -> serde_json::Value {
    let mut child = common::pyfork::python()
        .args(["-c", DUCKDB, glob])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sql.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "DuckDB: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Items under `pk_name`, partition key `k` holding `3 * (k + 1)` items so the ranking has no
/// ties; the key values hold quotes, backslashes, escapes and wide text.
fn items(pk_name: &str) -> Vec<String> {
    let values = [
        "TENANT#plain",
        "it's \"quoted\"",
        "back\\slash",
        "esc\u{1b}[2Jape",
        "漢字🦀",
        "semi;colon -- not a comment",
        "slash/and~tilde",
    ];
    let mut lines = Vec::new();
    for (k, value) in values.iter().enumerate() {
        for i in 0..3 * (k + 1) {
            let item = serde_json::json!({
                pk_name: {"S": value},
                "SK": {"S": format!("ITEM#{i:03}")},
                "n": {"N": "12345678901234567890123456789012345678"},
            });
            lines.push(item.to_string());
        }
    }
    lines
}

fn check(pk_name: &str) {
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(
        dir.path(),
        "athena",
        Format::DynamoJson,
        &items(pk_name),
        3,
        1,
    );
    let folder = layout.folder.display().to_string();
    let key = format!("{pk_name},SK");
    // --key: nothing is asked of DynamoDB, so no endpoint is given.
    let hotkeys = |extra: &[&str]| {
        let mut args = vec!["hotkeys", "--export", &folder, "--key", &key, "--top", "5"];
        args.extend_from_slice(extra);
        ok(run_raw(&args, &[]))
    };
    let sql = hotkeys(&["--athena"]);
    let report: serde_json::Value = serde_json::from_str(&hotkeys(&[])).unwrap();
    let ours: Vec<serde_json::Value> = report["top"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| serde_json::json!([e["key"], e["items"]]))
        .collect();
    assert_eq!(ours.len(), 5, "{report}");
    let glob = layout.folder.join("data/*.json.gz").display().to_string();
    let duck = duckdb(&sql, &glob);
    assert_eq!(
        duck["statements"], 1,
        "one SELECT for the table's key:\n{sql}"
    );
    assert_eq!(
        duck["ranked"][0],
        serde_json::Value::Array(ours),
        "DuckDB running the Athena SQL ranks what hotkeys ranks:\n{sql}"
    );
}

#[test]
fn the_athena_sql_parses_and_ranks_the_keys_hotkeys_ranks() {
    check("PK");
}

#[test]
fn a_key_attribute_name_with_quotes_backslashes_and_hashes_stays_one_sql_literal() {
    check(r##"St'ate"#\Date"##);
}

/// Reads the SQL on stdin with DuckDB's own tokenizer (which skips comments) and splits it at
/// each `;` token: prints `{"statements": [first keyword of each], "selects_parsed": N}`, each
/// SELECT also parsed as exactly one statement.
const DUCKDB_STATEMENTS: &str = r#"
import duckdb, json, sys
sql = sys.stdin.read()
con = duckdb.connect()
tokens = duckdb.tokenize(sql)
starts, firsts, at_start = [], [], True
for i, (pos, kind) in enumerate(tokens):
    end = tokens[i + 1][0] if i + 1 < len(tokens) else len(sql)
    text = sql[pos:end].strip()
    if at_start:
        starts.append(pos)
        firsts.append(text.split()[0].upper() if text else "")
        at_start = False
    if kind == duckdb.token_type.operator and text.startswith(";"):
        at_start = True
parsed = 0
for i, start in enumerate(starts):
    if firsts[i] != "SELECT":
        continue
    stop = starts[i + 1] if i + 1 < len(starts) else len(sql)
    text = sql[start:stop]
    out = json.loads(con.execute("SELECT json_serialize_sql(?)", [text]).fetchone()[0])
    if out["error"] or len(out["statements"]) != 1:
        sys.exit("DuckDB does not read one SELECT:\n" + text + "\n" + json.dumps(out)[:400])
    parsed += 1
print(json.dumps({"statements": firsts, "selects_parsed": parsed}))
"#;

fn duckdb_statements(sql: &str) -> serde_json::Value {
    let mut child = common::pyfork::python()
        .args(["-c", DUCKDB_STATEMENTS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run python");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(sql.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "DuckDB: {}\n{sql}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Text an export's metadata or a table's key names may hold: quotes, a newline that would end
/// a comment, SQL after it, a comment closer, ESC and BEL (an OSC retitling the terminal).
const HOSTILE: &str = "2026'\"\nDROP TABLE important; -- \u{1b}]0;PWNED\u{7} */ \\' \r\t;";

fn hostile_info() -> dynoscope::model::design::schema::TableInfo {
    use dynoscope::model::design::schema::*;
    let key = |name: &str| KeyAttr {
        name: name.to_string(),
        key_type: KeyType::S,
    };
    TableInfo {
        name: format!("app{HOSTILE}"),
        status: "ACTIVE".into(),
        keys: KeySchema::simple(key(&format!("PK{HOSTILE}")), Some(key("SK"))),
        indexes: vec![
            IndexInfo::gsi_projecting_all(
                format!("GSI{HOSTILE}"),
                KeySchema::simple(key(&format!("G{HOSTILE}\u{202e}")), None),
            ),
            // A multi-attribute GSI: its SELECT has a column per partition attribute and a
            // condition per key attribute, each name hostile.
            IndexInfo::gsi_projecting_all(
                format!("Multi{HOSTILE}"),
                KeySchema::new(
                    vec![key(&format!("t{HOSTILE}")), key(&format!("r{HOSTILE}"))],
                    vec![KeyAttr {
                        name: format!("n{HOSTILE}"),
                        key_type: KeyType::N,
                    }],
                )
                .unwrap(),
            ),
        ],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: 0,
        size_bytes: 0,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

fn assert_inert(sql: &str) {
    for (i, b) in sql.bytes().enumerate() {
        assert!(
            b >= 0x20 && b != 0x7f || b == b'\n',
            "byte {b:#04x} at {i} is written raw:\n{sql}"
        );
    }
    for bad in ["\u{202e}", "\u{85}", "\u{9b}"] {
        assert!(!sql.contains(bad), "{bad:?} written raw:\n{sql}");
    }
    // No line the generator did not write itself: every line is a comment, or SQL it wrote.
    for line in sql.lines() {
        assert!(
            !line.trim_start().to_ascii_uppercase().starts_with("DROP"),
            "an injected line:\n{sql}"
        );
    }
}

#[test]
fn hostile_export_metadata_and_key_names_stay_inside_their_literals_and_comments() {
    use dynoscope::model::exports::table_export::{athena_sql, ManifestSummary};
    let text = |s: &str| serde_json::Value::String(s.to_string());
    for format in ["DYNAMODB_JSON", "ION"] {
        let summary = serde_json::json!({
            "exportArn": format!("arn:aws:dynamodb:us-east-1:1:table/app/export/0170-{HOSTILE}"),
            "tableArn": text(&format!("arn:aws:dynamodb:us-east-1:1:table/app{HOSTILE}")),
            "exportTime": text(HOSTILE),
            "s3Bucket": text(&format!("bucket{HOSTILE}")),
            "s3Prefix": text(&format!("pre{HOSTILE}/fix")),
            "outputFormat": format,
        });
        let summary = ManifestSummary::parse(&summary.to_string()).unwrap();
        let sql = athena_sql(&hostile_info(), &summary, 10);
        assert_inert(&sql);
        let read = duckdb_statements(&sql);
        assert_eq!(
            read["statements"],
            serde_json::json!(["CREATE", "SELECT", "SELECT", "SELECT"]),
            "{format}: one DDL and a SELECT per key, each one statement:\n{sql}"
        );
        assert_eq!(read["selects_parsed"], 3, "{format}:\n{sql}");
    }
}

#[test]
fn the_printed_athena_sql_of_an_export_with_hostile_metadata_is_inert() {
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(dir.path(), "athena", Format::DynamoJson, &items("PK"), 1, 0);
    // The summary as a hostile writer left it: its checksum file removed, not recomputed.
    let path = layout.folder.join("manifest-summary.json");
    let mut summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    summary["exportTime"] = serde_json::Value::String(HOSTILE.into());
    summary["s3Bucket"] = serde_json::Value::String(format!("b{HOSTILE}"));
    summary["s3Prefix"] = serde_json::Value::String(format!("p{HOSTILE}"));
    std::fs::write(&path, summary.to_string()).unwrap();
    let _ = std::fs::remove_file(layout.folder.join("manifest-summary.checksum"));
    let folder = layout.folder.display().to_string();
    let sql = ok(run_raw(
        &["hotkeys", "--export", &folder, "--key", "PK,SK", "--athena"],
        &[],
    ));
    assert_inert(&sql);
    let read = duckdb_statements(&sql);
    assert_eq!(
        read["statements"],
        serde_json::json!(["CREATE", "SELECT"]),
        "{sql}"
    );
}
