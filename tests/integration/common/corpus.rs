//! The library corpus: single-table designs written by the modelling libraries people use
//! (ElectroDB, dynamodb-toolbox, OneTable), not typed by hand. `tests/corpus/generate.mjs` runs
//! each library's own request builders over models in its idiom and writes one JSON file per
//! design; this module runs it once per test binary, reads the designs and loads one into the
//! test's DynamoDB Local.
//!
//! The libraries are pinned in tests/corpus/package-lock.json and installed into
//! .cache/corpus-node by `bash scripts/install-corpus-tools.sh` (scripts/test.sh runs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, LocalSecondaryIndex, Projection, ProjectionType, PutRequest, ScalarAttributeType,
    WriteRequest,
};
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use serde_json::{Map, Value};

/// The designs `generate.mjs` writes, one file each.
pub const DESIGNS: [&str; 3] = ["electrodb_task_manager", "toolbox_shop", "onetable_game"];

const NOT_INSTALLED: &str =
    "corpus tools are not installed; run: bash scripts/install-corpus-tools.sh";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where scripts/install-corpus-tools.sh put the libraries.
pub fn corpus_node_dir() -> PathBuf {
    match std::env::var_os("CORPUS_NODE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root().join(".cache/corpus-node"),
    }
}

/// Runs `node tests/corpus/generate.mjs OUT` with the installed libraries, panicking with the
/// script's own output when it fails.
pub fn generate_into(out: &Path) {
    let node_dir = corpus_node_dir();
    assert!(
        node_dir.join("node_modules").is_dir() && node_dir.join(".installed-lock-sha256").is_file(),
        "{NOT_INSTALLED} (nothing installed in '{}')",
        node_dir.display()
    );
    let run = Command::new("node")
        .current_dir(root())
        .arg(root().join("tests/corpus/generate.mjs"))
        .arg(out)
        .env("CORPUS_NODE_DIR", &node_dir)
        .env("NODE_PATH", node_dir.join("node_modules"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run 'node' ({e}); install Node.js 20+, then {NOT_INSTALLED}")
        });
    assert!(
        run.status.success(),
        "node tests/corpus/generate.mjs failed ({}):\n{}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The generated designs, written once per test binary into `target/tmp/corpus-<pid>`. Folders
/// left by test processes that have ended are removed first.
pub fn designs_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        remove_stale_dirs(tmp);
        let dir = tmp.join(format!("corpus-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        generate_into(&dir);
        dir
    })
}

fn remove_stale_dirs(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("corpus-"))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// One design as its library wrote it.
#[derive(Debug, Clone)]
pub struct Design {
    pub name: String,
    /// `electrodb@3.9.3`: the package and version that built the items.
    pub library: String,
    /// The CreateTable input, in the DynamoDB API's JSON.
    pub table: Value,
    /// Every item, in DynamoDB JSON (`{"S": …}`, `{"N": …}`, …).
    pub items: Vec<Value>,
}

impl Design {
    /// The table's key attribute names: (hash, range).
    pub fn key_names(&self) -> (String, Option<String>) {
        key_names(&self.table["KeySchema"])
    }
}

fn key_names(schema: &Value) -> (String, Option<String>) {
    let name = |kind: &str| {
        schema
            .as_array()
            .unwrap_or_else(|| panic!("KeySchema is not a list: '{schema}'"))
            .iter()
            .find(|k| k["KeyType"] == kind)
            .map(|k| k["AttributeName"].as_str().unwrap().to_string())
    };
    (
        name("HASH").unwrap_or_else(|| panic!("KeySchema has no HASH key: '{schema}'")),
        name("RANGE"),
    )
}

/// Reads one generated design.
pub fn design(name: &str) -> Design {
    design_in(designs_dir(), name)
}

/// Reads one design from a folder `generate_into` wrote.
pub fn design_in(dir: &Path, name: &str) -> Design {
    let path = dir.join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read design '{}': {e}", path.display()));
    let mut json: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("design '{}' is not JSON: {e}", path.display()));
    let text_of = |json: &Value, field: &str| {
        json[field]
            .as_str()
            .unwrap_or_else(|| panic!("design '{name}' has no string '{field}'"))
            .to_string()
    };
    assert_eq!(
        text_of(&json, "design"),
        name,
        "design file names another design"
    );
    let items = match json["items"].take() {
        Value::Array(items) => items,
        other => panic!("design '{name}' items are not a list: '{other}'"),
    };
    Design {
        name: name.to_string(),
        library: text_of(&json, "library"),
        table: json["table"].take(),
        items,
    }
}

/// The version pinned for an npm package in tests/corpus/package.json.
pub fn pinned_version(package: &str) -> String {
    let path = root().join("tests/corpus/package.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["dependencies"][package]
        .as_str()
        .unwrap_or_else(|| panic!("'{package}' is not pinned in {}", path.display()))
        .to_string()
}

/// An attribute value from DynamoDB JSON, losslessly: numbers stay the text they were, binary
/// is base64. Panics, quoting the value, on anything that is not DynamoDB JSON.
pub fn attribute_value(json: &Value) -> AttributeValue {
    let bad = || panic!("not a DynamoDB JSON attribute value: '{json}'");
    let Some((tag, v)) = json
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.iter().next())
    else {
        bad()
    };
    let text = |v: &Value| v.as_str().map(str::to_string).unwrap_or_else(|| bad());
    let texts = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap_or_else(|| bad())
            .iter()
            .map(text)
            .collect()
    };
    let blob = |s: String| {
        Blob::new(
            BASE64
                .decode(&s)
                .unwrap_or_else(|e| panic!("binary '{s}' is not base64 ({e}) in '{json}'")),
        )
    };
    match tag.as_str() {
        "S" => AttributeValue::S(text(v)),
        "N" => AttributeValue::N(text(v)),
        "B" => AttributeValue::B(blob(text(v))),
        "BOOL" => AttributeValue::Bool(v.as_bool().unwrap_or_else(|| bad())),
        "NULL" if v == &Value::Bool(true) => AttributeValue::Null(true),
        "SS" => AttributeValue::Ss(texts(v)),
        "NS" => AttributeValue::Ns(texts(v)),
        "BS" => AttributeValue::Bs(texts(v).into_iter().map(blob).collect()),
        "L" => AttributeValue::L(
            v.as_array()
                .unwrap_or_else(|| bad())
                .iter()
                .map(attribute_value)
                .collect(),
        ),
        "M" => AttributeValue::M(item(v)),
        _ => bad(),
    }
}

/// An item (a map of attribute values) from DynamoDB JSON.
pub fn item(json: &Value) -> std::collections::HashMap<String, AttributeValue> {
    json.as_object()
        .unwrap_or_else(|| panic!("not a DynamoDB JSON item: '{json}'"))
        .iter()
        .map(|(name, value)| (name.clone(), attribute_value(value)))
        .collect()
}

/// One canonical text for a DynamoDB JSON value, so two spellings of the same item compare
/// equal: map attributes in name order and the members of a set (SS, NS, BS) sorted. Nothing
/// else is normalised: a number or string that differs is a different item.
pub fn canonical(json: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(map) => {
                let mut names: Vec<&String> = map.keys().collect();
                names.sort();
                let mut out = Map::new();
                for name in names {
                    let value = &map[name];
                    let value = match (name.as_str(), value) {
                        ("SS" | "NS" | "BS", Value::Array(members)) if map.len() == 1 => {
                            let mut members = members.clone();
                            members.sort_by_key(|a| a.to_string());
                            Value::Array(members)
                        }
                        _ => sorted(value),
                    };
                    out.insert(name.clone(), value);
                }
                Value::Object(out)
            }
            Value::Array(list) => Value::Array(list.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    sorted(json).to_string()
}

fn key_schema(json: &Value) -> Vec<KeySchemaElement> {
    json.as_array()
        .unwrap_or_else(|| panic!("KeySchema is not a list: '{json}'"))
        .iter()
        .map(|k| {
            KeySchemaElement::builder()
                .attribute_name(k["AttributeName"].as_str().unwrap())
                .key_type(KeyType::from(k["KeyType"].as_str().unwrap()))
                .build()
                .unwrap()
        })
        .collect()
}

fn projection(json: &Value) -> Projection {
    let names = json["NonKeyAttributes"].as_array().map(|names| {
        names
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect()
    });
    Projection::builder()
        .projection_type(ProjectionType::from(
            json["ProjectionType"]
                .as_str()
                .unwrap_or_else(|| panic!("index has no ProjectionType: '{json}'")),
        ))
        .set_non_key_attributes(names)
        .build()
}

/// Creates the design's table as `table_name` in the test's DynamoDB Local and writes every
/// item with BatchWriteItem, retrying what comes back unprocessed.
pub async fn load(design: &Design, table_name: &str) {
    let c = super::client().await;
    let t = &design.table;
    for field in t.as_object().expect("table is an object").keys() {
        assert!(
            matches!(
                field.as_str(),
                "TableName"
                    | "KeySchema"
                    | "AttributeDefinitions"
                    | "GlobalSecondaryIndexes"
                    | "LocalSecondaryIndexes"
                    | "BillingMode"
            ),
            "design '{}': the harness does not create tables with '{field}' yet",
            design.name
        );
    }
    let mut create = c
        .create_table()
        .table_name(table_name)
        .set_key_schema(Some(key_schema(&t["KeySchema"])))
        .billing_mode(BillingMode::from(
            t["BillingMode"].as_str().unwrap_or("PAY_PER_REQUEST"),
        ));
    for a in t["AttributeDefinitions"].as_array().unwrap() {
        create = create.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(a["AttributeName"].as_str().unwrap())
                .attribute_type(ScalarAttributeType::from(
                    a["AttributeType"].as_str().unwrap(),
                ))
                .build()
                .unwrap(),
        );
    }
    for g in t["GlobalSecondaryIndexes"].as_array().into_iter().flatten() {
        create = create.global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name(g["IndexName"].as_str().unwrap())
                .set_key_schema(Some(key_schema(&g["KeySchema"])))
                .projection(projection(&g["Projection"]))
                .build()
                .unwrap(),
        );
    }
    for l in t["LocalSecondaryIndexes"].as_array().into_iter().flatten() {
        create = create.local_secondary_indexes(
            LocalSecondaryIndex::builder()
                .index_name(l["IndexName"].as_str().unwrap())
                .set_key_schema(Some(key_schema(&l["KeySchema"])))
                .projection(projection(&l["Projection"]))
                .build()
                .unwrap(),
        );
    }
    create
        .send()
        .await
        .unwrap_or_else(|e| panic!("create table for design '{}': {e:?}", design.name));

    for chunk in design.items.chunks(25) {
        let mut pending: Vec<WriteRequest> = chunk
            .iter()
            .map(|json| {
                let put = PutRequest::builder()
                    .set_item(Some(item(json)))
                    .build()
                    .unwrap();
                WriteRequest::builder().put_request(put).build()
            })
            .collect();
        let mut round = 0u32;
        while !pending.is_empty() {
            assert!(
                round < 20,
                "BatchWriteItem kept returning unprocessed items for '{table_name}'"
            );
            if round > 0 {
                tokio::time::sleep(Duration::from_millis(20 << round.min(5))).await;
            }
            let out = c
                .batch_write_item()
                .request_items(table_name, pending)
                .send()
                .await
                .unwrap_or_else(|e| panic!("BatchWriteItem for design '{}': {e:?}", design.name));
            pending = out
                .unprocessed_items
                .and_then(|mut m| m.remove(table_name))
                .unwrap_or_default();
            round += 1;
        }
    }
}

/// Seeds a NoSQL Workbench model from `tests/corpus/workbench/` once in each module's database
/// (`super::local`), for every test that reads its tables (`seed --model` refuses a table that
/// exists); returns what that one `seed --model` printed on stderr.
pub fn seed_workbench(file: &str) -> String {
    static SEEDED: super::OnceMap<(String, String), String> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    // A seed that failed leaves its cell empty: the next test tries again, and fails as loudly.
    super::once_for(&SEEDED, (super::test_module(), file.to_owned()))
        .get_or_init(|| {
            let path = format!(
                "{}/tests/corpus/workbench/{file}",
                env!("CARGO_MANIFEST_DIR")
            );
            let out = super::run(&["seed", "--model", &path]);
            let said = super::stderr(&out);
            assert!(out.status.success(), "seed --model {file}: {said}");
            said
        })
        .clone()
}
