use super::*;
use crate::design::collection::fixtures::*;
use crate::design::collection::{dynamo_cmp, ItemStore};
use crate::design::schema::{KeySchema, KeyType};
use crate::item::value::{AttrValue, Item};

#[test]
fn sorts_within_a_collection_by_key_type() {
    let cases: Vec<(KeyType, Vec<AttrValue>, Vec<AttrValue>)> = vec![
        (
            KeyType::S,
            vec![s("b"), s("B"), s("é"), s("ab"), s("z"), s("a")],
            vec![s("B"), s("a"), s("ab"), s("b"), s("z"), s("é")],
        ),
        (
            KeyType::N,
            vec![n("10"), n("9"), n("2.5"), n("-5"), n("1"), n("2"), n("-10")],
            vec![n("-10"), n("-5"), n("1"), n("2"), n("2.5"), n("9"), n("10")],
        ),
        (
            KeyType::B,
            vec![b(&[0x80]), b(&[1, 0]), b(&[0x7f]), b(&[]), b(&[1])],
            vec![b(&[]), b(&[1]), b(&[1, 0]), b(&[0x7f]), b(&[0x80])],
        ),
    ];
    for (key_type, arrival, want) in cases {
        let keys = KeySchema::simple(key_attr("PK", KeyType::S), Some(key_attr("SK", key_type)));
        // One page, two-item pages and one item per page take different merge paths.
        for page_size in [arrival.len(), 2, 1] {
            let mut store = ItemStore::new(keys.clone(), keys.clone());
            let items: Vec<Item> = arrival
                .iter()
                .map(|v| item(vec![("PK", s("P")), ("SK", v.clone())]))
                .collect();
            for page in items.chunks(page_size) {
                store.extend(page.to_vec());
            }
            assert_eq!(store.collections().len(), 1);
            assert_eq!(
                sort_keys(&store, 0, "SK"),
                want,
                "{key_type:?}, pages of {page_size}"
            );
        }
    }
}

#[test]
fn out_of_order_arrival() {
    // Descending query pages, ascending pages and a shuffle, interleaving two collections.
    let count = 1000u32;
    let descending: Vec<u32> = (0..count).rev().collect();
    let ascending: Vec<u32> = (0..count).collect();
    let shuffled: Vec<u32> = (0..count).map(|i| (i * 7919) % count).collect();
    for (name, order) in [
        ("descending", descending),
        ("ascending", ascending),
        ("shuffled", shuffled),
    ] {
        let mut store = table_store();
        let items: Vec<Item> = order
            .iter()
            .map(|i| {
                let pk = if i % 3 == 0 { "A" } else { "B" };
                pk_sk(pk, &format!("K#{i:05}"))
            })
            .collect();
        for page in items.chunks(64) {
            store.extend(page.to_vec());
        }
        assert_eq!(store.len(), count as usize, "{name}");
        for collection in 0..2 {
            let keys = sort_keys(&store, collection, "SK");
            let mut sorted = keys.clone();
            sorted.sort_by(dynamo_cmp);
            assert_eq!(keys, sorted, "{name}, collection {collection}");
        }
        let sizes: usize = store.collections().iter().map(|c| c.items.len()).sum();
        assert_eq!(sizes, count as usize, "{name}");
    }
}

#[test]
fn equal_sort_keys_keep_arrival_order() {
    let keys = schema("PK", Some(("SK", KeyType::N)));
    // (name, (sort key, seq) pairs in arrival order, page size, seqs in store order).
    type Arrival = Vec<(&'static str, &'static str)>;
    let cases: Vec<(&str, Arrival, usize, Vec<&str>)> = vec![
        (
            "in order",
            vec![("1", "a"), ("1", "b"), ("2", "c"), ("2", "d")],
            4,
            vec!["a", "b", "c", "d"],
        ),
        (
            "late equal keys within a page",
            vec![
                ("5", "a"),
                ("3", "b"),
                ("5", "c"),
                ("3", "d"),
                ("9", "e"),
                ("3", "f"),
                ("5", "g"),
            ],
            7,
            vec!["b", "d", "f", "a", "c", "g", "e"],
        ),
        (
            "late equal keys across pages",
            vec![
                ("5", "a"),
                ("9", "b"),
                ("5", "c"),
                ("3", "d"),
                ("5", "e"),
                ("3", "f"),
            ],
            2,
            vec!["d", "f", "a", "c", "e", "b"],
        ),
        (
            "numerically equal spellings",
            vec![("100", "a"), ("1e2", "b"), ("99", "c"), ("100.0", "d")],
            1,
            vec!["c", "a", "b", "d"],
        ),
    ];
    for (name, arrival, page_size, want) in cases {
        let mut store = ItemStore::new(keys.clone(), keys.clone());
        let items: Vec<Item> = arrival
            .iter()
            .map(|(sk, seq)| item(vec![("PK", s("P")), ("SK", n(sk)), ("seq", s(seq))]))
            .collect();
        for page in items.chunks(page_size) {
            store.extend(page.to_vec());
        }
        assert_eq!(seqs(&store, 0), want, "{name}");
    }
}

#[test]
fn items_without_the_sort_key_come_first() {
    let mut store = table_store();
    store.extend(vec![
        item(vec![("PK", s("P")), ("SK", s("b")), ("seq", s("1"))]),
        item(vec![("PK", s("P")), ("seq", s("2"))]),
        item(vec![("PK", s("P")), ("SK", s("a")), ("seq", s("3"))]),
        item(vec![("PK", s("P")), ("seq", s("4"))]),
    ]);
    assert_eq!(seqs(&store, 0), ["2", "4", "3", "1"]);
}

#[test]
fn keys_without_a_sort_key_keep_arrival_order() {
    let keys = schema("PK", None);
    let mut store = ItemStore::new(keys.clone(), keys);
    store.extend(vec![
        pk_sk("P", "z"),
        pk_sk("P", "a"),
        pk_sk("Q", "m"),
        pk_sk("P", "b"),
    ]);
    let members: Vec<_> = store
        .collections()
        .iter()
        .map(|c| c.items.clone())
        .collect();
    assert_eq!(members, [vec![0, 1, 3], vec![2]]);
}

#[test]
fn random_arrival_matches_a_stable_sort() {
    // Mixed-type sort keys (and missing ones) in random order and random page sizes; the
    // store must equal a stable sort of each collection's arrival order by dynamo_cmp.
    let pool = value_pool();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |below: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % below as u64) as usize
    };
    for round in 0..20 {
        let mut store = table_store();
        let mut arrival: Vec<Item> = Vec::new();
        for _ in 0..300 {
            let pk = ["A", "B", "C"][next(3)];
            let mut attrs = vec![("PK", s(pk))];
            if next(10) > 0 {
                attrs.push(("SK", pool[next(pool.len())].clone()));
            }
            arrival.push(item(attrs));
        }
        let mut rest = arrival.as_slice();
        while !rest.is_empty() {
            let take = (1 + next(60)).min(rest.len());
            store.extend(rest[..take].to_vec());
            rest = &rest[take..];
        }
        for collection in store.collections() {
            let mut want: Vec<ItemId> = (0..arrival.len() as ItemId)
                .filter(|&id| arrival[id as usize].get("PK") == Some(&s(&collection.key)))
                .collect();
            want.sort_by(|&x, &y| {
                match (arrival[x as usize].get("SK"), arrival[y as usize].get("SK")) {
                    (Some(a), Some(b)) => dynamo_cmp(a, b),
                    (a, b) => a.is_some().cmp(&b.is_some()),
                }
            });
            assert_eq!(collection.items, want, "round {round}, {}", collection.key);
        }
    }
}

/// A shard's items from (sort key, seq) pairs; `None` leaves the sort key out.
fn shard(items: &[(Option<&str>, &str)]) -> Vec<Item> {
    items
        .iter()
        .map(|&(sk, seq)| {
            let mut attrs = vec![("PK", s("P")), ("seq", s(seq))];
            if let Some(sk) = sk {
                attrs.push(("SK", n(sk)));
            }
            item(attrs)
        })
        .collect()
}

fn seq_order(items: &[Item]) -> Vec<&str> {
    items
        .iter()
        .map(|item| item.get("seq").and_then(AttrValue::as_s).unwrap_or(""))
        .collect()
}

#[test]
fn merge_sorted_orders_sorted_shards_into_one_read() {
    // (name, shards, sort key, descending, seqs in merged order)
    type Case<'a> = (
        &'a str,
        Vec<Vec<(Option<&'a str>, &'a str)>>,
        Option<&'a str>,
        bool,
        Vec<&'a str>,
    );
    let cases: Vec<Case> = vec![
        (
            "already sorted shards interleave, numerically",
            vec![
                vec![(Some("1"), "a"), (Some("9"), "b"), (Some("10"), "c")],
                vec![(Some("2"), "d"), (Some("3"), "e"), (Some("100"), "f")],
            ],
            Some("SK"),
            false,
            vec!["a", "d", "e", "b", "c", "f"],
        ),
        (
            "ties keep shard order",
            vec![
                vec![(Some("1"), "a"), (Some("2"), "b")],
                vec![(Some("1"), "c"), (Some("2"), "d")],
                vec![(Some("1e0"), "e")],
            ],
            Some("SK"),
            false,
            vec!["a", "c", "e", "b", "d"],
        ),
        (
            "descending, ties still in shard order",
            vec![
                vec![(Some("9"), "a"), (Some("5"), "b"), (Some("1"), "c")],
                vec![(Some("7"), "d"), (Some("5"), "e")],
            ],
            Some("SK"),
            true,
            vec!["a", "d", "b", "e", "c"],
        ),
        (
            "a missing sort key comes first",
            vec![
                vec![(Some("1"), "a"), (None, "b")],
                vec![(None, "c"), (Some("0"), "d")],
            ],
            Some("SK"),
            false,
            vec!["b", "c", "d", "a"],
        ),
        (
            "and last when descending",
            vec![
                vec![(None, "a"), (Some("1"), "b")],
                vec![(Some("2"), "c"), (None, "d")],
            ],
            Some("SK"),
            true,
            vec!["c", "b", "a", "d"],
        ),
        (
            "no sort key: shard after shard",
            vec![
                vec![(Some("9"), "a"), (Some("1"), "b")],
                vec![],
                vec![(Some("5"), "c")],
            ],
            None,
            false,
            vec!["a", "b", "c"],
        ),
        ("no shards", vec![], Some("SK"), false, vec![]),
    ];
    for (name, shards, sort_key, descending, want) in cases {
        let shards: Vec<Vec<Item>> = shards.iter().map(|items| shard(items)).collect();
        let merged = merge_sorted(shards, sort_key.as_slice(), descending);
        assert_eq!(seq_order(&merged), want, "{name}");
    }
}

#[test]
fn merge_sorted_orders_by_every_attribute_of_a_multi_attribute_sort_key() {
    // Write shards of an index sorted by round, then matchId (a number): the same round in
    // two shards is ordered by matchId, not left in shard order.
    let game = |round: &str, id: &str, seq: &str| {
        item(vec![
            ("round", s(round)),
            ("matchId", n(id)),
            ("seq", s(seq)),
        ])
    };
    let shards = vec![
        vec![game("FINAL", "9", "a"), game("SEMI", "2", "b")],
        vec![game("FINAL", "3", "c"), game("FINAL", "10", "d")],
    ];
    let merged = merge_sorted(shards.clone(), &["round", "matchId"], false);
    assert_eq!(seq_order(&merged), ["c", "a", "d", "b"]);
    let merged = merge_sorted(shards, &["round", "matchId"], true);
    assert_eq!(seq_order(&merged), ["b", "d", "a", "c"]);
}
