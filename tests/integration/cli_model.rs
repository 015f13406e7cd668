//! NoSQL Workbench models: `model import [--write]` and `seed --model`, through the real binary
//! (DynamoDB Local for the seeding), on the corpus files in tests/corpus/workbench.

use crate::common;
use crate::common::fault_proxy;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use fault_proxy::{FaultConfig, FaultProxy};
use serde_json::Value;

fn corpus(name: &str) -> String {
    format!(
        "{}/tests/corpus/workbench/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

const SOCIAL: &str = "social_timeline.json";
const SHOP: &str = "shop_adjacency.json";

/// Runs the binary with `XDG_CONFIG_HOME` set to `home` (and no endpoint).
fn run_in(home: &Path, args: &[&str]) -> Output {
    run_raw(
        args,
        &[
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
            ("HOME", home.to_str().unwrap()),
        ],
    )
}

fn config_path(home: &Path) -> PathBuf {
    home.join("dynoscope").join("config.toml")
}

fn one_line_exit_2(out: &Output, wanted: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in wanted {
        assert!(err.contains(w), "stderr lacks {w:?}: {err}");
    }
    assert!(stdout(out).is_empty(), "{}", stdout(out));
}

fn values_of(text: &str, key: &str) -> Vec<String> {
    let prefix = format!("{key} = ");
    text.lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|v| v.trim_matches('"').to_string())
        .collect()
}

#[test]
fn import_prints_the_entities_and_patterns_of_each_model() {
    let text = ok(run_raw(&["model", "import", &corpus(SOCIAL)], &[]));
    assert_eq!(
        values_of(&text, "pattern"),
        [
            "User:{userId}",
            "Reaction:{reactorId}",
            "Post:{authorId}:{postedAt}"
        ]
    );
    assert_eq!(
        values_of(&text, "name"),
        [
            "posts-of-a-user-newest-first",
            "user-by-email",
            "posts-in-a-state",
            "profile"
        ]
    );
    assert!(text.contains("sk = { gt = \"{since}\" }"), "{text}");
    assert!(
        text.contains("sk = { begins_with = \"{state}\" }"),
        "{text}"
    );
    assert!(
        text.contains("# skipped: access pattern 'Everything': a Scan"),
        "{text}"
    );
    assert!(text.contains("'{postedAt}'"), "{text}");

    let text = ok(run_raw(&["model", "import", &corpus(SHOP)], &[]));
    assert_eq!(
        values_of(&text, "pattern"),
        ["C#{CustomerId}", "I#{InvoiceId}", "P#{Sku}"]
    );
    assert_eq!(
        values_of(&text, "name"),
        [
            "invoices-of-a-customer",
            "invoices-in-a-shard",
            "who-bought-a-product"
        ]
    );
    // The labs' own records are named by their collection, never a kind METADATA.
    assert!(!text.contains("pattern = \"#METADATA#"), "{text}");
    assert!(
        text.contains("'#METADATA#{CustomerId}' repeats its partition key's id"),
        "{text}"
    );
}

#[test]
fn write_appends_what_it_printed_and_refuses_to_repeat_it() {
    let home = tempfile::tempdir().unwrap();
    let printed = ok(run_in(home.path(), &["model", "import", &corpus(SHOP)]));
    let out = run_in(home.path(), &["model", "import", &corpus(SHOP), "--write"]);
    let shown = ok(out.clone());
    assert_eq!(shown, printed);
    assert!(
        stderr(&out).contains("appended 3 [[entity]] and 3 [[pattern]] entries"),
        "{}",
        stderr(&out)
    );
    let path = config_path(home.path());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), printed);

    // A second import would repeat every entry: refused, the file as it was.
    let out = run_in(home.path(), &["model", "import", &corpus(SHOP), "--write"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("already has [[entity]] 'C#{CustomerId}' and 5 more")
            && err.contains("nothing was appended"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), printed);

    // Another model goes after what is there, and the file stays a valid config.
    let social = ok(run_in(
        home.path(),
        &["model", "import", &corpus(SOCIAL), "--write"],
    ));
    let now = std::fs::read_to_string(&path).unwrap();
    assert_eq!(now, format!("{printed}\n{social}"));
}

#[test]
fn write_keeps_the_settings_already_in_the_file() {
    let home = tempfile::tempdir().unwrap();
    let path = config_path(home.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        "max_items = 500\n[[pattern]]\ntable = \"x\"\nname = \"user-by-email\"\npk = \"E#{e}\"",
    )
    .unwrap();
    // The social model has a pattern of that name: refused, naming it.
    let out = run_in(
        home.path(),
        &["model", "import", &corpus(SOCIAL), "--write"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("already has [[pattern]] 'user-by-email';"),
        "{}",
        stderr(&out)
    );
    // The shop model has none of them: appended after a newline the file lacked.
    let printed = ok(run_in(
        home.path(),
        &["model", "import", &corpus(SHOP), "--write"],
    ));
    let now = std::fs::read_to_string(&path).unwrap();
    assert!(now.starts_with("max_items = 500\n"), "{now}");
    assert!(
        now.ends_with(&format!("pk = \"E#{{e}}\"\n\n{printed}")),
        "{now}"
    );
}

fn model_items(file: &str) -> BTreeSet<String> {
    let model: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus(file)).unwrap()).unwrap();
    let table = &model["DataModel"][0];
    let mut items: Vec<&Value> = table["TableData"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    for facet in table["TableFacets"].as_array().unwrap() {
        items.extend(facet["TableData"].as_array().into_iter().flatten());
    }
    items.into_iter().map(canonical).collect()
}

/// One item as comparable text: set members sorted (DynamoDB keeps no set order).
fn canonical(item: &Value) -> String {
    fn sort_sets(v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, v)| {
                        let v = match (k.as_str(), v) {
                            ("SS" | "NS" | "BS", Value::Array(a)) => {
                                let mut a: Vec<String> =
                                    a.iter().map(|x| x.as_str().unwrap().to_string()).collect();
                                a.sort();
                                Value::Array(a.into_iter().map(Value::String).collect())
                            }
                            _ => sort_sets(v),
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().map(sort_sets).collect()),
            other => other.clone(),
        }
    }
    // Keys sorted, so two spellings of one item are one text.
    let sorted: std::collections::BTreeMap<String, Value> = sort_sets(item)
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    serde_json::to_string(&sorted).unwrap()
}

fn scanned(table: &str) -> BTreeSet<String> {
    let text = ok(run(&["scan", table, "--output", "ddb-jsonl"]));
    let lines = lines(&text);
    let set: BTreeSet<String> = lines.iter().map(canonical).collect();
    assert_eq!(set.len(), lines.len(), "a repeated item");
    set
}

/// `seed --model` then `scan --output ddb-jsonl` gives back exactly the model's items, types
/// and all; the imported config then runs its patterns against them.
#[test]
fn seed_model_loads_exactly_the_table_data_and_the_patterns_run() {
    // Seeded once for the whole test binary (the explorer's corpus tests read it too).
    let said = common::corpus::seed_workbench(SHOP);
    assert!(said.contains("loaded 142 items into 'Shop'"), "{said}");
    assert_eq!(scanned("Shop"), model_items(SHOP));
    let described: Value = serde_json::from_str(&ok(run(&["describe", "Shop"]))).unwrap();
    assert_eq!(described["billing_mode"], "PAY_PER_REQUEST", "{described}");
    let indexes = described["indexes"].as_array().unwrap();
    let by_shard = indexes.iter().find(|i| i["name"] == "ByShard").unwrap();
    assert_eq!(by_shard["projection"]["type"], "KEYS_ONLY", "{described}");
    assert_eq!(by_shard["keys"]["partition"][0]["name"], "ShardKey");

    common::corpus::seed_workbench(SOCIAL);
    assert_eq!(scanned("Timeline"), model_items(SOCIAL));
    let views = ok(run(&[
        "query",
        "Timeline",
        "--pk",
        "User:UserA",
        "--sk-begins",
        "2023-04-01T08",
        "--output",
        "ddb-jsonl",
    ]));
    assert!(
        views.contains("{\"N\":\"12345678901234567890123456789012345678\"}"),
        "{views}"
    );
    let described: Value = serde_json::from_str(&ok(run(&["describe", "Timeline"]))).unwrap();
    let indexes = described["indexes"].as_array().unwrap();
    let by_email = indexes.iter().find(|i| i["name"] == "ByEmail").unwrap();
    assert!(
        by_email["keys"]["sort"]
            .as_array()
            .is_some_and(|s| s.is_empty()),
        "{described}"
    );
    let state = indexes.iter().find(|i| i["name"] == "ByStateDate").unwrap();
    assert_eq!(state["keys"]["sort"][0]["name"], "State#Date");
    assert_eq!(state["projection"]["type"], "INCLUDE");

    // Seeding again is refused before anything is created.
    let again = run(&["seed", "--model", &corpus(SHOP)]);
    one_line_exit_2(&again, &["table 'Shop' already exists"]);

    // The printed config round-trips: as the config file, its patterns run.
    let home = tempfile::tempdir().unwrap();
    let printed = ok(run_in(home.path(), &["model", "import", &corpus(SHOP)]));
    let path = config_path(home.path());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, printed).unwrap();
    let endpoint = local().endpoint.clone();
    let home_str = home.path().to_str().unwrap();
    let env = [("XDG_CONFIG_HOME", home_str), ("HOME", home_str)];
    let rows = ok(run_raw(
        &[
            "--endpoint-url",
            &endpoint,
            "run",
            "invoices-of-a-customer",
            "--param",
            "customerId=933",
        ],
        &env,
    ));
    let rows = lines(&rows);
    assert!(rows.iter().any(|r| r["SK"] == "I#933"), "{rows:?}");
    assert!(rows.iter().all(|r| r["PK"] == "C#933"
        && r["SK"].as_str().unwrap().starts_with("I#")
        && r["EntityType"] == "invoice"));
    let shard = ok(run_raw(
        &[
            "--endpoint-url",
            &endpoint,
            "run",
            "invoices-in-a-shard",
            "--param",
            "shardKey=shard#3",
            "--param",
            "from=2023-06-01",
            "--param",
            "to=2023-07-01",
        ],
        &env,
    ));
    // Thirty invoices over ten shards: three in each, keys only.
    let shard = lines(&shard);
    assert_eq!(shard.len(), 3, "{shard:?}");
    assert!(
        shard.iter().all(|r| r.as_object().unwrap().len() == 4),
        "{shard:?}"
    );
}

#[test]
fn seed_model_refuses_an_endpoint_that_is_not_local() {
    let out = run_raw(
        &[
            "--endpoint-url",
            "http://10.255.255.1:8000",
            "seed",
            "--model",
            &corpus(SHOP),
        ],
        &[],
    );
    one_line_exit_2(&out, &["'seed' only writes to a local endpoint"]);
}

#[test]
fn bad_model_files_are_one_line_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[&str]); 5] = [
        ("notjson.json", "{\"ModelName\": ", &["not JSON"]),
        (
            "noname.json",
            r#"{"DataModel":[{"KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}}}]}"#,
            &["DataModel[0] has no TableName"],
        ),
        (
            "nokey.json",
            r#"{"DataModel":[{"TableName":"app","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}},"TableData":[{"SK":{"S":"x"}}]}]}"#,
            &["DataModel[0] ('app').TableData[0] has no 'PK'"],
        ),
        (
            "badtype.json",
            r#"{"DataModel":[{"TableName":"app","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"STRING"}}}]}"#,
            &["AttributeType 'STRING' is not a key type"],
        ),
        ("array.json", "[]", &["the top level must be an object"]),
    ];
    for (name, text, wanted) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let shown = path.to_str().unwrap();
        let mut wanted = wanted.to_vec();
        let quoted = format!("model file '{shown}'");
        wanted.push(&quoted);
        one_line_exit_2(&run_raw(&["model", "import", shown], &[]), &wanted);
        // seed --model checks the file before it connects anywhere.
        one_line_exit_2(
            &run_raw(
                &[
                    "--endpoint-url",
                    "http://127.0.0.1:9",
                    "seed",
                    "--model",
                    shown,
                ],
                &[],
            ),
            &wanted,
        );
    }
    let missing = dir.path().join("absent.json");
    one_line_exit_2(
        &run_raw(&["model", "import", missing.to_str().unwrap()], &[]),
        &["cannot read model file", "absent.json"],
    );
}

/// A model breaking one of DynamoDB's rules anywhere (its second table's name, an item of the
/// second table over 400 KB, a name that is a shell command) is refused whole: one line, exit
/// 2, and not one request reaches the endpoint, so the first table is not created either.
#[test]
fn a_bad_model_sends_nothing_not_even_its_good_tables() {
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let keys = r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}}"#;
    let items = |n: usize, extra: &str| {
        (0..n)
            .map(|i| format!(r#"{{"PK":{{"S":"item{i}"}}{extra}}}"#))
            .collect::<Vec<_>>()
            .join(",")
    };
    let first = table_name("wb-first");
    let good = format!(
        r#"{{"TableName":"{first}",{keys},"TableData":[{}]}}"#,
        items(142, "")
    );
    let big = format!(r#","blob":{{"S":"{}"}}"#, "x".repeat(500 * 1024));
    let second = table_name("wb-second");
    let cases = [
        (
            format!(r#"{{"TableName":"bad name!",{keys}}}"#),
            "table name 'bad name!' is not one DynamoDB accepts",
        ),
        (
            format!(
                r#"{{"TableName":"{second}",{keys},"TableData":[{},{{"PK":{{"S":"big"}}{big}}}]}}"#,
                items(118, "")
            ),
            "TableData[118] is 512009 bytes by DynamoDB's item size rules",
        ),
        (
            format!(r#"{{"TableName":"x; rm -rf ~",{keys}}}"#),
            "table name 'x; rm -rf ~' is not one DynamoDB accepts",
        ),
    ];
    for (i, (bad, wanted)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.json"));
        std::fs::write(&path, format!(r#"{{"DataModel":[{good},{bad}]}}"#)).unwrap();
        let out = run_raw(
            &[
                "--endpoint-url",
                &proxy.url,
                "seed",
                "--model",
                path.to_str().unwrap(),
            ],
            &[],
        );
        one_line_exit_2(&out, &[wanted, "DataModel[1]"]);
        assert!(proxy.log().is_empty(), "sent: {}", proxy.summary());
    }
    // The good first table was never created: a fixed model seeds cleanly.
    let path = dir.path().join("good.json");
    std::fs::write(&path, format!(r#"{{"DataModel":[{good}]}}"#)).unwrap();
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "seed",
            "--model",
            path.to_str().unwrap(),
        ],
        &[],
    );
    assert!(
        stderr(&out).contains("loaded 142 items"),
        "{}",
        stderr(&out)
    );
    assert_eq!(proxy.requests("CreateTable"), 1, "{}", proxy.summary());
}

#[path = "cli_model_hostile.rs"]
mod hostile;

/// Issue 54: `model export` on the NoSQL Workbench sample `seed --model` loaded (Timeline):
/// its kinds as its EntityType names them (user, post, reaction: no other kind, though the
/// INCLUDE index leaves EntityType out), their key templates, and its two sparse indexes
/// (ByEmail holds the users only, ByStateDate the posts only, projecting two attributes).
#[test]
fn model_export_reads_back_the_seeded_workbench_design() {
    common::corpus::seed_workbench(SOCIAL);
    let found: Value = serde_json::from_str(&ok(run(&[
        "model",
        "export",
        "Timeline",
        "--output",
        "json",
        "--max-rcu",
        "20",
    ])))
    .unwrap();
    let sampled = found["sampled"].as_u64().unwrap();
    let kind = |name: &str| {
        found["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {found:#}"))
            .clone()
    };
    let template = |kind: &Value, index: Option<&str>, side: &str| {
        let on = kind["keys"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["index"].as_str() == index)
            .unwrap_or_else(|| panic!("{kind:#} not on {index:?}"))
            .clone();
        on[side][0][0]["template"].as_str().unwrap().to_owned()
    };
    let (user, post, reaction) = (kind("user"), kind("post"), kind("reaction"));
    assert_eq!(found["kinds"].as_array().unwrap().len(), 3, "{found:#}");
    let count = |k: &Value| k["items"].as_u64().unwrap();
    assert_eq!(count(&user) + count(&post) + count(&reaction), sampled);
    assert_eq!(user["source"], "EntityType", "{user:#}");
    assert!(
        template(&user, None, "partition").starts_with("User:{"),
        "{user:#}"
    );
    assert!(
        template(&post, None, "partition").starts_with("User:{"),
        "{post:#}"
    );
    assert!(
        template(&reaction, None, "partition").starts_with("Reaction:{"),
        "{reaction:#}"
    );
    assert!(
        template(&reaction, None, "sort").starts_with("Post:{"),
        "{reaction:#}"
    );
    let index = |name: &str| {
        found["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap()
            .clone()
    };
    let (by_email, by_state) = (index("ByEmail"), index("ByStateDate"));
    // Each index's kinds come from its own sample; its coverage from the table's.
    let own = |i: &Value| i["own_sample"].as_u64().unwrap();
    assert_eq!(
        by_email["kinds"],
        serde_json::json!([["user", own(&by_email)]])
    );
    assert_eq!(
        by_email["items"].as_u64(),
        Some(count(&user)),
        "sparse: {by_email:#}"
    );
    assert_eq!(
        by_state["kinds"],
        serde_json::json!([["post", own(&by_state)]])
    );
    assert_eq!(
        by_state["items"].as_u64(),
        Some(count(&post)),
        "sparse: {by_state:#}"
    );
    assert_eq!(
        by_state["projected"],
        "INCLUDE: the keys and Caption, Likes"
    );
    assert_eq!(
        template(&post, Some("ByStateDate"), "partition"),
        "{Country}"
    );
}
