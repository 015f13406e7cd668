use std::collections::HashSet;

use super::*;
use crate::demo::demo_data;
use crate::design::relations::{KeyKnowledge, RelationRule};
use crate::fixtures::demo_info;
use crate::item::value::{AttrValue, Item};

fn s(pk: &str) -> String {
    pk.to_string()
}

/// Knowledge from a scan of the demo table grouped by `PK`, with the PK values "loaded" (the
/// store holds them).
fn scanned(items: &[Item]) -> (KeyKnowledge, HashSet<String>) {
    let mut knowledge = KeyKnowledge::new(&demo_info());
    knowledge.observe(items, '#', Some("PK"));
    let loaded = items
        .iter()
        .filter_map(|i| i.get("PK").and_then(AttrValue::as_s).map(String::from))
        .collect();
    (knowledge, loaded)
}

fn links(
    item: &Item,
    knowledge: &KeyKnowledge,
    loaded: &HashSet<String>,
    current: Option<(Option<&str>, &str)>,
) -> Vec<(Option<String>, String, Evidence)> {
    let seen = |index: Option<&str>, key: &str| index.is_none() && loaded.contains(key);
    let inputs = RelationInputs {
        separator: '#',
        knowledge,
        loaded: &seen,
        rules: &[],
        infer: true,
        current,
    };
    related_collections(item, &inputs)
        .into_iter()
        .map(|l| (l.index, l.key, l.evidence))
        .collect()
}

fn find<'a>(items: &'a [Item], pk: &str, sk_prefix: &str) -> &'a Item {
    items
        .iter()
        .find(|i| {
            let get = |k| i.get(k).and_then(AttrValue::as_s).unwrap_or("");
            get("PK") == pk && get("SK").starts_with(sk_prefix)
        })
        .unwrap_or_else(|| panic!("no {pk} {sk_prefix}"))
}

/// The first user with an order, and that order.
fn ordering_user(items: &[Item]) -> (String, &Item) {
    let order = items
        .iter()
        .find(|i| {
            let sk = i.get("SK").and_then(AttrValue::as_s).unwrap_or("");
            sk.starts_with("ORDER#") && text(i, "PK") != "USER#celebrity"
        })
        .unwrap();
    (text(order, "PK"), order)
}

fn text(item: &Item, name: &str) -> String {
    item.get(name)
        .and_then(AttrValue::as_s)
        .unwrap()
        .to_string()
}

#[test]
fn the_demo_s_five_kinds() {
    let items = demo_data::generate(6);
    let (knowledge, loaded) = scanned(&items);
    let table = None;
    let gsi = Some(s("GSI1"));

    // A user's profile names nothing but its own collection, which is the one being viewed.
    let (user, order) = ordering_user(&items);
    let profile = find(&items, &user, "PROFILE");
    assert_eq!(links(profile, &knowledge, &loaded, Some((None, &user))), []);

    // An order in the user's collection: its order collection (from its sort key) first,
    // then its status's GSI collection.
    let id = text(order, "orderId");
    let status = text(order, "GSI1PK");
    let got = links(order, &knowledge, &loaded, Some((None, &user)));
    assert_eq!(
        got[0],
        (table.clone(), format!("ORDER#{id}"), Evidence::KeyPart)
    );
    assert!(
        got.iter()
            .any(|l| l.0 == gsi && l.1 == status && l.2 != Evidence::KeyPart),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|l| l.1.starts_with("ORDER#20")),
        "the date is not an order id: {got:?}"
    );

    // The order's header names the user (loaded) and, when not sharded, its status.
    let header = find(&items, &format!("ORDER#{id}"), "#META");
    let got = links(
        header,
        &knowledge,
        &loaded,
        Some((None, &format!("ORDER#{id}"))),
    );
    assert!(
        got.contains(&(table.clone(), user.clone(), Evidence::Value)),
        "{got:?}"
    );
    let plain_status = text(header, "status");
    let sharded = plain_status == "PENDING";
    assert_eq!(
        got.iter()
            .any(|l| l.0 == gsi && l.1 == format!("STATUS#{plain_status}")),
        !sharded,
        "STATUS#PENDING is not a collection (it is sharded): {got:?}"
    );

    // A line names its product; `ITEM#1` and `qty` name nothing.
    let line = find(&items, &format!("ORDER#{id}"), "ITEM#");
    let product = text(line, "productId");
    let got = links(
        line,
        &knowledge,
        &loaded,
        Some((None, &format!("ORDER#{id}"))),
    );
    assert_eq!(
        got,
        [(table.clone(), format!("PRODUCT#{product}"), Evidence::Value)]
    );

    // A product names its category's GSI collection; its GSI sort key is its own collection.
    let product = find(&items, "PRODUCT#p0001", "PRODUCT");
    let got = links(product, &knowledge, &loaded, Some((None, "PRODUCT#p0001")));
    assert_eq!(
        got,
        [(gsi.clone(), text(product, "GSI1PK"), Evidence::OwnKey)]
    );
    // Read from the GSI, the product names its table collection.
    let category = text(product, "GSI1PK");
    let got = links(
        product,
        &knowledge,
        &loaded,
        Some((gsi.as_deref(), &category)),
    );
    assert_eq!(got, [(table, s("PRODUCT#p0001"), Evidence::OwnKey)]);
}

#[test]
fn an_order_not_loaded_is_recognised_by_its_shape() {
    let items = demo_data::generate(6);
    let (knowledge, _) = scanned(&items);
    let nothing = HashSet::new();
    let (_, order) = ordering_user(&items);
    let got = links(order, &knowledge, &nothing, None);
    assert_eq!(got[0].1, format!("ORDER#{}", text(order, "orderId")));
    assert_eq!(got[0].2, Evidence::KeyPart);
}

fn attrs(pairs: &[(&str, AttrValue)]) -> Item {
    Item::from_attrs(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn st(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn n(v: &str) -> AttrValue {
    AttrValue::N(v.into())
}

#[test]
fn hostile_keys_make_no_false_links() {
    // Numeric order ids: ORDER#1 and ORDER#2 loaded, ORDER#3 not.
    let scan = [
        attrs(&[("PK", st("ORDER#1")), ("SK", st("ITEM#3")), ("qty", n("3"))]),
        attrs(&[("PK", st("ORDER#2")), ("SK", st("#META"))]),
        attrs(&[("PK", st("USER#7")), ("SK", st("ORDER#2026-01-01#2"))]),
    ];
    let (knowledge, loaded) = scanned(&scan);
    // A bare number that matches nothing loaded links to nothing, whatever its attribute.
    let line = &scan[0];
    assert_eq!(
        links(line, &knowledge, &loaded, Some((None, "ORDER#1"))),
        []
    );
    // A bare number that is a loaded order's id does link: ORDER#2 is a collection.
    let two = attrs(&[("PK", st("X#1")), ("ref", n("2"))]);
    let got = links(&two, &knowledge, &loaded, None);
    assert!(
        got.contains(&(None, s("ORDER#2"), Evidence::Value)),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|l| l.1 == "USER#2"),
        "USER#2 was never seen: {got:?}"
    );
    // Odd values: empty parts, separators only, control characters, huge values, a prefix
    // followed by another prefix.
    let odd = attrs(&[
        ("a", st("ORDER#")),
        ("b", st("###")),
        ("c", st("ORDER#\u{1b}[2J")),
        ("d", st(&"ORDER#9".repeat(400))),
        ("e", st("USER#ORDER#5")),
        ("f", st("#ORDER")),
        ("g", AttrValue::M(attrs(&[("x", st("ORDER#2"))]))),
        ("h", st("2026-01-01")),
    ]);
    let got = links(&odd, &knowledge, &loaded, None);
    assert_eq!(
        got,
        [(None, s("ORDER#5"), Evidence::KeyPart)],
        "only USER#ORDER#5's order id, by shape"
    );
}

#[test]
fn configured_relations_add_and_inference_can_be_turned_off() {
    let items = demo_data::generate(6);
    let (knowledge, loaded) = scanned(&items);
    let (user, order) = ordering_user(&items);
    let rule = RelationRule::new(
        None,
        None,
        "ORDER#{date}#{orderId}",
        "INVOICE#{orderId}",
        Some("GSI9".into()),
    )
    .unwrap();
    let seen = |_: Option<&str>, key: &str| loaded.contains(key);
    let mut inputs = RelationInputs {
        separator: '#',
        knowledge: &knowledge,
        loaded: &seen,
        rules: &[&rule],
        infer: false,
        current: Some((None, &user)),
    };
    let got = related_collections(order, &inputs);
    let id = text(order, "orderId");
    assert_eq!(got[0].key, format!("INVOICE#{id}"));
    assert_eq!(got[0].index.as_deref(), Some("GSI9"));
    assert_eq!(got[0].evidence, Evidence::Configured);
    assert!(
        got[1..].iter().all(|l| l.evidence == Evidence::OwnKey),
        "without inference only own keys follow: {got:?}"
    );
    inputs.infer = true;
    let got = related_collections(order, &inputs);
    assert!(got.iter().any(|l| l.evidence == Evidence::KeyPart));
}

#[test]
fn an_ignore_rule_corrects_one_inferred_link_and_keeps_the_rest() {
    let items = demo_data::generate(6);
    let (knowledge, loaded) = scanned(&items);
    let (user, order) = ordering_user(&items);
    let id = text(order, "orderId");
    let seen = |index: Option<&str>, key: &str| index.is_none() && loaded.contains(key);
    let ignore = RelationRule::new(
        None,
        Some("SK".into()),
        "ORDER#{date}#{orderId}",
        "ORDER#{orderId}",
        None,
    )
    .unwrap()
    .ignoring();
    let with = |rules: &[&RelationRule]| {
        let inputs = RelationInputs {
            separator: '#',
            knowledge: &knowledge,
            loaded: &seen,
            rules,
            infer: true,
            current: Some((None, &user)),
        };
        related_collections(order, &inputs)
            .into_iter()
            .map(|l| (l.index, l.key, l.attribute, l.evidence))
            .collect::<Vec<_>>()
    };
    let inferred = with(&[]);
    let sk_link = (None, format!("ORDER#{id}"), s("SK"), Evidence::KeyPart);
    assert!(inferred.contains(&sk_link), "{inferred:?}");
    // "An order's SK does not name its ORDER# collection": that link goes, every other stays.
    let corrected = with(&[&ignore]);
    assert!(!corrected.contains(&sk_link), "{corrected:?}");
    for link in inferred.iter().filter(|l| **l != sk_link) {
        assert!(corrected.contains(link), "{link:?} kept: {corrected:?}");
    }
    // The ignore rule adds nothing of its own.
    assert!(corrected.iter().all(|l| l.3 != Evidence::Configured));
}

#[test]
fn an_attribute_holding_its_collection_s_id_names_only_that_kind() {
    // An adjacency list: customer 933 and invoice 933 share the number.
    let scan = [
        attrs(&[
            ("PK", st("C#933")),
            ("SK", st("#METADATA#933")),
            ("CustomerId", n("933")),
        ]),
        attrs(&[
            ("PK", st("I#933")),
            ("SK", st("#METADATA#933")),
            ("CustomerId", n("933")),
        ]),
        attrs(&[
            ("PK", st("I#1001")),
            ("SK", st("#METADATA#1001")),
            ("InvoiceId", n("1001")),
        ]),
        attrs(&[
            ("PK", st("C#926")),
            ("SK", st("#METADATA#926")),
            ("CustomerId", n("926")),
        ]),
    ];
    let (knowledge, loaded) = scanned(&scan);
    // `I#933` holds `CustomerId = 933` too, by chance: CustomerId is the id of C# collections.
    assert_eq!(knowledge.id_prefixes("CustomerId"), Some(vec!["C#"]));
    let customer = &scan[0];
    let got = links(customer, &knowledge, &loaded, Some((None, "C#933")));
    assert!(!got.iter().any(|l| l.1 == "I#933"), "{got:?}");
    let invoice = attrs(&[("PK", st("X#1")), ("InvoiceId", n("926"))]);
    let got = links(&invoice, &knowledge, &loaded, None);
    assert!(
        !got.iter().any(|l| l.1 == "C#926"),
        "InvoiceId holds invoice ids, not customers': {got:?}"
    );
}

/// Issue 52: the demo table with issue 52's TournamentRegionIndex (partition tournamentId +
/// region, sort round + bracket).
fn with_region_index() -> crate::design::schema::TableInfo {
    use crate::design::schema::{IndexInfo, KeyAttr, KeySchema, KeyType};
    let s = |n: &str| KeyAttr::new(n, KeyType::S);
    let mut info = demo_info();
    let keys = KeySchema::new(
        vec![s("tournamentId"), s("region")],
        vec![s("round"), s("bracket")],
    )
    .unwrap();
    info.indexes
        .push(IndexInfo::gsi_projecting_all("TournamentRegionIndex", keys));
    info
}

/// A collection of a multi-attribute GSI is the tuple of its partition values: an item's own
/// tuple is listed (with each value, to query it by), as a fact, when the item has every key
/// attribute of the index; one value alone never names a tuple, even a value spelled like one
/// of a loaded tuple collection; and viewing that collection lists no link to itself.
#[test]
fn a_multi_attribute_gsi_is_linked_by_the_items_own_tuple_only() {
    use crate::fixtures::string_item as item;
    let info = with_region_index();
    let mut knowledge = KeyKnowledge::new(&info);
    let game = item(&[
        ("PK", "MATCH#m1"),
        ("SK", "#META"),
        ("tournamentId", "WINTER2024"),
        ("region", "EU-WEST"),
        ("round", "FINAL"),
        ("bracket", "UPPER"),
        ("note", "WINTER2024 · EU-WEST"),
    ]);
    knowledge.observe(std::slice::from_ref(&game), '#', Some("PK"));
    let tuple = knowledge
        .targets()
        .iter()
        .find(|t| t.is_tuple())
        .expect("a target");
    assert_eq!(tuple.partition_names, ["tournamentId", "region"]);
    assert!(
        tuple.kinds().is_empty(),
        "a tuple is profiled as no one value"
    );
    let loaded = |index: Option<&str>, key: &str| {
        index == Some("TournamentRegionIndex") && key == "WINTER2024 · EU-WEST"
    };
    let related = |item: &Item, current: Option<(Option<&str>, &str)>| {
        let inputs = RelationInputs {
            separator: '#',
            knowledge: &knowledge,
            loaded: &loaded,
            rules: &[],
            infer: true,
            current,
        };
        related_collections(item, &inputs)
            .into_iter()
            .filter(|l| l.index.as_deref() == Some("TournamentRegionIndex"))
            .collect::<Vec<_>>()
    };
    let links = related(&game, None);
    assert_eq!(links.len(), 1, "{links:?}");
    assert_eq!(links[0].key, "WINTER2024 · EU-WEST");
    assert_eq!(links[0].partition, ["WINTER2024", "EU-WEST"]);
    assert_eq!(links[0].evidence, Evidence::OwnKey);
    assert_eq!(links[0].attribute, "tournamentId + region");
    let current = Some((Some("TournamentRegionIndex"), "WINTER2024 · EU-WEST"));
    assert!(related(&game, current).is_empty());
    // Without bracket the item is not in the index (sparse): no own tuple.
    let mut sparse = game.clone();
    sparse.remove("bracket");
    assert!(related(&sparse, None).is_empty());
}
