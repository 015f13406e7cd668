use super::*;
use crate::design::schema::IndexInfo;

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn n(v: &str) -> AttrValue {
    AttrValue::N(v.into())
}

fn attr(name: &str, key_type: KeyType) -> KeyAttr {
    KeyAttr::new(name, key_type)
}

fn item(attrs: &[(&str, AttrValue)]) -> Item {
    Item::from_attrs(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// PK/SK, and one GSI per `(name, partition, sort)`.
fn table(gsis: &[(&str, &str, Option<&str>)]) -> TableInfo {
    let mut info = crate::fixtures::demo_info();
    info.keys = KeySchema::simple(attr("PK", KeyType::S), Some(attr("SK", KeyType::S)));
    info.indexes = gsis
        .iter()
        .map(|(name, pk, sk)| {
            let keys = KeySchema::simple(attr(pk, KeyType::S), sk.map(|sk| attr(sk, KeyType::S)));
            IndexInfo::gsi_projecting_all(*name, keys)
        })
        .collect();
    info
}

/// The matches, keyed by synthetic GSI1PK/GSI1SK; `round` a number, zero-padded in
/// the key.
fn matches(count: usize) -> Vec<Item> {
    (0..count)
        .map(|i| {
            let (t, r, round, b) = (
                ["w24", "w25"][i % 2],
                ["eu", "us", "ap"][i % 3],
                i % 4 + 1,
                ["upper", "lower"][i % 2],
            );
            item(&[
                ("PK", s(&format!("MATCH#m{i}"))),
                ("SK", s("META")),
                ("GSI1PK", s(&format!("TOURNAMENT#{t}#REGION#{r}"))),
                ("GSI1SK", s(&format!("ROUND#{round:03}#BRACKET#{b}"))),
                ("tournamentId", s(t)),
                ("region", s(r)),
                ("round", n(&round.to_string())),
                ("bracket", s(b)),
                ("entityType", s("MATCH")),
            ])
        })
        .collect()
}

#[test]
fn tournament_keys_on_both_sides_become_a_multi_attribute_key_with_a_number_part() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let advice = synthetic_keys(&info, &matches(30));
    assert_eq!(advice.len(), 1, "{advice:#?}");
    let a = &advice[0];
    assert_eq!(a.index.as_deref(), Some("GSI1"));
    assert_eq!(a.replaces, ["GSI1PK", "GSI1SK"]);
    assert_eq!(
        a.shapes,
        [
            "TOURNAMENT#{tournamentId}#REGION#{region}",
            "ROUND#{round}#BRACKET#{bracket}"
        ]
    );
    let key = a.key.as_ref().expect("a key");
    assert_eq!(
        key.display(),
        "tournamentId S + region S, sort round N + bracket S"
    );
    assert_eq!((a.items, a.of_shape, a.read), (30, 30, 30));
    assert!(a.missing.is_empty());
    let message = a.message();
    assert!(
        message
            .contains("without GSI1PK and GSI1SK (30 of the 30 items of that shape, of 30 read)"),
        "{message}"
    );
}

#[test]
fn a_status_and_date_partition_and_a_sort_side_alone_are_each_advised() {
    let info = table(&[("ByStatus", "GSI2PK", None)]);
    let orders: Vec<Item> = (0..10)
        .map(|i| {
            let (status, date) = (
                ["shipped", "pending"][i % 2],
                format!("2026-08-{:02}", i + 1),
            );
            item(&[
                ("PK", s(&format!("CUSTOMER#c{}", i % 3))),
                ("SK", s(&format!("ORDER#{date}#o{i}"))),
                ("GSI2PK", s(&format!("STATUS#{status}#{date}"))),
                ("status", s(status)),
                ("date", s(&date)),
                ("orderId", s(&format!("o{i}"))),
                ("customerId", s(&format!("c{}", i % 3))),
            ])
        })
        .collect();
    let advice = synthetic_keys(&info, &orders);
    let by = |index: Option<&str>| {
        advice
            .iter()
            .find(|a| a.index.as_deref() == index)
            .unwrap_or_else(|| panic!("{index:?}: {advice:#?}"))
    };
    let gsi = by(Some("ByStatus"));
    assert_eq!(gsi.key.as_ref().unwrap().display(), "status S + date S");
    assert_eq!(gsi.shapes, ["STATUS#{status}#{date}"]);
    // The table: its partition key `CUSTOMER#c1` is one part, its sort key two.
    let table = by(None);
    assert_eq!(
        table.key.as_ref().unwrap().display(),
        "customerId S, sort date S + orderId S"
    );
    assert_eq!(table.replaces, ["PK", "SK"]);
    assert!(
        table.message().starts_with("the table: "),
        "{}",
        table.message()
    );
}

#[test]
fn a_part_no_attribute_carries_gives_no_key_and_is_named() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let items: Vec<Item> = matches(12)
        .into_iter()
        .map(|i| {
            let attrs = i.into_attrs().into_iter().filter(|(k, _)| k != "region");
            Item::from_attrs(attrs.collect())
        })
        .collect();
    let advice = synthetic_keys(&info, &items);
    assert_eq!(advice.len(), 1, "{advice:#?}");
    let a = &advice[0];
    assert_eq!(a.key, None);
    assert_eq!(a.missing, ["GSI1PK part 2"]);
    assert_eq!(a.shapes[0], "TOURNAMENT#{tournamentId}#REGION#{?}");
    assert!(
        a.message().contains(
            "{?}, GSI1SK = ROUND#{round}#BRACKET#{bracket}: no attribute of the items carries GSI1PK part 2, so no multi-attribute key replaces GSI1PK and GSI1SK (12 items of that shape, of 12 read)"
        ),
        "{}",
        a.message()
    );
}

#[test]
fn copies_single_parts_and_unrelated_values_give_no_advice() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let rows = |pk: &dyn Fn(usize) -> String, sk: &dyn Fn(usize) -> String| -> Vec<Item> {
        (0..10)
            .map(|i| {
                item(&[
                    ("PK", s(&format!("P{i}"))),
                    ("SK", s("A")),
                    ("GSI1PK", s(&pk(i))),
                    ("GSI1SK", s(&sk(i))),
                    ("status", s(["shipped", "pending"][i % 2])),
                    ("date", s(&format!("2026-08-{:02}", i + 1))),
                ])
            })
            .collect()
    };
    // A plain copy of an attribute is not a concatenation.
    let copies = rows(&|i| ["shipped", "pending"][i % 2].into(), &|i| {
        format!("2026-08-{:02}", i + 1)
    });
    assert_eq!(synthetic_keys(&info, &copies), vec![]);
    // One part a side: a one-and-one key, which GSIs always had.
    let single = rows(
        &|i| format!("STATUS#{}", ["shipped", "pending"][i % 2]),
        &|i| format!("DATE#2026-08-{:02}", i + 1),
    );
    assert_eq!(synthetic_keys(&info, &single), vec![]);
    // Concatenations of values no attribute holds.
    let unrelated = rows(&|i| format!("x{i}#y{i}"), &|i| format!("a{i}#b{i}"));
    assert_eq!(synthetic_keys(&info, &unrelated), vec![]);
    // One item is an anecdote.
    assert_eq!(synthetic_keys(&info, &matches(1)), vec![]);
    // Items without the index's keys are not in it.
    assert_eq!(
        synthetic_keys(&table(&[("GSI9", "G9PK", None)]), &matches(10)),
        vec![]
    );
}

#[test]
fn a_value_holding_the_separator_does_not_name_a_part_it_does_not_equal() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let mut items = matches(10);
    // Two items whose region holds the separator: their keys split into one more segment.
    for i in 0..2 {
        let mut odd = items[2 * i].clone();
        odd.insert("region", s("eu#west"));
        odd.insert("GSI1PK", s("TOURNAMENT#w24#REGION#eu#west"));
        items.push(odd);
    }
    let advice = synthetic_keys(&info, &items);
    let keyed: Vec<&SyntheticKeyAdvice> = advice.iter().filter(|a| a.key.is_some()).collect();
    assert_eq!(keyed.len(), 1, "{advice:#?}");
    assert_eq!(
        (keyed[0].items, keyed[0].of_shape, keyed[0].read),
        (10, 10, 12)
    );
    // The odd shape is said honestly: its parts `eu` and `west` are carried by nothing.
    let odd: Vec<&SyntheticKeyAdvice> = advice.iter().filter(|a| a.key.is_none()).collect();
    assert_eq!(odd.len(), 1, "{advice:#?}");
    assert_eq!(odd[0].missing, ["GSI1PK part 2", "GSI1PK part 3"]);
}

#[test]
fn most_items_matching_is_enough_and_the_count_says_how_many() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let mut items = matches(8);
    // Two items whose bracket disagrees with their key: the key rests on the other six.
    for item in items.iter_mut().take(2) {
        item.insert("bracket", s("final"));
    }
    let advice = synthetic_keys(&info, &items);
    assert_eq!(advice.len(), 1, "{advice:#?}");
    assert_eq!((advice[0].items, advice[0].of_shape), (6, 8));
    // Most disagreeing: the part is missing.
    for item in items.iter_mut().take(4) {
        item.insert("bracket", s("final"));
    }
    let advice = synthetic_keys(&info, &items);
    assert_eq!(advice[0].missing, ["GSI1SK part 2"], "{advice:#?}");
}

#[test]
fn very_long_and_many_segmented_values_are_not_read() {
    let info = table(&[("GSI1", "GSI1PK", Some("GSI1SK"))]);
    let long = "a".repeat(1_000_000);
    // Half the items: a partition value past DynamoDB's bound; half: a sort value of a
    // thousand segments, each equal to an attribute.
    let items: Vec<Item> = (0..20)
        .map(|i| {
            let (pk, sk) = match i % 2 {
                0 => (format!("T#{long}#x"), "B#b#b".to_string()),
                _ => ("T#x#y".to_string(), "#b".repeat(1000)),
            };
            item(&[
                ("PK", s(&format!("P{i}"))),
                ("SK", s("S")),
                ("GSI1PK", s(&pk)),
                ("GSI1SK", s(&sk)),
                ("big", s(&long)),
                ("b", s("b")),
                ("x", s("x")),
                ("y", s("y")),
            ])
        })
        .collect();
    let started = std::time::Instant::now();
    assert_eq!(synthetic_keys(&info, &items), vec![]);
    assert!(started.elapsed().as_secs() < 2, "{:?}", started.elapsed());
}
#[test]
fn the_demo_s_status_index_is_advised_and_its_sharded_keys_say_what_is_missing() {
    let items = crate::demo::demo_data::generate(20);
    let advice = synthetic_keys(&crate::fixtures::demo_info(), &items);
    let messages: Vec<String> = advice.iter().map(SyntheticKeyAdvice::message).collect();
    assert_eq!(advice.len(), 2, "{messages:#?}");
    let keyed = &advice[0];
    assert_eq!(keyed.shapes, ["STATUS#{status}", "{date}#ORDER#{orderId}"]);
    assert_eq!(
        keyed.key.as_ref().map(KeySchema::display).as_deref(),
        Some("status S, sort date S + orderId S")
    );
    assert_eq!(keyed.items, keyed.of_shape);
    // PENDING orders' `STATUS#PENDING#3`: the shard number is carried by no attribute.
    assert_eq!(advice[1].shapes[0], "STATUS#{status}#{?}");
    assert_eq!(advice[1].missing, ["GSI1PK part 2"]);
    // The table's `USER#<id>` names no attribute: nothing is said of the table.
    assert!(advice.iter().all(|a| a.index.is_some()), "{messages:#?}");
}
