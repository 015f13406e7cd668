use super::super::fixtures::{item, key_attr, n, pk_sk, s, table, table_store};
use super::*;
use crate::design::schema::KeySchema;
use crate::item::value::Item;

fn shown(order: &DisplayOrder, store: &ItemStore) -> Vec<String> {
    let len = store.collections().len();
    (0..len)
        .map(|i| store.collections()[order.at(i, len).unwrap()].key.clone())
        .collect()
}

/// Pages touching collections in a scrambled order, big and small, new and old.
fn pages() -> Vec<Vec<Item>> {
    let mut state = 7u64;
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    (0..40)
        .map(|p| {
            (0..25)
                .map(|i| {
                    let pk = format!("K#{}", next(60 + p * 3));
                    let filler = "x".repeat(next(40) as usize);
                    item(vec![
                        ("PK", s(&pk)),
                        ("SK", s(&format!("{p:03}-{i:03}"))),
                        ("f", s(&filler)),
                    ])
                })
                .collect()
        })
        .collect()
}

#[test]
fn per_page_updates_match_a_full_sort_in_every_order() {
    for order in [
        CollectionOrder::Key,
        CollectionOrder::Items,
        CollectionOrder::Bytes,
        CollectionOrder::FirstSeen,
    ] {
        let mut store = table_store();
        let mut incremental = DisplayOrder::default();
        incremental.set(order, &store);
        for page in pages() {
            store.extend(page);
            incremental.refresh(&store);
            let mut full = DisplayOrder::default();
            full.set(order, &store);
            assert_eq!(
                shown(&incremental, &store),
                shown(&full, &store),
                "{order:?}"
            );
        }
    }
}

#[test]
fn orders_by_key_items_and_bytes() {
    let mut store = table_store();
    store.extend(vec![
        pk_sk("b", "1"),
        pk_sk("a", "1"),
        pk_sk("c", "1"),
        pk_sk("c", "2"),
        item(vec![
            ("PK", s("b")),
            ("SK", s("2")),
            ("big", s(&"x".repeat(500))),
        ]),
        pk_sk("c", "3"),
    ]);
    let mut order = DisplayOrder::default();
    assert_eq!(shown(&order, &store), ["b", "a", "c"]);
    order.set(CollectionOrder::Key, &store);
    assert_eq!(shown(&order, &store), ["a", "b", "c"]);
    order.set(CollectionOrder::Items, &store);
    assert_eq!(shown(&order, &store), ["c", "b", "a"]);
    order.set(CollectionOrder::Bytes, &store);
    assert_eq!(shown(&order, &store), ["b", "c", "a"]);
    assert_eq!(order.position_of(2), Some(1));
    assert_eq!(CollectionOrder::Bytes.next(), CollectionOrder::FirstSeen);
}

#[test]
fn numeric_partition_keys_order_as_numbers() {
    let keys = KeySchema::simple(key_attr("id", crate::design::schema::KeyType::N), None);
    let mut store = ItemStore::new(keys, table());
    store.extend(
        ["10", "9", "-1", "2.5"]
            .iter()
            .map(|v| item(vec![("id", n(v))]))
            .collect(),
    );
    let mut order = DisplayOrder::default();
    order.set(CollectionOrder::Key, &store);
    assert_eq!(shown(&order, &store), ["-1", "2.5", "9", "10"]);
}

#[test]
fn key_order_is_byte_order_whatever_the_prefixes() {
    let keys = [
        "ORDER#o000123456789012",
        "ORDER#o000123456789011",
        "ORDER#o00012345678901",
        "A",
        "A\0",
        "",
        "é",
        "ORDER#o000123456789012x",
        "Z",
    ];
    let mut store = table_store();
    store.extend(keys.iter().map(|k| pk_sk(k, "1")).collect());
    let mut order = DisplayOrder::default();
    order.set(CollectionOrder::Key, &store);
    let mut want: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    want.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    assert_eq!(shown(&order, &store), want);
}

/// A multi-attribute partition key's tuples order attribute by attribute, each as DynamoDB
/// compares its type: a number first attribute as a number (9 before 10), not as text.
#[test]
fn tuple_keys_order_part_by_part_as_their_types() {
    use crate::design::schema::KeyType;
    let keys = KeySchema::new(
        vec![
            key_attr("season", KeyType::N),
            key_attr("region", KeyType::S),
        ],
        vec![],
    )
    .unwrap();
    let mut store = ItemStore::new(keys, table());
    store.extend(
        [("10", "EU"), ("9", "EU"), ("9", "AP"), ("2.5", "US")]
            .iter()
            .map(|(season, region)| item(vec![("season", n(season)), ("region", s(region))]))
            .collect(),
    );
    let mut order = DisplayOrder::default();
    order.set(CollectionOrder::Key, &store);
    assert_eq!(
        shown(&order, &store),
        ["2.5 · US", "9 · AP", "9 · EU", "10 · EU"]
    );
}
