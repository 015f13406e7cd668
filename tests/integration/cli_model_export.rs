//! Issue 54, `model export`: a multi-tenant design with an overloaded GSI (users by email,
//! tickets by status) and a sparse one (assigned tickets only), read back from DynamoDB Local
//! under `--max-rcu` through the fault proxy that counts what was consumed; its Workbench model
//! read back by `model import` to the same templates.

use std::collections::HashMap;
use std::path::Path;

use aws_sdk_dynamodb::types::{AttributeValue, ProjectionType, PutRequest, WriteRequest};
use serde_json::Value;

use crate::common::fault_proxy::{FaultConfig, FaultProxy};
use crate::common::tables::{s, TableSpec};
use crate::common::*;

const NO_CONFIG: &[(&str, &str)] = &[
    ("XDG_CONFIG_HOME", "/nonexistent/xdg"),
    ("HOME", "/nonexistent/home"),
];

async fn helpdesk(endpoint: &str) -> String {
    let client = client_at(endpoint).await;
    let table = table_name("model-export");
    TableSpec::pk_sk(&table)
        .gsi("GSI1", s("GSI1PK"), Some(s("GSI1SK")), ProjectionType::All)
        .gsi(
            "byAssignee",
            s("assignee"),
            Some(s("createdAt")),
            ProjectionType::KeysOnly,
        )
        .create(&client)
        .await;
    let mut items: Vec<Vec<(&str, String)>> = Vec::new();
    for t in 0..6 {
        items.push(vec![
            ("PK", format!("TENANT#t{t}")),
            ("SK", "PROFILE".into()),
            ("tenantId", format!("t{t}")),
        ]);
        for u in 0..3 {
            items.push(vec![
                ("PK", format!("TENANT#t{t}")),
                ("SK", format!("USER#u{u}x{t}")),
                ("tenantId", format!("t{t}")),
                ("userId", format!("u{u}x{t}")),
                ("GSI1PK", format!("EMAIL#u{u}@t{t}.example")),
                ("GSI1SK", "USER".into()),
            ]);
        }
        for k in 0..5 {
            let date = format!("2026-01-1{k}");
            let id = format!("k{k}x{t}");
            let status = if k % 2 == 0 { "OPEN" } else { "CLOSED" };
            let mut item = vec![
                ("PK", format!("TENANT#t{t}")),
                ("SK", format!("TICKET#{date}#{id}")),
                ("tenantId", format!("t{t}")),
                ("ticketId", id.clone()),
                ("date", date.clone()),
                ("status", status.into()),
                ("GSI1PK", format!("STATUS#{status}")),
                ("GSI1SK", format!("{date}#{id}")),
                ("createdAt", date.clone()),
            ];
            if k == 0 {
                item.push(("assignee", format!("u0x{t}")));
            }
            items.push(item);
        }
    }
    let requests: Vec<WriteRequest> = items
        .into_iter()
        .map(|pairs| {
            let item: HashMap<String, AttributeValue> = pairs
                .into_iter()
                .map(|(k, v)| (k.to_string(), AttributeValue::S(v)))
                .collect();
            let put = PutRequest::builder().set_item(Some(item)).build().unwrap();
            WriteRequest::builder().put_request(put).build()
        })
        .collect();
    for chunk in requests.chunks(25) {
        client
            .batch_write_item()
            .request_items(&table, chunk.to_vec())
            .send()
            .await
            .unwrap();
    }
    table
}

fn main_template(kind: &Value, index: Option<&str>, side: &str) -> String {
    let t = kind["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["index"].as_str() == index)
        .unwrap_or_else(|| panic!("{kind:#} not on {index:?}"));
    t[side][0][0]["template"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn a_multi_tenant_design_is_read_back_under_max_rcu() {
    let endpoint = &local().endpoint;
    let table = helpdesk(endpoint).await;
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "model",
            "export",
            &table,
            "--output",
            "json",
            "--max-rcu",
            "5",
        ],
        NO_CONFIG,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The price is said before anything is sent; what was consumed stays under the bound.
    assert!(stderr(&out).contains("RCU"), "{}", stderr(&out));
    assert!(proxy.consumed_units() <= 5.0, "{}", proxy.consumed_units());
    assert!(
        stderr(&out).contains("split over 3 samples"),
        "{}",
        stderr(&out)
    );
    // Each index was read itself: a Scan naming it.
    let scans = proxy.bodies("Scan");
    for index in ["GSI1", "byAssignee"] {
        let needle = format!("\"IndexName\":\"{index}\"");
        assert!(
            scans.iter().any(|b| b.contains(&needle)),
            "{index} not scanned: {scans:?}"
        );
    }
    let design: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let kinds = design["kinds"].as_array().unwrap();
    let kind = |name: &str| {
        kinds
            .iter()
            .find(|k| k["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {design:#}"))
    };
    assert_eq!(
        main_template(kind("TICKET"), None, "sort"),
        "TICKET#{date}#{ticketId}"
    );
    assert_eq!(main_template(kind("USER"), None, "sort"), "USER#{userId}");
    assert_eq!(
        main_template(kind("TENANT"), None, "partition"),
        "TENANT#{tenantId}"
    );
    assert_eq!(
        main_template(kind("TICKET"), Some("GSI1"), "partition"),
        "STATUS#{status}"
    );
    assert_eq!(main_template(kind("USER"), Some("GSI1"), "sort"), "USER");
    let index = |name: &str| {
        design["indexes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["name"] == name)
            .unwrap()
            .clone()
    };
    let sampled = design["sampled"].as_u64().unwrap();
    // Coverage is judged on the sample: every sampled item but the TENANTs is in GSI1, only
    // assigned tickets are in byAssignee (sparse), and no other kind is.
    let count = |name: &str| kind(name)["items"].as_u64().unwrap();
    assert_eq!(count("TENANT") + count("USER") + count("TICKET"), sampled);
    assert_eq!(
        index("GSI1")["items"].as_u64().unwrap(),
        sampled - count("TENANT")
    );
    // byAssignee's kinds come from its own sample (of its six assigned tickets)
    // (a KEYS_ONLY projection: each named TICKET by its primary key or its keys).
    let sparse = index("byAssignee");
    assert!(
        sparse["items"].as_u64().unwrap() < count("TICKET"),
        "{design:#}"
    );
    let own = sparse["own_sample"].as_u64().unwrap();
    assert!(own > 0, "{sparse:#}");
    assert_eq!(sparse["kinds"], serde_json::json!([["TICKET", own]]));
    assert_eq!(
        sparse["projected"],
        "KEYS_ONLY: the table's and the index's keys"
    );
    assert_eq!(
        main_template(kind("TICKET"), Some("byAssignee"), "partition"),
        "{assignee}"
    );
}

#[tokio::test]
async fn the_workbench_model_reads_back_through_model_import() {
    let endpoint = &local().endpoint;
    let table = helpdesk(endpoint).await;
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{table}.json"));
    let out = run_at(
        endpoint,
        &["model", "export", &table, "-o", file.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let imported = run_raw(&["model", "import", file.to_str().unwrap()], NO_CONFIG);
    let text = stdout(&imported);
    assert_eq!(imported.status.code(), Some(0), "{}", stderr(&imported));
    for template in [
        "TENANT#{tenantId}",
        "TICKET#{date}#{ticketId}",
        "USER#{userId}",
    ] {
        assert!(
            text.contains(&format!("\"{template}\"")),
            "{template} not in {text}"
        );
    }
    let model = std::fs::read_to_string(&file).unwrap();
    assert!(!model.contains("u0x1"), "values are masked: {model}");
    let _ = std::fs::remove_file(&file);
}

/// The corpus's `design`, written by its modelling library into a new table, read back by
/// `model export --output json` under `--max-rcu max_rcu`.
async fn export_corpus_design(design: &str, prefix: &str, max_rcu: u32) -> Value {
    let design = crate::common::corpus::design(design);
    let table = table_name(prefix);
    crate::common::corpus::load(&design, &table).await;
    let max_rcu = max_rcu.to_string();
    let out = run_at(
        &local().endpoint,
        &[
            "model",
            "export",
            &table,
            "--output",
            "json",
            "--max-rcu",
            &max_rcu,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// A design ElectroDB wrote (the corpus's task manager): kinds named by `__edb_e__`, keys read
/// in ElectroDB's grammar.
#[tokio::test]
async fn an_electrodb_design_is_read_back_by_its_entity_attribute_and_key_grammar() {
    let found = export_corpus_design("electrodb_task_manager", "model-export-edb", 20).await;
    let kinds = found["kinds"].as_array().unwrap();
    assert!(kinds.len() >= 2, "{found:#}");
    for kind in kinds {
        let name = kind["name"].as_str().unwrap();
        assert!(
            ["employee", "office", "project", "task"].contains(&name),
            "{name}"
        );
        assert_eq!(kind["source"], "__edb_e__", "{kind:#}");
        let sk = main_template(kind, None, "sort");
        assert!(sk.starts_with(&format!("${name}_1")), "{sk}");
        let pk = main_template(kind, None, "partition");
        assert!(
            pk.starts_with("$task-manager#") && pk.contains("_{"),
            "{pk}"
        );
    }
    if let Some(employee) = kinds.iter().find(|k| k["name"] == "employee") {
        assert_eq!(
            main_template(employee, None, "partition"),
            "$task-manager#employee_{employee}"
        );
    }
}

/// A design dynamodb-toolbox wrote (the corpus's shop): kinds named by `_et`, each kind's keys
/// on the table and on the overloaded GSI1, which every kind's items are in (not sparse).
#[tokio::test]
async fn a_dynamodb_toolbox_design_is_read_back_with_its_overloaded_index() {
    let found = export_corpus_design("toolbox_shop", "model-export-tbx", 40).await;
    let kind = |name: &str| {
        found["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {found:#}"))
            .clone()
    };
    for (name, pk, sk, gsi_pk) in [
        (
            "customer",
            "CUSTOMER#{customerId}",
            "#PROFILE#{customerId}",
            "EMAIL#{email}",
        ),
        (
            "product",
            "PRODUCT#{sku}",
            "PRODUCT#{sku}",
            "CATEGORY#{category}",
        ),
        (
            "order",
            "CUSTOMER#{customerId}",
            "ORDER#{orderId}",
            "ORDER#{orderId}",
        ),
        (
            "orderLine",
            "ORDER#{orderId}",
            "LINE#{sku}",
            "PRODUCT#{sku}",
        ),
    ] {
        let k = kind(name);
        assert_eq!(k["source"], "_et", "{k:#}");
        assert_eq!(main_template(&k, None, "partition"), pk, "{name}");
        assert_eq!(main_template(&k, None, "sort"), sk, "{name}");
        assert_eq!(
            main_template(&k, Some("GSI1"), "partition"),
            gsi_pk,
            "{name}"
        );
    }
    let gsi = &found["indexes"][0];
    assert_eq!(gsi["name"], "GSI1");
    assert_eq!(gsi["kinds"].as_array().unwrap().len(), 4, "{gsi:#}");
    assert_eq!(
        gsi["items"], found["sampled"],
        "GSI1 holds every item: {gsi:#}"
    );
}
