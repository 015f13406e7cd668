//! The Athena SQL of `hotkeys --export --athena`, checked by DuckDB where the two dialects
//! agree. Every SELECT must parse with DuckDB's parser, and, run by DuckDB over the same
//! export's gzip data files (read as Athena's one-column `line` table), it must rank the same
//! partition keys with the same item counts as `hotkeys --export` itself. Two differences
//! between the dialects are bridged by the harness, not by dynoscope: DuckDB has no
//! `json_extract_scalar` (a macro over its `json_extract_string`), and its JSONPath lacks the
//! bracket form Athena takes (`$["Item"]["PK"]["S"]`), so paths are given to DuckDB as the
//! same JSON Pointer. The `CREATE EXTERNAL TABLE` is Hive DDL, which DuckDB does not speak; its
//! text is pinned by the snapshots in crates/dynoscope-model/src/table_export.

use crate::common;
use crate::common::table_export;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::*;
use table_export::*;

fn venv_python() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let venv = std::env::var_os("PYTHON_VENV_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".cache/python-venv"));
    let python = venv.join("bin/python");
    assert!(
        python.is_file(),
        "duckdb is not installed in {}; run: bash scripts/install-corpus-tools.sh",
        venv.display()
    );
    python
}

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
    let mut child = Command::new(venv_python())
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
