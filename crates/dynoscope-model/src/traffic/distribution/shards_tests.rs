use super::shard_of;
use crate::traffic::distribution::fixtures::{close, dist, owned};

type OwnedKeys = Vec<(String, u64, usize)>;
/// (prefix, shards, items, min items, max items)
type FamilySummary<'a> = (&'a str, usize, u64, u64, u64);

#[test]
fn shard_families() {
    fn pending(n: u32, items: u64) -> (String, u64, usize) {
        (format!("STATUS#PENDING#{n}"), items, 10)
    }
    let ten: Vec<(String, u64, usize)> = (0..10).map(|n| pending(n, 5 + u64::from(n))).collect();
    // (name, keys, expected (prefix, shards, items, min, max))
    let cases: Vec<(&str, OwnedKeys, Vec<FamilySummary>)> = vec![
        (
            "ten pending shards",
            ten.clone(),
            vec![("STATUS#PENDING#", 10, 95, 5, 14)],
        ),
        (
            "shards beside unsharded keys",
            ten.iter()
                .cloned()
                .chain([
                    ("STATUS#SHIPPED".to_string(), 40, 10),
                    ("USER#u00042".to_string(), 3, 10),
                ])
                .collect(),
            vec![("STATUS#PENDING#", 10, 95, 5, 14)],
        ),
        (
            "pipe and colon separators, 1-based, zero-padded",
            vec![
                ("tenant|acme|1".into(), 4, 1),
                ("tenant|acme|2".into(), 4, 1),
                ("tenant|acme|3".into(), 4, 1),
                ("counter:01".into(), 1, 1),
                ("counter:02".into(), 3, 1),
            ],
            vec![("tenant|acme|", 3, 12, 4, 4), ("counter:", 2, 4, 1, 3)],
        ),
        ("one key is no family", vec![pending(0, 9)], vec![]),
        (
            "years are not shards",
            vec![
                ("ORDER#2025".into(), 5, 1),
                ("ORDER#2026".into(), 5, 1),
                ("ORDER#2027".into(), 5, 1),
            ],
            vec![],
        ),
        (
            "a lone number under a prefix",
            vec![("ORDER#2026#7".into(), 5, 1), ("ORDER#2026".into(), 5, 1)],
            vec![],
        ),
        (
            "must start at 0 or 1",
            vec![
                ("X#5".into(), 1, 1),
                ("X#6".into(), 1, 1),
                ("X#7".into(), 1, 1),
            ],
            vec![],
        ),
        (
            "too sparse",
            vec![("X#0".into(), 1, 1), ("X#50".into(), 1, 1)],
            vec![],
        ),
        (
            "nothing before the separator, or non-numeric suffixes",
            vec![
                ("#0".into(), 1, 1),
                ("#1".into(), 1, 1),
                ("USER#u1".into(), 1, 1),
                ("USER#u2".into(), 1, 1),
                ("A#1x".into(), 1, 1),
                ("A#2x".into(), 1, 1),
                ("A#".into(), 1, 1),
            ],
            vec![],
        ),
        (
            "dense with a gap is still a family",
            vec![
                ("S#0".into(), 2, 1),
                ("S#1".into(), 2, 1),
                ("S#3".into(), 2, 1),
            ],
            vec![("S#", 3, 6, 2, 2)],
        ),
    ];
    for (name, keys, want) in cases {
        let got: Vec<(String, usize, u64, u64, u64)> = owned(&keys)
            .shard_families()
            .into_iter()
            .map(|f| (f.prefix, f.shards, f.items, f.min_items, f.max_items))
            .collect();
        let want: Vec<(String, usize, u64, u64, u64)> = want
            .into_iter()
            .map(|(p, s, i, lo, hi)| (p.to_string(), s, i, lo, hi))
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn shard_spread() {
    let d = dist(&[("H#0", 1, 1), ("H#1", 1, 1), ("H#2", 4, 1)]);
    let f = &d.shard_families()[0];
    assert_eq!((f.lowest_suffix, f.highest_suffix), (0, 2));
    assert!(close(f.mean_items, 2.0), "{f:?}");
    assert!(close(f.skew, 2.0), "{f:?}");
    let even = dist(&[("H#1", 3, 1), ("H#2", 3, 1)]);
    assert!(close(even.shard_families()[0].skew, 1.0));
}

/// `prefix{n}` for each `n` in `range`, each with `items` items of 10 bytes.
fn run(prefix: &str, range: std::ops::RangeInclusive<u32>, items: u64) -> OwnedKeys {
    range.map(|n| (format!("{prefix}{n}"), items, 10)).collect()
}

fn prefixes(keys: &OwnedKeys) -> Vec<(String, usize)> {
    owned(keys)
        .shard_families()
        .into_iter()
        .map(|f| (f.prefix, f.shards))
        .collect()
}

#[test]
fn sequential_ids_are_not_shards() {
    // 1,000 employees of four items each: once `e#1000` shows the ids run past the shard
    // range, `e#1`..`e#999` are ids too, however dense and even.
    assert_eq!(prefixes(&run("e#", 1..=1000, 4)), vec![]);
    assert_eq!(prefixes(&run("request#", 1..=20_000, 1)), vec![]);
    // Zero-padded for growth: ids, even when only twenty are seen.
    let padded: OwnedKeys = (0..20).map(|n| (format!("K#{n:05}"), 30, 10)).collect();
    assert_eq!(prefixes(&padded), vec![]);
}

#[test]
fn real_shards_from_zero_or_one_even_or_skewed() {
    for (range, first) in [(0..=9, 0), (1..=10, 1)] {
        let even = owned(&run("shard#", range.clone(), 60)).shard_families();
        assert_eq!(even.len(), 1, "{even:?}");
        let f = &even[0];
        assert_eq!(
            (f.prefix.as_str(), f.shards, f.lowest_suffix, f.items),
            ("shard#", 10, first, 600)
        );
        assert!(close(f.skew, 1.0), "{f:?}");
        assert_eq!(
            f.hottest_shard,
            format!("shard#{first}"),
            "a tie: lowest suffix"
        );
        assert_eq!(f.label(), format!("shard#{{{first}..{}}}", first + 9));

        let mut skewed = run("shard#", range, 50);
        skewed[3].1 = 300;
        let f = &owned(&skewed).shard_families()[0];
        assert_eq!((f.shards, f.items, f.max_items), (10, 750, 300), "{f:?}");
        assert_eq!(f.hottest_shard, format!("shard#{}", first + 3));
        assert!(close(f.skew, 4.0), "{f:?}");
    }
}

#[test]
fn a_hundred_shards_at_most() {
    let cases: [(&str, std::ops::RangeInclusive<u32>, usize); 4] = [
        ("0..99", 0..=99, 100),
        ("1..100", 1..=100, 100),
        ("0..100", 0..=100, 0),
        ("1..101", 1..=101, 0),
    ];
    for (name, range, want) in cases {
        let got: Vec<usize> = prefixes(&run("S#", range, 3))
            .into_iter()
            .map(|(_, n)| n)
            .collect();
        assert_eq!(got, if want == 0 { vec![] } else { vec![want] }, "{name}");
    }
    // More than a hundred members within the range (padded twins) are ids too.
    let mut twins = run("T#", 1..=60, 3);
    twins.extend((1..=60).map(|n| (format!("T#{n:03}"), 3, 10)));
    assert_eq!(prefixes(&twins), vec![]);
}

#[test]
fn a_prefix_with_ids_beyond_the_range_is_ids_as_a_whole() {
    let shards = run("GSI#STATUS#PENDING#", 0..=9, 20);
    let cases: Vec<(&str, OwnedKeys)> = vec![
        ("a four-digit id", vec![("ORDER#1234".into(), 4, 10)]),
        ("a zero-padded id", vec![("ORDER#00007".into(), 4, 10)]),
        ("past the range", vec![("ORDER#101".into(), 4, 10)]),
        (
            "longer than any number",
            vec![("ORDER#123456789012345678901234567890".into(), 4, 10)],
        ),
    ];
    for (name, extra) in cases {
        let mut keys = run("ORDER#", 1..=50, 4);
        keys.extend(extra);
        keys.extend(shards.iter().cloned());
        assert_eq!(
            prefixes(&keys),
            vec![("GSI#STATUS#PENDING#".to_string(), 10)],
            "{name}: another prefix's shards are unaffected"
        );
    }
    assert_eq!(
        prefixes(&run("ORDER#", 1..=50, 4)).len(),
        1,
        "alone, a family"
    );
}

#[test]
fn shards_carry_comparable_traffic() {
    // Collections of 1, 2, 4 … 512 items: ids of growing customers, not shards.
    let doubling: OwnedKeys = (0..10)
        .map(|n| (format!("C#{}", n + 1), 1u64 << n, 10))
        .collect();
    assert_eq!(prefixes(&doubling), vec![]);
    // Two hot shards of ten are still a family (the warnings name them).
    let mut two_hot = run("H#", 0..=9, 10);
    two_hot[0].1 = 500;
    two_hot[1].1 = 400;
    assert_eq!(prefixes(&two_hot), vec![("H#".to_string(), 10)]);
}

#[test]
fn shard_of_finds_a_keys_family() {
    let mut keys = run("shard#", 1..=10, 5);
    keys.push(("shard#x".into(), 5, 10));
    keys.push(("USER#7".into(), 5, 10));
    let d = owned(&keys);
    let families = d.shard_families();
    assert_eq!(
        shard_of(&families, "shard#7").map(|f| f.prefix.as_str()),
        Some("shard#")
    );
    for key in ["shard#x", "shard#11", "USER#7", "shard#", "shard#0"] {
        assert_eq!(shard_of(&families, key), None, "{key}");
    }
}
