use super::*;
use crate::traffic::distribution::fixtures::{close, dist, numbered, owned};

/// (key, items, bytes per item)
type Keys<'a> = Vec<(&'a str, u64, usize)>;

#[test]
fn totals_and_shares() {
    let d = dist(&[("A", 3, 10), ("B", 1, 100), ("C", 6, 1)]);
    assert_eq!(d.distinct_keys(), 3);
    assert_eq!(d.total_items(), 10);
    assert_eq!(d.total_bytes(), 30 + 100 + 6);
    let top: Vec<(String, u64, u64, f64)> = d
        .top(10)
        .into_iter()
        .map(|e| (e.key, e.items, e.bytes, e.share))
        .collect();
    assert_eq!(
        top,
        vec![
            ("C".to_string(), 6, 6, 0.6),
            ("A".to_string(), 3, 30, 0.3),
            ("B".to_string(), 1, 100, 0.1)
        ]
    );
    assert_eq!(d.top_by_bytes(2).len(), 2);
    let keys: Vec<String> = d.top_by_bytes(3).into_iter().map(|e| e.key).collect();
    assert_eq!(keys, ["B", "A", "C"]);
    assert!(d.top(0).is_empty());
    assert!(KeyDistribution::new().top(3).is_empty());
    assert_eq!(KeyDistribution::new().top_one_percent_share(), 0.0);
}

#[test]
fn ties_break_by_bytes_then_key() {
    let cases: Vec<(&str, Keys, Vec<&str>, Vec<&str>)> = vec![
        (
            "equal items: more bytes first",
            vec![("a", 2, 1), ("b", 2, 5), ("c", 2, 3)],
            vec!["b", "c", "a"],
            vec!["b", "c", "a"],
        ),
        (
            "equal items and bytes: key order",
            vec![("z", 2, 4), ("m", 2, 4), ("a", 2, 4)],
            vec!["a", "m", "z"],
            vec!["a", "m", "z"],
        ),
        (
            "by bytes: equal bytes, more items first",
            vec![("x", 1, 8), ("y", 2, 4), ("w", 4, 2)],
            vec!["w", "y", "x"],
            vec!["w", "y", "x"],
        ),
        (
            "by bytes differs from by items",
            vec![("few-big", 1, 1000), ("many-small", 5, 1)],
            vec!["many-small", "few-big"],
            vec!["few-big", "many-small"],
        ),
    ];
    for (name, keys, want_items, want_bytes) in cases {
        let d = dist(&keys);
        let got: Vec<String> = d.top(10).into_iter().map(|e| e.key).collect();
        assert_eq!(got, want_items, "{name}: top");
        let got: Vec<String> = d.top_by_bytes(10).into_iter().map(|e| e.key).collect();
        assert_eq!(got, want_bytes, "{name}: top_by_bytes");
        // A partial top agrees with the prefix of the full ranking.
        for k in 1..keys.len() {
            let got: Vec<String> = d.top(k).into_iter().map(|e| e.key).collect();
            assert_eq!(got, want_items[..k], "{name}: top({k})");
        }
    }
}

#[test]
fn top_one_percent_share() {
    let mut many = numbered("USER#", 199, 1);
    many.push(("USER#celebrity".into(), 101, 10));
    let mut two_hot = numbered("K#", 150, 2);
    two_hot.push(("HOT1".into(), 50, 1));
    two_hot.push(("HOT2".into(), 50, 1));
    let cases: Vec<(&str, KeyDistribution, f64)> = vec![
        ("one key holds everything", dist(&[("A", 7, 1)]), 1.0),
        (
            "fewer than 100 keys: the top key",
            dist(&[("A", 5, 1), ("B", 3, 1), ("C", 2, 1)]),
            0.5,
        ),
        ("200 keys: the top 2", owned(&many), 102.0 / 300.0),
        // 152 keys: ceil(1.52) = 2 keys
        ("rounds up", owned(&two_hot), 100.0 / 400.0),
        ("uniform", owned(&numbered("K#", 100, 3)), 3.0 / 300.0),
    ];
    for (name, d, want) in cases {
        let got = d.top_one_percent_share();
        assert!(close(got, want), "{name}: {got} != {want}");
    }
}

#[test]
fn histogram_buckets() {
    let d = dist(&[
        ("a", 1, 1),
        ("b", 1, 1),
        ("c", 2, 1),
        ("d", 9, 1),
        ("e", 10, 1),
        ("f", 99, 1),
        ("g", 100, 1),
        ("h", 1000, 1),
        ("i", 1001, 1),
    ]);
    let got: Vec<(&str, u64, u64)> = d
        .histogram()
        .iter()
        .map(|b| (b.label, b.keys, b.items))
        .collect();
    assert_eq!(
        got,
        vec![
            ("1", 2, 2),
            ("2-9", 2, 11),
            ("10-99", 2, 109),
            ("100-999", 1, 100),
            ("1000+", 2, 2001),
        ]
    );
    assert!(KeyDistribution::new()
        .histogram()
        .iter()
        .all(|b| b.keys == 0));
}
