//! The library corpus (tests/integration/common/corpus.rs): tables written by ElectroDB, dynamodb-toolbox
//! and OneTable from models in each library's idiom. Each design loads into DynamoDB Local and
//! scans back through the real binary exactly as the library wrote it, and each design's items
//! carry the marks only that library leaves, so we know the library really built them.

use crate::common;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use common::corpus::{self, canonical, design, Design};
use common::*;
use serde_json::Value;

/// The text of a string attribute (`{"S": …}`), or None.
fn s<'a>(item: &'a Value, name: &str) -> Option<&'a str> {
    item.get(name)?.get("S")?.as_str()
}

fn s_of<'a>(item: &'a Value, name: &str) -> &'a str {
    s(item, name).unwrap_or_else(|| panic!("item has no string '{name}': {item}"))
}

/// How many items carry each value of a string attribute.
fn counts(items: &[Value], attr: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for item in items {
        *out.entry(s_of(item, attr).to_string()).or_insert(0) += 1;
    }
    out
}

fn is_iso_instant(text: &str) -> bool {
    // 2025-09-01T08:30:00.000Z
    let b = text.as_bytes();
    b.len() == 24
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[19] == b'.'
        && b[23] == b'Z'
        && text
            .bytes()
            .enumerate()
            .all(|(i, c)| [4, 7, 10, 13, 16, 19, 23].contains(&i) || c.is_ascii_digit())
}

fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.iter().map(|g| g.len()).collect::<Vec<_>>() == [8, 4, 4, 4, 12]
        && groups.iter().all(|g| {
            g.bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        })
}

/// Loads the design into a fresh table, scans it with `dynoscope scan --output ddb-jsonl`,
/// and asserts the scan returns exactly the design's items: same count, same items (as
/// canonical JSON: attribute order and set member order aside, every value identical).
async fn assert_scans_back_as_written(name: &str) {
    let d = design(name);
    let want: BTreeSet<String> = d.items.iter().map(canonical).collect();
    assert_eq!(want.len(), d.items.len(), "design '{name}' repeats an item");
    assert!(
        d.items.len() > 50,
        "design '{name}' is too small to mean anything"
    );

    let table = table_name(&name.replace('_', "-"));
    corpus::load(&d, &table).await;
    let out = ok(run(&["scan", &table, "--output", "ddb-jsonl"]));
    let scanned = lines(&out);
    assert_eq!(scanned.len(), d.items.len(), "scan of '{name}' item count");
    let got: BTreeSet<String> = scanned.iter().map(canonical).collect();
    let missing: Vec<_> = want.difference(&got).take(3).collect();
    let extra: Vec<_> = got.difference(&want).take(3).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "scan of '{name}' differs from what {} wrote.\nwritten, not scanned: {missing:#?}\nscanned, not written: {extra:#?}",
        d.library
    );
}

#[tokio::test]
async fn electrodb_task_manager_scans_back_exactly_as_electrodb_wrote_it() {
    assert_scans_back_as_written("electrodb_task_manager").await;
}

#[tokio::test]
async fn toolbox_shop_scans_back_exactly_as_dynamodb_toolbox_wrote_it() {
    assert_scans_back_as_written("toolbox_shop").await;
}

#[tokio::test]
async fn onetable_game_scans_back_exactly_as_onetable_wrote_it() {
    assert_scans_back_as_written("onetable_game").await;
}

fn assert_library(d: &Design, package: &str) {
    assert_eq!(
        d.library,
        format!("{package}@{}", corpus::pinned_version(package)),
        "design '{}' was not built by the pinned {package}",
        d.name
    );
}

#[test]
fn electrodb_items_carry_its_entity_and_version_and_its_key_grammar() {
    let d = design("electrodb_task_manager");
    assert_library(&d, "electrodb");
    assert_eq!(d.key_names(), ("pk".to_string(), Some("sk".to_string())));
    let by_entity = counts(&d.items, "__edb_e__");
    let want: BTreeMap<String, usize> = [
        ("employee", 40),
        ("office", 3),
        ("project", 5),
        ("task", 60),
    ]
    .into_iter()
    .map(|(k, n)| (k.to_string(), n))
    .collect();
    assert_eq!(by_entity, want);
    for item in &d.items {
        let entity = s_of(item, "__edb_e__");
        assert_eq!(s(item, "__edb_v__"), Some("1"), "{item}");
        let (pk, sk) = (s_of(item, "pk"), s_of(item, "sk"));
        assert!(pk.starts_with("$task-manager#"), "{pk}");
        // ElectroDB lower-cases key values by default.
        assert_eq!(pk, pk.to_lowercase(), "{pk}");
        match entity {
            "employee" => {
                let id = s_of(item, "employee");
                assert!(is_uuid(id), "{id}");
                assert_eq!(pk, format!("$task-manager#employee_{id}"));
                assert_eq!(sk, "$employee_1");
                assert!(s_of(item, "gsi1sk").starts_with("$workplaces#employee_1#team_"));
                assert_eq!(s_of(item, "gsi2sk"), "$assignments#employee_1");
            }
            "office" => {
                assert!(pk.starts_with("$task-manager#country_"), "{pk}");
                assert!(sk.starts_with("$office_1#city_"), "{sk}");
                assert_eq!(s_of(item, "gsi1sk"), "$workplaces#office_1");
            }
            "project" => {
                let id = s_of(item, "project");
                assert!(id.len() == 6 && id.as_bytes()[3] == b'-', "{id}");
                assert_eq!(pk, format!("$task-manager#project_{id}"));
                assert_eq!(s_of(item, "gsi3sk"), "$backlog#project_1");
            }
            "task" => {
                let project = s_of(item, "project");
                let employee = s_of(item, "employee");
                assert_eq!(sk, format!("$task_1#project_{project}#employee_{employee}"));
                assert!(s_of(item, "gsi2sk").starts_with("$assignments#task_1#project_"));
                assert!(s_of(item, "gsi3sk").starts_with("$backlog#task_1#status_"));
            }
            other => panic!("unexpected entity '{other}'"),
        }
        assert!(is_iso_instant(s_of(item, "createdAt")), "{item}");
    }
}

#[test]
fn electrodb_employees_name_their_manager_by_another_employees_id() {
    let d = design("electrodb_task_manager");
    let employees: Vec<&Value> = d
        .items
        .iter()
        .filter(|i| s(i, "__edb_e__") == Some("employee"))
        .collect();
    let pks: HashSet<&str> = employees.iter().map(|e| s_of(e, "pk")).collect();
    let managed: Vec<&str> = employees.iter().filter_map(|e| s(e, "manager")).collect();
    assert_eq!(
        managed.len(),
        employees.len() - 1,
        "all but the head have a manager"
    );
    for manager in managed {
        assert!(
            pks.contains(format!("$task-manager#employee_{manager}").as_str()),
            "manager '{manager}' is no employee's key"
        );
    }
}

#[test]
fn toolbox_items_carry_its_entity_attribute_and_timestamps() {
    let d = design("toolbox_shop");
    assert_library(&d, "dynamodb-toolbox");
    assert_eq!(d.key_names(), ("PK".to_string(), Some("SK".to_string())));
    let by_entity = counts(&d.items, "_et");
    assert_eq!(
        by_entity.keys().map(String::as_str).collect::<Vec<_>>(),
        ["customer", "order", "orderLine", "product"]
    );
    assert_eq!(by_entity["customer"], 24);
    assert_eq!(by_entity["order"], 40);
    assert_eq!(by_entity["product"], 10);
    let orders: HashSet<String> = d
        .items
        .iter()
        .filter(|i| s(i, "_et") == Some("order"))
        .map(|o| s_of(o, "GSI1PK").to_string())
        .collect();
    for item in &d.items {
        let (pk, sk) = (s_of(item, "PK"), s_of(item, "SK"));
        let (ct, md) = (s_of(item, "_ct"), s_of(item, "_md"));
        assert!(is_iso_instant(ct) && ct == md, "{item}");
        // The overloaded GSI: every entity writes both of its keys, each its own way.
        let (g1pk, g1sk) = (s_of(item, "GSI1PK"), s_of(item, "GSI1SK"));
        match s_of(item, "_et") {
            "customer" => {
                let id = s_of(item, "customerId");
                assert_eq!(
                    (pk, sk),
                    (&*format!("CUSTOMER#{id}"), &*format!("#PROFILE#{id}"))
                );
                assert!(g1pk.starts_with("EMAIL#"), "{g1pk}");
            }
            "order" => {
                assert!(
                    pk.starts_with("CUSTOMER#") && sk.starts_with("ORDER#"),
                    "{pk} {sk}"
                );
                assert_eq!(g1pk, g1sk);
            }
            "orderLine" => {
                assert!(
                    pk.starts_with("ORDER#") && sk.starts_with("LINE#"),
                    "{pk} {sk}"
                );
                assert!(g1pk.starts_with("PRODUCT#"), "{g1pk}");
                assert!(orders.contains(pk), "line of unknown order '{pk}'");
            }
            "product" => {
                assert!(pk == sk && pk.starts_with("PRODUCT#"), "{pk} {sk}");
                assert!(g1pk.starts_with("CATEGORY#") && g1sk.starts_with("PRICE#"));
            }
            other => panic!("unexpected entity '{other}'"),
        }
    }
}

#[test]
fn onetable_items_carry_its_type_attribute_and_value_templates() {
    let d = design("onetable_game");
    assert_library(&d, "dynamodb-onetable");
    assert_eq!(d.key_names(), ("pk".to_string(), Some("sk".to_string())));
    // The table definition is OneTable's own, from the schema's indexes.
    assert_eq!(d.table["GlobalSecondaryIndexes"][0]["IndexName"], "gs1");
    let by_type = counts(&d.items, "_type");
    assert_eq!(
        by_type.keys().map(String::as_str).collect::<Vec<_>>(),
        ["Game", "Match", "Player", "Score"]
    );
    assert_eq!(
        (by_type["Game"], by_type["Player"], by_type["Match"]),
        (4, 18, 20)
    );
    for item in &d.items {
        let (pk, sk) = (s_of(item, "pk"), s_of(item, "sk"));
        assert!(is_iso_instant(s_of(item, "created")), "{item}");
        assert_eq!(s(item, "created"), s(item, "updated"), "{item}");
        match s_of(item, "_type") {
            "Game" => {
                assert_eq!(pk, format!("game:{}", s_of(item, "gameId")));
                assert_eq!(sk, "game:");
            }
            "Player" => {
                assert!(is_uuid(s_of(item, "playerId")), "{item}");
                assert_eq!(
                    s_of(item, "gs1pk"),
                    format!("handle:{}", s_of(item, "handle"))
                );
            }
            "Match" => {
                // An ISO timestamp inside a `:`-separated sort key.
                let started = s_of(item, "startedAt");
                assert!(is_iso_instant(started), "{started}");
                assert_eq!(sk, format!("match:{started}:{}", s_of(item, "matchId")));
            }
            "Score" => {
                let points = item["points"]["N"].as_str().unwrap();
                assert_eq!(
                    s_of(item, "gs1sk"),
                    format!("score#{}#{points:0>6}", s_of(item, "gameId"))
                );
            }
            other => panic!("unexpected type '{other}'"),
        }
    }
}

#[test]
fn generating_the_corpus_twice_writes_the_same_files() {
    let first_dir = corpus::designs_dir();
    let again = first_dir.join("again");
    let _ = std::fs::remove_dir_all(&again);
    corpus::generate_into(&again);
    for name in corpus::DESIGNS {
        let first = std::fs::read(first_dir.join(format!("{name}.json"))).unwrap();
        let second = std::fs::read(again.join(format!("{name}.json"))).unwrap();
        assert!(first == second, "design '{name}' differs between two runs");
    }
    std::fs::remove_dir_all(&again).unwrap();
}
