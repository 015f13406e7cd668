use super::*;
use crate::traffic::distribution::fixtures::{dist, numbered, owned};

const GSI1: WarningContext = WarningContext {
    table: "app",
    source: Source::Index {
        name: "GSI1",
        kind: IndexKind::Gsi,
    },
    partition_key: "GSI1PK",
    table_has_lsi: true,
};
const TABLE: WarningContext = WarningContext {
    table: "app",
    source: Source::Table,
    partition_key: "PK",
    table_has_lsi: true,
};

/// (large items, largest item bytes)
type LargeItems = Option<(u64, usize)>;

fn rules(d: &KeyDistribution, context: &WarningContext) -> Vec<Rule> {
    d.warnings(context).into_iter().map(|w| w.rule).collect()
}

#[test]
fn healthy_distribution_has_no_warnings() {
    let d = owned(&numbered("USER#", 5000, 3));
    assert_eq!(rules(&d, &TABLE), vec![]);
    assert_eq!(rules(&d, &GSI1), vec![]);
    let mut bad = numbered("STATUS#", 3, 400);
    bad.push(("BIG".into(), 1, 350 * 1024));
    assert_eq!(
        rules(&owned(&bad), &GSI1),
        vec![Rule::LowCardinality, Rule::ItemSize]
    );
}

#[test]
fn low_cardinality_rule() {
    let mut statuses: Vec<(String, u64, usize)> = ["SHIPPED", "DELIVERED", "CANCELLED"]
        .iter()
        .map(|s| (format!("STATUS#{s}"), 160, 100))
        .collect();
    statuses.extend((0..10).map(|n| (format!("STATUS#PENDING#{n}"), 4, 100)));
    let mut celebrity = numbered("USER#", 1000, 2);
    celebrity.push(("USER#celebrity".into(), 250, 100));
    let mut mild = numbered("USER#", 1000, 2);
    mild.push(("USER#celebrity".into(), 150, 100));
    let cases: Vec<(&str, KeyDistribution, WarningContext, bool)> = vec![
        ("13 statuses for 520 items", owned(&statuses), GSI1, true),
        ("the same on the table", owned(&statuses), TABLE, true),
        (
            "few keys but few items",
            dist(&[("A", 30, 1), ("B", 30, 1), ("C", 30, 1)]),
            GSI1,
            false,
        ),
        (
            "one key with 11% of 2250 items",
            owned(&celebrity),
            TABLE,
            true,
        ),
        ("one key with 7% of 2150 items", owned(&mild), TABLE, false),
        (
            "many even keys",
            owned(&numbered("K#", 600, 1)),
            GSI1,
            false,
        ),
        ("empty", KeyDistribution::new(), GSI1, false),
        (
            "20 even keys for 600 items",
            owned(&numbered("CATEGORY#", 20, 30)),
            GSI1,
            true,
        ),
        (
            "21 even keys for 630 items",
            owned(&numbered("CATEGORY#", 21, 30)),
            GSI1,
            false,
        ),
        (
            "20 even keys for 480 items",
            owned(&numbered("CATEGORY#", 20, 24)),
            GSI1,
            false,
        ),
    ];
    for (name, d, context, want) in cases {
        let warnings: Vec<Warning> = d
            .warnings(&context)
            .into_iter()
            .filter(|w| w.rule == Rule::LowCardinality)
            .collect();
        assert_eq!(warnings.len(), usize::from(want), "{name}: {warnings:?}");
        if let Some(w) = warnings.first() {
            let top = d.top(1).remove(0);
            assert!(
                w.message.starts_with("low-cardinality: "),
                "{name}: {}",
                w.message
            );
            assert!(
                w.message.contains(&format!("'{}'", top.key)),
                "{name}: {}",
                w.message
            );
            assert!(
                w.message
                    .contains(&format!("{} distinct values", d.distinct_keys())),
                "{name}: {}",
                w.message
            );
            assert!(
                w.message
                    .contains(&format!("for {} items", d.total_items())),
                "{name}: {}",
                w.message
            );
            match context.source {
                Source::Index { .. } => {
                    assert!(w.message.contains("GSI 'GSI1'"), "{}", w.message);
                    assert!(w.message.contains("hot GSI"), "{}", w.message);
                }
                Source::Table => assert!(w.message.contains("table 'app'"), "{}", w.message),
            }
        }
    }
}

#[test]
fn item_collection_rule() {
    const GIB: usize = 1024 * 1024 * 1024;
    let lsi = WarningContext {
        source: Source::Index {
            name: "LSI1",
            kind: IndexKind::Lsi,
        },
        ..TABLE
    };
    let no_lsi = WarningContext {
        table_has_lsi: false,
        ..TABLE
    };
    let big = || dist(&[("USER#big", 9, GIB), ("USER#small", 1, 10)]);
    let cases: Vec<(&str, KeyDistribution, WarningContext, bool)> = vec![
        ("9 GB on a table with an LSI", big(), TABLE, true),
        ("scanning the LSI", big(), lsi, true),
        ("no LSI: no limit", big(), no_lsi, false),
        ("a GSI key has no such limit", big(), GSI1, false),
        ("7 GB", dist(&[("USER#big", 7, GIB)]), TABLE, false),
        // 80% of 10 GiB is exactly 8 GiB
        ("exactly 80%", dist(&[("USER#big", 8, GIB)]), TABLE, true),
    ];
    for (name, d, context, want) in cases {
        let warnings: Vec<Warning> = d
            .warnings(&context)
            .into_iter()
            .filter(|w| w.rule == Rule::ItemCollectionSize)
            .collect();
        assert_eq!(warnings.len(), usize::from(want), "{name}: {warnings:?}");
        if let Some(w) = warnings.first() {
            assert!(
                w.message.starts_with("item-collection-size: "),
                "{}",
                w.message
            );
            assert!(w.message.contains("'USER#big'"), "{}", w.message);
            assert!(w.message.contains("10.0 GB"), "{}", w.message);
            assert!(!w.message.contains("USER#small"), "{}", w.message);
        }
    }
    let w = &big().warnings(&TABLE)[..];
    assert!(
        w.iter().any(|w| w.message.contains("9.0 GB (90.0%)")),
        "{w:?}"
    );
}

#[test]
fn item_size_rule() {
    let cases: Vec<(&str, Vec<usize>, LargeItems)> = vec![
        ("small items", vec![100, 2000, 299 * 1024], None),
        (
            "exactly 300 KB",
            vec![100, 300 * 1024],
            Some((1, 300 * 1024)),
        ),
        (
            "two large, largest wins",
            vec![390_000, 100, 310 * 1024, 5],
            Some((2, 390_000)),
        ),
        ("empty", vec![], None),
    ];
    for (name, sizes, want) in cases {
        let mut d = KeyDistribution::new();
        for (i, size) in sizes.iter().enumerate() {
            d.add(&format!("K#{i}"), *size);
        }
        let warnings: Vec<Warning> = d
            .warnings(&GSI1)
            .into_iter()
            .filter(|w| w.rule == Rule::ItemSize)
            .collect();
        match want {
            None => assert!(warnings.is_empty(), "{name}: {warnings:?}"),
            Some((count, largest)) => {
                assert_eq!(d.large_items(), count, "{name}");
                assert_eq!(d.largest_item().unwrap().0, largest, "{name}");
                let m = &warnings[0].message;
                assert!(
                    m.starts_with(&format!("item-size: {count} item(s) are 300 KB or more")),
                    "{name}: {m}"
                );
                assert!(
                    m.contains(&format!("the largest is {largest} bytes")),
                    "{name}: {m}"
                );
                assert!(m.contains("400 KB"), "{name}: {m}");
            }
        }
    }
    let hostile = dist(&[("K\u{1b}[2J", 1, 320 * 1024)]);
    let m = &hostile.warnings(&GSI1)[0].message;
    assert!(!m.contains('\u{1b}') && m.contains("\\x1b"), "{m}");
}

#[test]
fn warnings_serialise_with_kebab_case_rules() {
    let w = Warning {
        rule: Rule::ItemCollectionSize,
        message: "m".into(),
    };
    assert_eq!(
        serde_json::to_string(&w).unwrap(),
        r#"{"rule":"item-collection-size","message":"m"}"#
    );
    for rule in [
        Rule::LowCardinality,
        Rule::HotShard,
        Rule::ItemCollectionSize,
        Rule::ItemSize,
    ] {
        assert_eq!(
            serde_json::to_value(rule).unwrap(),
            serde_json::Value::String(rule.as_str().into())
        );
    }
}

fn messages(d: &KeyDistribution, context: &WarningContext, rule: Rule) -> Vec<String> {
    d.warnings(context)
        .into_iter()
        .filter(|w| w.rule == rule)
        .map(|w| w.message)
        .collect()
}

/// `prefix{n}` for each `n` in `range`, each with `items` items of 100 bytes.
fn shards(
    prefix: &str,
    range: std::ops::RangeInclusive<u32>,
    items: u64,
) -> Vec<(String, u64, usize)> {
    range
        .map(|n| (format!("{prefix}{n}"), items, 100))
        .collect()
}

#[test]
fn an_even_shard_family_is_told_to_add_shards_not_a_suffix() {
    for (range, wider) in [(1..=10, "1..20"), (0..=9, "0..19")] {
        let d = owned(&shards("shard#", range.clone(), 60));
        let low = messages(&d, &GSI1, Rule::LowCardinality);
        assert_eq!(low.len(), 1, "{low:?}");
        let m = &low[0];
        assert!(m.starts_with("low-cardinality: GSI 'GSI1'"), "{m}");
        assert!(!m.contains("add a write-shard suffix"), "{m}");
        let label = format!("'shard#{{{}..{}}}'", range.start(), range.end());
        for needle in [
            "10 distinct values for 600 items",
            "already write-sharded",
            &label,
            "600 items (100.0%) evenly over 10 shards (skew 1.00)",
            "about 10 × 1,000 WCU/s",
            &format!("widen the suffix range to {wider}"),
        ] {
            assert!(m.contains(needle), "{needle}: {m}");
        }
        assert_eq!(messages(&d, &GSI1, Rule::HotShard), Vec::<String>::new());
    }
}

#[test]
fn a_hot_shard_is_named() {
    let mut keys = shards("shard#", 1..=10, 50);
    keys[2].1 = 300;
    let d = owned(&keys);
    assert_eq!(
        rules(&d, &GSI1),
        vec![Rule::HotShard],
        "not told to add a suffix"
    );
    let m = &messages(&d, &GSI1, Rule::HotShard)[0];
    for needle in [
        "hot-shard: GSI 'GSI1' of table 'app' (partition key GSI1PK) has write shards 'shard#{1..10}' (10 shards, 750 items)",
        "'shard#3' holds 300 of them (40.0%), 4.0× the mean of 75.0",
        "(rule: one shard with 2×+ the mean, 20+ items a shard on average)",
        "pick the shard suffix evenly",
    ] {
        assert!(m.contains(needle), "{needle}: {m}");
    }
    // Random suffixes of few items wobble: the fullest of ten shards of ~5 is not hot.
    let mut few = shards("shard#", 1..=10, 5);
    few[4].1 = 12;
    assert_eq!(
        messages(&owned(&few), &GSI1, Rule::HotShard),
        Vec::<String>::new()
    );
    // Just under twice the mean of 20+ items a shard.
    let mut mild = shards("shard#", 0..=9, 40);
    mild[0].1 = 75; // mean 43.5, skew 1.72
    assert_eq!(
        messages(&owned(&mild), &GSI1, Rule::HotShard),
        Vec::<String>::new()
    );
}

#[test]
fn an_unsharded_hot_key_beside_shards_is_still_told_to_shard() {
    let mut keys = shards("STATUS#PENDING#", 0..=4, 300);
    keys.push(("STATUS#SHIPPED".into(), 250, 100));
    let low = messages(&owned(&keys), &GSI1, Rule::LowCardinality);
    assert_eq!(low.len(), 1, "{low:?}");
    assert!(
        low[0].contains("'STATUS#SHIPPED' alone holds 250 items (14.3%)"),
        "{}",
        low[0]
    );
    assert!(low[0].contains("add a write-shard suffix"), "{}", low[0]);
}

#[test]
fn sequential_ids_get_no_shard_advice() {
    let employees = owned(&shards("e#", 1..=1000, 4));
    assert_eq!(rules(&employees, &TABLE), vec![]);
    let hostile = owned(&shards("s\u{1b}[2J#", 1..=10, 60));
    let m = &messages(&hostile, &GSI1, Rule::LowCardinality)[0];
    assert!(
        !m.contains('\u{1b}') && m.contains("'s\\x1b[2J#{1..10}'"),
        "{m}"
    );
}
