use super::*;
use crate::design::schema::{IndexInfo, KeyAttr, KeyType, Projection};
use crate::fixtures::demo_info;
use crate::item::value::{AttrValue, Item};

pub(super) fn s(v: &str) -> AttrValue {
    AttrValue::S(v.to_owned())
}

pub(super) fn item(pairs: &[(&str, AttrValue)]) -> Item {
    Item::from_attrs(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// A multi-tenant design: TENANT, USER and TICKET in the tenant's partition; GSI1 overloaded
/// (users by email, tickets by status) and `byAssignee` sparse (assigned tickets only).
pub(super) fn tenant_design() -> (TableInfo, Vec<Item>) {
    let mut info = demo_info();
    info.name = "helpdesk".into();
    info.indexes.push(IndexInfo {
        name: "byAssignee".into(),
        keys: KeySchema::simple(
            KeyAttr::new("assignee", KeyType::S),
            Some(KeyAttr::new("createdAt", KeyType::S)),
        ),
        projection: Projection {
            projection_type: "KEYS_ONLY".into(),
            non_key_attributes: vec![],
        },
        ..info.indexes[0].clone()
    });
    let mut items = Vec::new();
    for t in ["t1", "t2"] {
        items.push(item(&[
            ("PK", s(&format!("TENANT#{t}"))),
            ("SK", s("PROFILE")),
            ("tenantId", s(t)),
            ("plan", s("pro")),
        ]));
        for u in ["alice", "bob"] {
            items.push(item(&[
                ("PK", s(&format!("TENANT#{t}"))),
                ("SK", s(&format!("USER#{u}"))),
                ("tenantId", s(t)),
                ("userId", s(u)),
                ("GSI1PK", s(&format!("EMAIL#{u}@{t}.example"))),
                ("GSI1SK", s("USER")),
            ]));
        }
        for (n, (status, assignee)) in [("OPEN", Some("alice")), ("CLOSED", None), ("OPEN", None)]
            .into_iter()
            .enumerate()
        {
            let date = format!("2026-01-0{n}");
            let id = format!("k{n}{t}");
            let mut attrs = vec![
                ("PK", s(&format!("TENANT#{t}"))),
                ("SK", s(&format!("TICKET#{date}#{id}"))),
                ("tenantId", s(t)),
                ("date", s(&date)),
                ("ticketId", s(&id)),
                ("createdAt", s(&date)),
                ("status", s(status)),
                ("GSI1PK", s(&format!("STATUS#{status}"))),
                ("GSI1SK", s(&format!("{date}#{id}"))),
                ("price", AttrValue::N("10".into())),
            ];
            if n == 2 {
                attrs.retain(|(k, _)| *k != "price");
                attrs.push(("price", s("ten")));
            }
            if let Some(a) = assignee {
                attrs.push(("assignee", s(a)));
            }
            items.push(item(&attrs));
        }
    }
    (info, items)
}

fn kind<'a>(design: &'a InferredDesign, name: &str) -> &'a InferredKind {
    design.kinds.iter().find(|k| k.name == name).unwrap()
}

fn main_on(kind: &InferredKind, index: Option<&str>) -> (Vec<String>, Vec<String>) {
    let t = kind
        .keys
        .iter()
        .find(|t| t.index.as_deref() == index)
        .unwrap();
    let own = |side: &[Vec<Template>]| {
        TargetTemplates::main(side)
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    (own(&t.partition), own(&t.sort))
}

#[test]
fn finds_every_kind_with_its_key_templates_on_the_table() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let names: Vec<&str> = design.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["TICKET", "USER", "TENANT"]);
    assert_eq!(design.sampled, 12);
    assert_eq!(
        main_on(kind(&design, "TICKET"), None),
        (
            vec!["TENANT#{tenantId}".into()],
            vec!["TICKET#{date}#{ticketId}".into()]
        )
    );
    assert_eq!(
        main_on(kind(&design, "USER"), None),
        (
            vec!["TENANT#{tenantId}".into()],
            vec!["USER#{userId}".into()]
        )
    );
    assert_eq!(
        main_on(kind(&design, "TENANT"), None),
        (vec!["TENANT#{tenantId}".into()], vec!["PROFILE".into()])
    );
}

#[test]
fn an_overloaded_index_means_something_else_for_each_kind() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let gsi = design.indexes.iter().find(|i| i.name == "GSI1").unwrap();
    assert_eq!(
        gsi.kinds,
        [("TICKET".to_owned(), 6), ("USER".to_owned(), 4)]
    );
    assert_eq!(
        main_on(kind(&design, "TICKET"), Some("GSI1")),
        (
            vec!["STATUS#{status}".into()],
            vec!["{date}#{ticketId}".into()]
        )
    );
    assert_eq!(main_on(kind(&design, "USER"), Some("GSI1")).1, ["USER"]);
    assert!(kind(&design, "TENANT")
        .keys
        .iter()
        .all(|t| t.index.is_none()));
}

#[test]
fn a_sparse_index_says_how_much_of_the_table_it_holds() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let sparse = design
        .indexes
        .iter()
        .find(|i| i.name == "byAssignee")
        .unwrap();
    assert_eq!(sparse.items, 2);
    assert!(sparse.is_sparse(design.sampled));
    assert_eq!(sparse.projection, "KEYS_ONLY");
    assert_eq!(sparse.kinds, [("TICKET".to_owned(), 2)]);
    let gsi = design.indexes.iter().find(|i| i.name == "GSI1").unwrap();
    assert_eq!(gsi.items, 10);
}

#[test]
fn attributes_carry_their_types_presence_and_conflicts() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let ticket = kind(&design, "TICKET");
    let price = ticket
        .attributes
        .iter()
        .find(|a| a.name == "price")
        .unwrap();
    assert_eq!(price.types, [("N".to_owned(), 4), ("S".to_owned(), 2)]);
    assert!(price.has_conflict());
    let assignee = ticket
        .attributes
        .iter()
        .find(|a| a.name == "assignee")
        .unwrap();
    assert_eq!((assignee.present, ticket.items), (2, 6));
    assert!(!assignee.has_conflict());
}

#[test]
fn access_patterns_and_relationships_come_from_shared_partitions() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let collection = design
        .access_patterns
        .iter()
        .find(|p| p.description.starts_with("get a TENANT with its"))
        .unwrap();
    assert_eq!(
        collection.description,
        "get a TENANT with its TICKETs and USERs in one Query on the table"
    );
    assert_eq!(collection.request, "Query PK = \"TENANT#{tenantId}\"");
    let by_status = design
        .access_patterns
        .iter()
        .find(|p| p.index.as_deref() == Some("GSI1") && p.description.starts_with("TICKETs"))
        .unwrap();
    assert_eq!(by_status.description, "TICKETs by date on index GSI1");
    let children: Vec<&str> = design
        .relationships
        .iter()
        .filter(|r| r.parent == "TENANT" && r.index.is_none())
        .map(|r| r.child.as_str())
        .collect();
    assert_eq!(children, ["TICKET", "USER"]);
}

#[test]
fn a_library_attribute_names_the_kind_before_the_keys() {
    let info = demo_info();
    let items: Vec<Item> = (0..3)
        .map(|n| {
            item(&[
                ("PK", s(&format!("$store#storeid_s{n}"))),
                ("SK", s("$employee_1#employeeid_e1")),
                ("__edb_e__", s("employee")),
                ("__edb_v__", s("1")),
                ("storeId", s(&format!("s{n}"))),
            ])
        })
        .collect();
    let design = infer_design(&info, &items);
    assert_eq!(design.kinds.len(), 1);
    assert_eq!(design.kinds[0].name, "employee");
    assert_eq!(design.kinds[0].source, "__edb_e__");
    assert_eq!(design.kinds[0].items, 3);
}

/// The items of a KEYS_ONLY index as a Scan of it returns them.
fn keys_only(info: &TableInfo, index: &str, items: &[Item]) -> Vec<Item> {
    let keys = &info.index(index).unwrap().keys;
    items
        .iter()
        .filter(|i| keys.attributes().all(|k| i.get(&k.name).is_some()))
        .map(|i| {
            let mut kept = Item::default();
            for k in info.keys.attributes().chain(keys.attributes()) {
                kept.insert(k.name.clone(), i.get(&k.name).unwrap().clone());
            }
            kept
        })
        .collect()
}

#[test]
fn a_sparse_index_sample_finds_the_kinds_a_table_sample_missed() {
    let (info, items) = tenant_design();
    let projected = keys_only(&info, "byAssignee", &items);
    // The table's sample happened to hold none of the assigned tickets.
    let table: Vec<Item> = items
        .into_iter()
        .filter(|i| i.get("assignee").is_none())
        .collect();
    let without = infer_design(&info, &table);
    assert!(kind(&without, "TICKET")
        .keys
        .iter()
        .all(|t| t.index.as_deref() != Some("byAssignee")));
    let sample = IndexSample {
        index: "byAssignee".into(),
        items: projected,
    };
    let design = infer_design_sampled(&info, &table, &[sample]);
    let sparse = design
        .indexes
        .iter()
        .find(|i| i.name == "byAssignee")
        .unwrap();
    assert_eq!(sparse.kinds, [("TICKET".to_owned(), 2)]);
    assert_eq!((sparse.items, sparse.own_sample), (0, Some(2)));
    assert_eq!(
        sparse.projected,
        "KEYS_ONLY: the table's and the index's keys"
    );
    assert_eq!(
        main_on(kind(&design, "TICKET"), Some("byAssignee")).0,
        ["{assignee}"]
    );
    // The table's figures are still the table sample's.
    assert_eq!(kind(&design, "TICKET").items, 4);
    assert_eq!(kind(&design, "TICKET").index_only, None);
}

#[test]
fn an_index_item_without_the_library_attribute_keeps_its_kind_by_primary_key() {
    let mut info = demo_info();
    info.indexes[0].projection.projection_type = "KEYS_ONLY".into();
    let gsi = info.indexes[0].name.clone();
    let (gpk, gsk) = {
        let keys = &info.indexes[0].keys;
        (
            keys.partition_key().name.clone(),
            keys.sort_key().unwrap().name.clone(),
        )
    };
    let items: Vec<Item> = (0..3)
        .map(|n| {
            item(&[
                ("PK", s(&format!("$store#storeid_s{n}"))),
                ("SK", s(&format!("$employee_1#employeeid_e{n}"))),
                ("__edb_e__", s("employee")),
                (gpk.as_str(), s(&format!("$store#email_x{n}"))),
                (gsk.as_str(), s("$employee_1")),
            ])
        })
        .collect();
    let mut stranger = keys_only(&info, &gsi, &items[..1]).remove(0);
    stranger.insert("SK", s("$office_1#officeid_o9"));
    let mut projected = keys_only(&info, &gsi, &items);
    projected.push(stranger);
    let sample = IndexSample {
        index: gsi.clone(),
        items: projected,
    };
    let design = infer_design_sampled(&info, &items, &[sample]);
    let index = design.indexes.iter().find(|i| i.name == gsi).unwrap();
    assert_eq!(index.kinds[0], ("employee".to_owned(), 3));
    // An index item the table sample lacks is named by the rules, and said to be seen only there.
    let only: Vec<&InferredKind> = design
        .kinds
        .iter()
        .filter(|k| k.index_only.is_some())
        .collect();
    assert_eq!(only.len(), 1, "{:?}", design.kinds);
    assert_eq!(only[0].index_only.as_deref(), Some(gsi.as_str()));
    // Its index items carry the table's key, so its templates on the table are known too.
    let sort = main_on(only[0], None).1;
    assert!(sort[0].starts_with("$office_"), "{sort:?}");
}

/// dynamodb-toolbox's profile key starts with the separator (`#PROFILE#{customerId}`): the
/// template keeps it, or a Query written from the document would find nothing.
#[test]
fn a_key_that_starts_with_the_separator_keeps_it_in_its_template() {
    let info = demo_info();
    let items: Vec<Item> = ["c1", "c2", "c3"]
        .iter()
        .map(|c| {
            item(&[
                ("PK", s(&format!("CUSTOMER#{c}"))),
                ("SK", s(&format!("#PROFILE#{c}"))),
                ("customerId", s(c)),
                ("_et", s("customer")),
            ])
        })
        .collect();
    let design = infer_design(&info, &items);
    assert_eq!(
        main_on(kind(&design, "customer"), None),
        (
            vec!["CUSTOMER#{customerId}".into()],
            vec!["#PROFILE#{customerId}".into()]
        )
    );
}

/// The Workbench sample's Posts: `EntityType` names them `post`, their `User:{id}` partition
/// would name them `User`; the INCLUDE index leaves `EntityType` out, and a Post the table
/// sample missed is still a `post`, as the table sample's Posts on that index are.
#[test]
fn an_index_item_the_table_sample_missed_is_named_as_its_kind_on_that_index() {
    let mut info = demo_info();
    info.indexes[0].projection.projection_type = "INCLUDE".into();
    let post = |n: usize| {
        item(&[
            ("PK", s(&format!("User:u{n}"))),
            ("SK", s(&format!("2023-04-0{n}T08:00:00Z"))),
            ("EntityType", s("post")),
            ("GSI1PK", s("US")),
            ("GSI1SK", s(&format!("2023-04-0{n}"))),
        ])
    };
    let user = |n: usize| {
        item(&[
            ("PK", s(&format!("User:u{n}"))),
            ("SK", s(&format!("User:u{n}"))),
            ("EntityType", s("user")),
        ])
    };
    let table = vec![post(1), post(2), user(1), user(2)];
    let projected: Vec<Item> = (1..=4)
        .map(|n| {
            let mut p = post(n);
            p.remove("EntityType");
            p
        })
        .collect();
    let sample = IndexSample {
        index: "GSI1".into(),
        items: projected,
    };
    let design = infer_design_sampled(&info, &table, &[sample]);
    let names: Vec<&str> = design.kinds.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["post", "user"], "{:?}", design.kinds);
    assert_eq!(design.indexes[0].kinds, [("post".to_owned(), 4)]);
}

/// A key holding bare upper-case words (a country code) is the attribute's values, not one
/// marker per word; a kind whose items all write one word keeps it as a marker.
#[test]
fn bare_words_of_a_key_are_its_values_unless_every_item_writes_one() {
    let info = demo_info();
    let items: Vec<Item> = ["US", "DE", "US"]
        .iter()
        .enumerate()
        .map(|(n, country)| {
            item(&[
                ("PK", s(&format!("User:u{n}"))),
                ("SK", s(&format!("2023-04-0{n}"))),
                ("EntityType", s("post")),
                ("GSI1PK", s(country)),
                ("GSI1SK", s("POST")),
            ])
        })
        .collect();
    let design = infer_design(&info, &items);
    assert_eq!(
        main_on(kind(&design, "post"), Some("GSI1")),
        (vec!["{GSI1PK}".into()], vec!["POST".into()])
    );
}
