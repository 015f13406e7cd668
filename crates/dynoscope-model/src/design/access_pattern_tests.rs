//! Tests of access_pattern.rs.

use super::*;
use crate::query::key_condition::SortInput;

const DEMO: &str = include_str!("../../../../assets/demo-patterns.toml");

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn demo_patterns_parse_and_bind() {
    let patterns = parse_patterns_file(DEMO, "demo").unwrap();
    let names: Vec<&str> = patterns.iter().map(|p| p.name.as_str()).collect();
    for wanted in [
        "user-by-id",
        "user-orders",
        "order-with-lines",
        "orders-by-status",
        "products-in-category",
        "pending-orders",
    ] {
        assert!(names.contains(&wanted), "{wanted} in {names:?}");
    }
    let orders = find(&patterns, "orders-by-status").unwrap();
    assert_eq!(orders.params(), ["status", "month"]);
    let bound = orders
        .bind(&params(&[("status", "SHIPPED"), ("month", "2026-08")]))
        .unwrap();
    assert_eq!(bound.pk, ["STATUS#SHIPPED"]);
    assert_eq!(bound.sort, Some(SortInput::BeginsWith("2026-08".into())));
    assert!(bound.descending);
    assert_eq!(bound.index.as_deref(), Some("GSI1"));
    let pending = find(&patterns, "pending-orders").unwrap();
    assert!(pending.params().is_empty());
    let bound = pending.bind(&params(&[])).unwrap();
    assert_eq!(bound.shards, Some((0, 9)));
    assert_eq!(
        shard_keys(&bound.pk[0], (0, 2)),
        ["STATUS#PENDING#0", "STATUS#PENDING#1", "STATUS#PENDING#2"]
    );
}

#[test]
fn binding_errors_name_the_parameter() {
    let patterns = parse_patterns_file(DEMO, "demo").unwrap();
    let orders = find(&patterns, "orders-by-status").unwrap();
    let cases = [
        (
            params(&[("status", "X")]),
            "needs parameter 'month'; pass --param month=VALUE",
        ),
        (
            params(&[("status", "X"), ("month", "1"), ("colour", "red")]),
            "no parameter 'colour'; its parameters are: status, month",
        ),
    ];
    for (given, needle) in cases {
        let msg = orders.bind(&given).unwrap_err().to_string();
        assert!(msg.contains(needle), "{msg}");
    }
    let msg = find(&patterns, "nope").unwrap_err().to_string();
    assert!(
        msg.contains("'nope'") && msg.contains("user-by-id"),
        "{msg}"
    );
}

#[test]
fn bad_pattern_definitions() {
    let cases = [
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\ncolour='red'\n",
            "'a'",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X#{shard}'\n",
            "no shards range",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\nshards='0..3'\n",
            "no {shard} placeholder",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X#{shard}'\nshards='9..0'\n",
            "bad shard range '9..0'",
        ),
        ("[[pattern]]\ntable='t'\npk='X'\n", "#1"),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\nlimit=0\n",
            "limit '0' is out of range; use 1 to 1000000000 items",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\nsk={ like = 'x' }\n",
            "'a'",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\nsk = 'ORDER#{x}'\n",
            "line 5: access pattern 'a': sk 'ORDER#{x}' needs its operator: write sk = { eq = \"ORDER#{x}\" }",
        ),
        ("[[pattern]\n", "line 1"),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X#{a'\n",
            "p.toml', line 4: access pattern 'a': pk 'X#{a' has an unclosed '{'",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk = '{}'\n",
            "line 4: access pattern 'a': pk '{}' has an empty '{}' placeholder",
        ),
        (
            "[[pattern]]\ntable='t'\nname='a'\npk='X'\nsk = { begins_with = 'A}' }\n",
            "line 5: access pattern 'a': sk 'A}' has a '}' with no matching '{'",
        ),
        (
            "# x\n[[pattern]]\ntable='t'\nname = ' '\npk='X'\n",
            "line 4: access pattern ' ': name is empty",
        ),
        (
            "[[pattern]]\nname='a'\ntable='t'\npk='X'\n\n[[pattern]]\ntable='t'\nname='a'\npk='Y'\n",
            "line 8: access pattern 'a' is declared twice (first at line 2)",
        ),
    ];
    for (text, needle) in cases {
        let msg = parse_patterns_file(text, "p.toml").unwrap_err();
        assert!(
            msg.contains("p.toml") && msg.contains(needle),
            "{msg:?} lacks {needle:?}"
        );
        assert!(!msg.contains('\n'));
    }
}

#[test]
fn shard_ranges() {
    assert_eq!(parse_shards("0..9"), Ok((0, 9)));
    assert_eq!(parse_shards("3..=5"), Ok((3, 5)));
    assert_eq!(parse_shards("4..4"), Ok((4, 4)));
    for bad in ["9..0", "a..b", "5", "0..1000", ""] {
        assert!(parse_shards(bad).is_err(), "{bad}");
    }
}
