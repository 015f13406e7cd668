use super::*;
use crate::fixtures::string_item as item;

fn kind_of<'a>(
    rules: &'a KindRules,
    item: &'a Item,
    sep: char,
) -> Option<(&'a str, KindSource<'a>)> {
    rules.kind(item, "PK", Some("SK"), sep)
}

#[test]
fn library_attributes_name_the_kind_before_the_keys() {
    let rules = KindRules::default();
    let cases = [
        ("__edb_e__", "employee"),
        ("_et", "Customer"),
        ("_type", "Game"),
        ("entity", "order"),
    ];
    for (attribute, kind) in cases {
        let it = item(&[("PK", "C#933"), ("SK", "ORDER#1#2"), (attribute, kind)]);
        assert_eq!(
            kind_of(&rules, &it, '#'),
            Some((kind, KindSource::Attribute(attribute)))
        );
    }
    // A value that is not a name is data: the keys decide.
    let it = item(&[
        ("PK", "C#933"),
        ("SK", "ORDER#1#2"),
        ("_et", "a3f9c2e1-0b1d-4c7e"),
    ]);
    assert_eq!(
        kind_of(&rules, &it, '#'),
        Some(("ORDER", KindSource::SortKey))
    );
}

#[test]
fn a_common_entity_attribute_counts_when_most_items_carry_it() {
    let page: Vec<Item> = (0..10)
        .map(|n| {
            let kind = if n % 2 == 0 { "customer" } else { "invoice" };
            item(&[
                ("PK", "C#933"),
                ("SK", &format!("I#{n}")),
                ("EntityType", kind),
            ])
        })
        .collect();
    let mut rules = KindRules::default();
    rules.settle(&page);
    assert_eq!(rules.entity_attribute(), Some("EntityType"));
    assert_eq!(
        kind_of(&rules, &page[0], '#'),
        Some(("customer", KindSource::Attribute("EntityType")))
    );
    // Settled once: a later page without the attribute changes nothing.
    rules.settle(&[item(&[("PK", "x")])]);
    assert_eq!(rules.entity_attribute(), Some("EntityType"));
}

#[test]
fn a_type_on_a_few_items_is_data() {
    let mut page: Vec<Item> = (0..10)
        .map(|n| item(&[("PK", "USER#u1"), ("SK", &format!("CARD#{n}"))]))
        .collect();
    page[0].insert("type", AttrValue::S("visa".into()));
    page[1].insert("type", AttrValue::S("amex".into()));
    let mut rules = KindRules::default();
    rules.settle(&page);
    assert_eq!(rules.entity_attribute(), None);
    assert_eq!(
        kind_of(&rules, &page[0], '#'),
        Some(("CARD", KindSource::SortKey))
    );
    // Ids are not names, however many items carry them.
    let ids: Vec<Item> = (0..10)
        .map(|n| item(&[("PK", "A#1"), ("type", &format!("{n:08x}-aaaa-1111"))]))
        .collect();
    let mut rules = KindRules::default();
    rules.settle(&ids);
    assert_eq!(rules.entity_attribute(), None);
}

#[test]
fn a_configured_attribute_wins_over_the_common_ones() {
    let mut rules = KindRules::new(Vec::new(), Some("kind".to_owned()));
    let it = item(&[
        ("PK", "X#1"),
        ("SK", "Y#2"),
        ("kind", "widget"),
        ("type", "other"),
    ]);
    rules.settle(std::slice::from_ref(&it));
    assert_eq!(
        kind_of(&rules, &it, '#'),
        Some(("widget", KindSource::Attribute("kind")))
    );
}

#[test]
fn a_configured_pattern_comes_first() {
    let pattern = EntityPattern::parse("ORDER#{date}#{id}").unwrap();
    let rules = KindRules::new(vec![pattern], None);
    let it = item(&[("PK", "USER#1"), ("SK", "ORDER#2026#o1"), ("_et", "User")]);
    assert_eq!(
        kind_of(&rules, &it, '#'),
        Some(("ORDER", KindSource::Pattern))
    );
    let other = item(&[("PK", "USER#1"), ("SK", "ORDER#2026"), ("_et", "User")]);
    assert_eq!(
        kind_of(&rules, &other, '#'),
        Some(("User", KindSource::Attribute("_et")))
    );
}

#[test]
fn a_collection_s_own_record_is_its_partition_key_s_kind() {
    let rules = KindRules::default();
    let own = |pk: &str, sk: &str, sep: char| {
        let it = item(&[("PK", pk), ("SK", sk)]);
        kind_of(&rules, &it, sep).map(|(k, s)| (k.to_owned(), s == KindSource::OwnRecord))
    };
    let yes = |k: &str| Some((k.to_owned(), true));
    assert_eq!(own("USER#alice", "#METADATA#alice", '#'), yes("USER"));
    assert_eq!(own("GAME#g-123", "METADATA#g-123", '#'), yes("GAME"));
    assert_eq!(own("USER#alice", "#META", '#'), yes("USER"));
    assert_eq!(own("USER#alice", "PROFILE", '#'), yes("USER"));
    assert_eq!(own("C#9331", "I#9331", '#'), yes("C"));
    assert_eq!(own("User:alice", "Profile:alice", ':'), yes("User"));
    // Another id, or a short one that a line number may repeat, is the sort key's kind.
    assert_eq!(
        own("USER#alice", "ORDER#o1", '#'),
        Some(("ORDER".to_owned(), false))
    );
    assert_eq!(
        own("ORDER#12", "ITEM#12", '#'),
        Some(("ITEM".to_owned(), false))
    );
    // ElectroDB: the sort key names the entity, the partition key only the service.
    assert_eq!(
        own("$shop#customer_1", "$customer_1", '#'),
        Some(("customer".to_owned(), false))
    );
}
