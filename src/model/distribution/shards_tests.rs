use crate::model::distribution::fixtures::{close, dist, owned};

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
