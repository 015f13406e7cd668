use super::*;
use crate::design::collection::dynamo_cmp;
use crate::design::collection::fixtures::*;
use crate::design::schema::KeyType;
use crate::item::value::AttrValue;

#[test]
fn groups_collections_in_first_seen_order() {
    let mut store = table_store();
    assert!(store.is_empty());
    store.extend(vec![
        pk_sk("USER#2", "PROFILE"),
        pk_sk("USER#1", "PROFILE"),
        pk_sk("USER#2", "ORDER#2026-01-01#o1"),
    ]);
    store.extend(vec![]);
    store.extend(vec![
        pk_sk("PRODUCT#p1", "PRODUCT"),
        pk_sk("USER#1", "ORDER#2026-01-01#o2"),
    ]);
    assert_eq!(store.len(), 5);
    assert!(!store.is_empty());
    let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["USER#2", "USER#1", "PRODUCT#p1"]);
    let members: Vec<_> = store
        .collections()
        .iter()
        .map(|c| c.items.clone())
        .collect();
    // Within a collection, sort-key order: ORDER#… < PROFILE.
    assert_eq!(members, [vec![2, 0], vec![4, 1], vec![3]]);
    for (key, want) in [
        ("USER#2", Some(0)),
        ("USER#1", Some(1)),
        ("PRODUCT#p1", Some(2)),
        ("USER#3", None),
        ("(no PK)", None),
    ] {
        assert_eq!(store.collection_of(key), want, "{key}");
    }
    for (id, want) in [(0, 0), (1, 1), (2, 0), (3, 2), (4, 1)] {
        assert_eq!(store.collection_of_item(id), want, "item {id}");
    }
}

#[test]
fn partition_keys_of_each_type_become_display_text() {
    let cases: Vec<(KeyType, AttrValue, &str)> = vec![
        (KeyType::S, s("USER#1"), "USER#1"),
        (KeyType::S, s("a\u{1b}[31m"), "a\u{1b}[31m"),
        (KeyType::N, n("1.50"), "1.50"),
        (KeyType::B, b(&[1, 2, 3]), "AQID"),
    ];
    for (key_type, value, want) in cases {
        let keys = KeySchema::simple(key_attr("id", key_type), None);
        let mut store = ItemStore::new(keys.clone(), keys);
        store.extend(vec![item(vec![("id", value.clone())])]);
        assert_eq!(store.collections()[0].key, want, "{value:?}");
        assert_eq!(store.collection_of(want), Some(0), "{value:?}");
    }
}

#[test]
fn kinds_of_demo_shapes() {
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("USER#1", "PROFILE", Some("USER")),
        ("USER#1", "ORDER#2026-01-02#o1", Some("ORDER")),
        ("ORDER#o1", "ITEM#1", Some("ITEM")),
        ("ORDER#o1", "#META", Some("ORDER")),
        ("PRODUCT#p1", "PRODUCT", Some("PRODUCT")),
        ("alice", "2026-01-02", None),
    ];
    let mut store = table_store();
    store.extend(cases.iter().map(|(pk, sk, _)| pk_sk(pk, sk)).collect());
    assert_eq!(store.separator(), '#');
    for (id, (pk, sk, want)) in cases.iter().enumerate() {
        let id = id as ItemId;
        assert_eq!(store.kind_of(id), *want, "{pk} / {sk}");
        let by_id = store.kind_id_of(id).map(|kind| store.kind_name(kind));
        assert_eq!(by_id, *want, "{pk} / {sk}");
    }
    assert_eq!(store.kind_id_of(1), store.kind_id_of(3), "both ORDER");
    assert_ne!(store.kind_id_of(0), store.kind_id_of(1));

    let per_collection: Vec<(&str, Vec<(&str, u32)>)> = store
        .collections()
        .iter()
        .map(|c| {
            let kinds = c
                .kinds
                .iter()
                .map(|&(kind, count)| (store.kind_name(kind), count))
                .collect();
            (c.key.as_str(), kinds)
        })
        .collect();
    assert_eq!(
        per_collection,
        [
            ("USER#1", vec![("USER", 1), ("ORDER", 1)]),
            ("ORDER#o1", vec![("ITEM", 1), ("ORDER", 1)]),
            ("PRODUCT#p1", vec![("PRODUCT", 1)]),
            ("alice", vec![]),
        ]
    );
    assert_eq!(
        store.kinds_summary(),
        [("ORDER", 2), ("ITEM", 1), ("PRODUCT", 1), ("USER", 1)]
    );
}

#[test]
fn separator_is_inferred_from_the_first_page_then_fixed() {
    let mut store = table_store();
    assert_eq!(store.separator(), '#');
    store.extend(vec![]);
    assert_eq!(store.separator(), '#', "an empty page infers nothing");
    store.extend(vec![
        pk_sk("USER|1", "PROFILE"),
        pk_sk("USER|1", "ORDER|2026-01-02|o1"),
    ]);
    assert_eq!(store.separator(), '|');
    // A later page in another style neither changes the separator nor re-decodes.
    store.extend(vec![
        pk_sk("TEAM#1", "MEMBER#2"),
        pk_sk("TEAM#1", "MEMBER#3"),
        pk_sk("USER|2", "PROFILE"),
    ]);
    assert_eq!(store.separator(), '|');
    let kinds: Vec<_> = (0..5).map(|id| store.kind_of(id)).collect();
    assert_eq!(
        kinds,
        [Some("USER"), Some("ORDER"), None, None, Some("USER")]
    );
    assert_eq!(store.kinds_summary(), [("USER", 2), ("ORDER", 1)]);

    // A first page without kinds fixes the default.
    let mut store = table_store();
    store.extend(vec![pk_sk("alice", "2026-01-02")]);
    store.extend(vec![pk_sk("USER|1", "ORDER|o1")]);
    assert_eq!(store.separator(), '#');
    assert_eq!(store.kind_of(1), None);
}

#[test]
fn groups_by_an_index_key_and_decodes_kinds_with_table_keys() {
    let gsi = schema("GSI1PK", Some(("GSI1SK", KeyType::S)));
    let mut store = ItemStore::new(gsi.clone(), table());
    let order = |user: &str, day: &str, id: &str, status: &str| {
        item(vec![
            ("PK", s(&format!("USER#{user}"))),
            ("SK", s(&format!("ORDER#{day}#{id}"))),
            ("GSI1PK", s(&format!("STATUS#{status}"))),
            ("GSI1SK", s(&format!("{day}#ORDER#{id}"))),
        ])
    };
    // A table scan grouped by the index: the profile has no GSI1PK.
    store.extend(vec![
        order("1", "2026-03-01", "o3", "SHIPPED"),
        pk_sk("USER#1", "PROFILE"),
        order("2", "2026-01-01", "o1", "SHIPPED"),
        order("1", "2026-02-01", "o2", "PENDING"),
        item(vec![
            ("PK", s("PRODUCT#p1")),
            ("SK", s("PRODUCT")),
            ("GSI1PK", s("CATEGORY#books")),
            ("GSI1SK", s("PRODUCT#p1")),
        ]),
    ]);
    assert_eq!(store.group_keys(), &gsi);
    assert_eq!(store.table_keys(), &table());
    let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "STATUS#SHIPPED",
            "(no GSI1PK)",
            "STATUS#PENDING",
            "CATEGORY#books"
        ]
    );
    assert_eq!(
        sort_keys(&store, 0, "GSI1SK"),
        [s("2026-01-01#ORDER#o1"), s("2026-03-01#ORDER#o3")]
    );
    assert_eq!(store.collection_of("(no GSI1PK)"), Some(1));
    // Kinds come from PK/SK, not from the STATUS#… / date-first index keys.
    let kinds: Vec<_> = (0..5).map(|id| store.kind_of(id)).collect();
    assert_eq!(
        kinds,
        [
            Some("ORDER"),
            Some("USER"),
            Some("ORDER"),
            Some("ORDER"),
            Some("PRODUCT")
        ]
    );
    assert_eq!(
        store.kinds_summary(),
        [("ORDER", 3), ("PRODUCT", 1), ("USER", 1)]
    );
}

#[test]
fn items_missing_the_partition_key() {
    let mut store = table_store();
    store.extend(vec![
        item(vec![("SK", s("b")), ("seq", s("1"))]),
        pk_sk("USER#1", "PROFILE"),
        item(vec![("SK", s("a")), ("seq", s("2"))]),
        item(vec![("seq", s("3"))]),
        // Not a key type: cannot group either.
        item(vec![("PK", AttrValue::Bool(true)), ("seq", s("4"))]),
    ]);
    let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["(no PK)", "USER#1"]);
    assert_eq!(store.collection_of("(no PK)"), Some(0));
    assert_eq!(seqs(&store, 0), ["3", "4", "2", "1"]);

    // A real key spelled like the placeholder stays its own collection and wins the lookup.
    store.extend(vec![pk_sk("(no PK)", "x")]);
    let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(keys, ["(no PK)", "USER#1", "(no PK)"]);
    assert_eq!(store.collection_of("(no PK)"), Some(2));
}

#[test]
fn bytes_are_summed_per_item_collection_and_table() {
    let items = vec![
        pk_sk("USER#1", "PROFILE"),
        item(vec![
            ("PK", s("USER#1")),
            ("SK", s("ORDER#1")),
            ("total", n("12.50")),
        ]),
        pk_sk("USER#2", "PROFILE"),
        item(vec![("name", s("no key"))]),
    ];
    let sizes: Vec<usize> = items.iter().map(item_size).collect();
    let mut store = table_store();
    store.extend(items);
    for (id, &size) in sizes.iter().enumerate() {
        assert_eq!(store.item_size(id as ItemId), size, "item {id}");
    }
    let bytes: Vec<_> = store.collections().iter().map(|c| c.bytes).collect();
    assert_eq!(bytes, [sizes[0] + sizes[1], sizes[2], sizes[3]]);
    assert_eq!(store.total_bytes(), sizes.iter().sum::<usize>());
    assert_eq!(store.total_bytes(), 17 + 25 + 17 + 10);
}

/// Every id exactly once across collections, each collection sorted, sums consistent.
fn check_invariants(store: &ItemStore, sort_key: &str) {
    let mut seen = vec![false; store.len()];
    let mut bytes = 0;
    for (index, collection) in store.collections().iter().enumerate() {
        for &id in &collection.items {
            assert!(!seen[id as usize], "item {id} twice");
            seen[id as usize] = true;
            assert_eq!(store.collection_of_item(id), index);
        }
        for pair in collection.items.windows(2) {
            let key = |id: ItemId| store.item(id).get(sort_key).cloned();
            let order = match (key(pair[0]).as_ref(), key(pair[1]).as_ref()) {
                (Some(a), Some(b)) => dynamo_cmp(a, b),
                (a, b) => a.is_some().cmp(&b.is_some()),
            }
            .then(pair[0].cmp(&pair[1]));
            assert_eq!(order, Ordering::Less, "{} unsorted", collection.key);
        }
        let sum: usize = collection.items.iter().map(|&id| store.item_size(id)).sum();
        assert_eq!(collection.bytes, sum, "{}", collection.key);
        bytes += sum;
    }
    assert!(seen.iter().all(|&s| s), "every item in a collection");
    assert_eq!(store.total_bytes(), bytes);
    let kinds: usize = store.kinds_summary().iter().map(|(_, c)| c).sum();
    let with_kind = (0..store.len() as ItemId)
        .filter(|&id| store.kind_of(id).is_some())
        .count();
    assert_eq!(kinds, with_kind);
}

#[test]
fn ingests_the_demo_data_set() {
    // 3,000 users: 45,000 items and more, a hundred pages, in a few seconds of a debug build.
    let items = crate::demo::demo_data::generate(3_000);
    assert!(items.len() >= 45_000, "{} items", items.len());
    let count = items.len();
    let mut pages: Vec<Vec<Item>> = Vec::new();
    let mut rest = items.into_iter();
    loop {
        let page: Vec<Item> = rest.by_ref().take(1000).collect();
        if page.is_empty() {
            break;
        }
        pages.push(page);
    }

    let mut store = table_store();
    // Grouped by the numeric local index as well: orders sort by total, profiles first.
    let lsi = KeySchema::simple(
        key_attr("PK", KeyType::S),
        Some(key_attr("LSI1SK", KeyType::N)),
    );
    let mut by_total = ItemStore::new(lsi, table());
    for page in pages {
        by_total.extend(page.clone());
        store.extend(page);
    }
    assert_eq!(store.len(), count);
    assert_eq!(by_total.len(), count);
    check_invariants(&store, "SK");
    check_invariants(&by_total, "LSI1SK");

    let celebrity = store.collection_of("USER#celebrity").unwrap();
    assert_eq!(store.collections()[celebrity].kinds.len(), 2);
    let summary = store.kinds_summary();
    let names: Vec<_> = summary.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["ITEM", "ORDER", "USER", "PRODUCT"]);
    assert_eq!(summary[3], ("PRODUCT", 120));
    assert_eq!(summary[2], ("USER", 3_001));
    let celebrity = by_total.collection_of("USER#celebrity").unwrap();
    let first = by_total.collections()[celebrity].items[0];
    assert_eq!(by_total.kind_of(first), Some("USER"));
}

/// TournamentRegionIndex of issue 52: partition tournamentId + region, sort round + bracket +
/// matchId.
fn matches_store() -> ItemStore {
    let index = KeySchema::new(
        vec![
            key_attr("tournamentId", KeyType::S),
            key_attr("region", KeyType::S),
        ],
        vec![
            key_attr("round", KeyType::S),
            key_attr("bracket", KeyType::S),
            key_attr("matchId", KeyType::N),
        ],
    )
    .unwrap();
    ItemStore::new(index, schema("matchId", None))
}

fn game(tournament: &str, region: &str, round: &str, bracket: &str, id: &str) -> Item {
    item(vec![
        ("tournamentId", s(tournament)),
        ("region", s(region)),
        ("round", s(round)),
        ("bracket", s(bracket)),
        ("matchId", n(id)),
    ])
}

#[test]
fn a_multi_attribute_index_groups_by_the_tuple_of_partition_values() {
    let mut store = matches_store();
    store.extend(vec![
        game("WINTER2024", "EU-WEST", "FINAL", "upper", "1"),
        game("WINTER2024", "US-EAST", "FINAL", "upper", "2"),
        game("WINTER2024", "EU-WEST", "SEMI", "upper", "3"),
        game("SPRING2025", "EU-WEST", "FINAL", "lower", "4"),
        // No region: DynamoDB keeps it out of the index; it is not anyone's collection.
        item(vec![("tournamentId", s("WINTER2024")), ("matchId", n("5"))]),
    ]);
    let keys: Vec<_> = store.collections().iter().map(|c| c.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "WINTER2024 · EU-WEST",
            "WINTER2024 · US-EAST",
            "SPRING2025 · EU-WEST",
            "(no tournamentId + region)"
        ]
    );
    assert_eq!(store.collection_of("WINTER2024 · EU-WEST"), Some(0));
    assert_eq!(store.collections()[0].items, [0, 2]);
    assert_eq!(store.collection_of("WINTER2024"), None);
}

#[test]
fn a_multi_attribute_sort_key_orders_attribute_by_attribute() {
    let mut store = matches_store();
    // Arrival order is not the index's order; concatenating the values would put
    // "SEMIFINAL"+"a" before "SEMI"+"upper", and the number 10 before 9.
    store.extend(vec![
        game("W", "EU", "SEMIFINAL", "a", "1"),
        game("W", "EU", "SEMI", "upper", "10"),
        game("W", "EU", "SEMI", "upper", "9"),
        game("W", "EU", "SEMI", "lower", "7"),
        item(vec![
            ("tournamentId", s("W")),
            ("region", s("EU")),
            ("round", s("SEMI")),
            ("matchId", n("8")),
        ]),
    ]);
    store.extend(vec![game("W", "EU", "QUARTER", "z", "11")]);
    let order: Vec<_> = store.collections()[0]
        .items
        .iter()
        .map(|&id| store.item(id).get("matchId").cloned().unwrap())
        .collect();
    // round, then bracket (missing first), then matchId as a number.
    assert_eq!(order, [n("11"), n("8"), n("7"), n("9"), n("10"), n("1")]);
}

#[test]
fn a_written_item_is_found_in_its_tuple_collection_on_a_multi_attribute_index() {
    let mut store = matches_store();
    store.extend(vec![
        game("WINTER2024", "EU-WEST", "FINAL", "upper", "1"),
        game("WINTER2024", "US-EAST", "FINAL", "upper", "2"),
    ]);
    // The explorer finds the old image of an edited item in its collection, keyed by the
    // tuple of partition values, not by the first attribute's value alone.
    let edited = game("WINTER2024", "US-EAST", "FINAL", "upper", "2");
    assert_eq!(store.find(&edited), Some(1));
    let absent = game("WINTER2024", "US-EAST", "FINAL", "upper", "3");
    assert_eq!(store.find(&absent), None);
}
