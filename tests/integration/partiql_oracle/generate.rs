//! The oracle's statements: key and non-key predicates over the loaded table and its GSI,
//! ORDER BY, `?` parameters (plain and DynamoDB JSON) and hostile values.

use super::{pk, sk, PKS, SKS, STRINGS};
use proptest::prelude::*;

#[derive(Debug, Clone)]
pub struct Generated {
    pub text: String,
    pub parameters: String,
}

fn quote(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}

fn string_value() -> impl Strategy<Value = String> {
    prop::sample::select(STRINGS.to_vec()).prop_map(str::to_string)
}

/// A literal or a `?`: `(text, parameter)`; the parameter as plain or DynamoDB JSON.
fn bind(
    literal: String,
    json_plain: serde_json::Value,
    json_dynamo: serde_json::Value,
) -> impl Strategy<Value = (String, Option<serde_json::Value>)> {
    prop_oneof![
        3 => Just((literal, None)),
        1 => Just(("?".to_string(), Some(json_plain))),
        1 => Just(("?".to_string(), Some(json_dynamo))),
    ]
}

fn str_operand(v: String) -> impl Strategy<Value = (String, Option<serde_json::Value>)> {
    bind(
        quote(&v),
        serde_json::json!(v),
        serde_json::json!({ "S": v }),
    )
}

fn num_operand(v: i64) -> impl Strategy<Value = (String, Option<serde_json::Value>)> {
    bind(
        v.to_string(),
        serde_json::json!(v),
        serde_json::json!({ "N": v.to_string() }),
    )
}

type Piece = (String, Vec<serde_json::Value>);

fn piece(text: String, params: Vec<Option<serde_json::Value>>) -> Piece {
    (text, params.into_iter().flatten().collect())
}

fn op() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["=", "<>", "!=", "<", "<=", ">", ">="])
}

fn predicate() -> BoxedStrategy<Piece> {
    prop_oneof![
        (op(), (-3i64..14).prop_flat_map(num_operand))
            .prop_map(|(o, (v, p))| piece(format!("a {o} {v}"), vec![p])),
        (op(), string_value().prop_flat_map(str_operand))
            .prop_map(|(o, (v, p))| piece(format!("b {o} {v}"), vec![p])),
        string_value().prop_map(|v| piece(
            format!(
                "begins_with(b, {})",
                quote(&v.chars().take(1).collect::<String>())
            ),
            vec![]
        )),
        prop::sample::select(vec!["t0", "t1", "t3"])
            .prop_map(|t| piece(format!("contains(tags, '{t}')"), vec![])),
        string_value().prop_map(|v| piece(
            format!(
                "contains(b, {})",
                quote(&v.chars().take(1).collect::<String>())
            ),
            vec![]
        )),
        prop::sample::select(vec![
            ("nul", "NULL"),
            ("a", "N"),
            ("s", "S"),
            ("l", "L"),
            ("m", "M"),
            ("tags", "SS"),
            ("c", "BOOL")
        ])
        .prop_map(|(a, t)| piece(format!("attribute_type({a}, '{t}')"), vec![])),
        (op(), 0i64..4).prop_map(|(o, v)| piece(format!("size(l) {o} {v}"), vec![])),
        (op(), 0i64..6).prop_map(|(o, v)| piece(format!("size(b) {o} {v}"), vec![])),
        prop::sample::select(vec![
            "s IS MISSING",
            "s IS NOT MISSING",
            "nul IS MISSING",
            "GPK IS NOT MISSING"
        ])
        .prop_map(|t| piece(t.to_string(), vec![])),
        (0i64..5)
            .prop_flat_map(num_operand)
            .prop_map(|(v, p)| piece(format!("m.k = {v}"), vec![p])),
        prop::sample::select(vec!["q", "r"])
            .prop_map(|v| piece(format!("m.\"inner\".z = '{v}'"), vec![])),
        (0i64..3).prop_map(|v| piece(format!("l[0] = {v}"), vec![])),
        Just(piece("l[1] = 'w'".into(), vec![])),
        ((-2i64..8), (0i64..10))
            .prop_map(|(lo, w)| piece(format!("a BETWEEN {lo} AND {}", lo + w), vec![])),
        prop::collection::vec(string_value(), 1..4).prop_map(|vs| piece(
            format!(
                "b IN [{}]",
                vs.iter().map(|v| quote(v)).collect::<Vec<_>>().join(", ")
            ),
            vec![]
        )),
        any::<bool>()
            .prop_map(|b| piece(format!("c = {}", if b { "TRUE" } else { "FALSE" }), vec![])),
        prop::sample::select(vec!["OK", "BAD"])
            .prop_map(|v| piece(format!("\"status\" = '{v}'"), vec![])),
        prop::sample::select(vec!["v", "w"])
            .prop_map(|v| piece(format!("\"x-y\" <> '{v}'"), vec![])),
    ]
    .boxed()
}

fn filter() -> BoxedStrategy<Piece> {
    predicate()
        .prop_recursive(2, 6, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone())
                    .prop_map(|((a, pa), (b, pb))| (format!("({a} AND {b})"), [pa, pb].concat())),
                (inner.clone(), inner.clone())
                    .prop_map(|((a, pa), (b, pb))| (format!("({a} OR {b})"), [pa, pb].concat())),
                inner.prop_map(|(a, pa)| (format!("NOT ({a})"), pa)),
            ]
        })
        .boxed()
}

struct Keys {
    pk: &'static str,
    sk: &'static str,
    pk_values: Vec<String>,
    numeric_sk: bool,
}

fn key_values(on_index: bool) -> Keys {
    if on_index {
        Keys {
            pk: "GPK",
            sk: "GSK",
            pk_values: (0..6).map(|g| format!("g{g}")).collect(),
            numeric_sk: true,
        }
    } else {
        Keys {
            pk: "PK",
            sk: "SK",
            pk_values: (0..PKS + 1).map(pk).collect(),
            numeric_sk: false,
        }
    }
}

fn sk_operand(numeric: bool) -> BoxedStrategy<(String, Option<serde_json::Value>)> {
    if numeric {
        (0i64..40).prop_flat_map(num_operand).boxed()
    } else {
        (0usize..SKS + 2)
            .prop_flat_map(|j| str_operand(sk(j)))
            .boxed()
    }
}

fn key_part(keys: &Keys) -> BoxedStrategy<Option<Piece>> {
    let pk = keys.pk;
    let values = keys.pk_values.clone();
    let one = prop::sample::select(values.clone()).prop_flat_map(str_operand);
    prop_oneof![
        3 => one.clone().prop_map(move |(v, p)| Some(piece(format!("{pk} = {v}"), vec![p]))),
        1 => prop::collection::vec(prop::sample::select(values.clone()), 1..4)
            .prop_map(move |vs| Some(piece(format!("{pk} IN [{}]", vs.iter().map(|v| quote(v)).collect::<Vec<_>>().join(", ")), vec![]))),
        1 => (one.clone(), one.clone()).prop_map(move |((a, pa), (b, pb))| Some(piece(format!("({pk} = {a} OR {pk} = {b})"), vec![pa, pb]))),
        1 => Just(None),
        1 => one.prop_map(move |(v, p)| Some(piece(format!("{pk} > {v}"), vec![p]))),
    ]
    .boxed()
}

fn sort_part(keys: &Keys) -> BoxedStrategy<Option<Piece>> {
    let sk = keys.sk;
    let numeric = keys.numeric_sk;
    let prefix = if numeric {
        Just(None).boxed()
    } else {
        prop::sample::select(vec!["s0", "s1", "s2", "s"])
            .prop_map(move |p| Some(piece(format!("begins_with({sk}, '{p}')"), vec![])))
            .boxed()
    };
    prop_oneof![
        3 => Just(None),
        3 => (prop::sample::select(vec!["=", "<", "<=", ">", ">="]), sk_operand(numeric))
            .prop_map(move |(o, (v, p))| Some(piece(format!("{sk} {o} {v}"), vec![p]))),
        1 => (sk_operand(numeric), sk_operand(numeric)).prop_map(move |((a, pa), (b, pb))| {
            // BETWEEN needs its bounds in order; the generator keeps them so.
            let (a, b, pa, pb) = if ordered_pair(&a, &b, numeric) { (a, b, pa, pb) } else { (b, a, pb, pa) };
            Some(piece(format!("{sk} BETWEEN {a} AND {b}"), vec![pa, pb]))
        }),
        1 => prefix,
        1 => prop::collection::vec(sk_operand(numeric), 1..3).prop_map(move |vs| {
            let (texts, params): (Vec<String>, Vec<_>) = vs.into_iter().unzip();
            Some(piece(format!("{sk} IN [{}]", texts.join(", ")), params))
        }),
    ]
    .boxed()
}

/// Whether `a <= b` for two operands that may be `?` (then both orders are fine for the test:
/// the parameter values decide, so the swap is not done).
fn ordered_pair(a: &str, b: &str, numeric: bool) -> bool {
    if a == "?" || b == "?" {
        return true;
    }
    if numeric {
        a.parse::<i64>().unwrap() <= b.parse::<i64>().unwrap()
    } else {
        a <= b
    }
}

pub fn statement(table: String) -> impl Strategy<Value = Generated> {
    any::<bool>().prop_flat_map(move |on_index| {
        let keys = key_values(on_index);
        let sk = keys.sk;
        let table = table.clone();
        (
            key_part(&keys),
            sort_part(&keys),
            prop::option::of(filter()),
            prop::sample::select(vec![None, Some("ASC"), Some("DESC")]),
            prop::sample::select(vec![
                "*",
                "PK, SK, a",
                "b, \"status\", m",
                "SK, tags, l, nul",
            ]),
            any::<bool>(),
        )
            .prop_map(move |(key, sort, filter, order, projection, key_first)| {
                let mut parts: Vec<Piece> = Vec::new();
                parts.extend(key.clone());
                // DynamoDB Local answers `(PK = 'a' OR PK = 'b') AND SK = '1' AND a = 3` with
                // items whose SK is not '1' (it drops the sort-key condition when two more
                // conditions follow an OR of keys), so that shape has no oracle; its pieces
                // (an OR of keys with either) are still generated.
                let or_of_keys = key.as_ref().is_some_and(|(t, _)| t.contains(" OR "));
                let filter = if or_of_keys && sort.is_some() {
                    None
                } else {
                    filter
                };
                parts.extend(sort);
                if let Some(f) = filter {
                    if key_first {
                        parts.push(f)
                    } else {
                        parts.insert(0, f)
                    }
                }
                let from = if on_index {
                    format!("\"{table}\".\"GIX\"")
                } else {
                    format!("\"{table}\"")
                };
                let pinned = key.as_ref().is_some_and(|(t, _)| !t.contains(" > "));
                // DynamoDB Local fails ORDER BY with a projection (InternalFailure): order `*`.
                let projection = if order.is_some() && pinned {
                    "*"
                } else {
                    projection
                };
                let mut text = format!("SELECT {projection} FROM {from}");
                let mut params = Vec::new();
                if !parts.is_empty() {
                    let (texts, ps): (Vec<String>, Vec<Vec<serde_json::Value>>) =
                        parts.into_iter().unzip();
                    text.push_str(" WHERE ");
                    text.push_str(&texts.join(" AND "));
                    params = ps.concat();
                }
                // DynamoDB Local fails ORDER BY beside a NOT with InternalFailure: such a
                // statement is generated unordered.
                let orderable = pinned && !text.contains("NOT (");
                if let (Some(direction), true) = (order, orderable) {
                    text.push_str(&format!(" ORDER BY {sk} {direction}"));
                }
                Generated {
                    text,
                    parameters: serde_json::Value::Array(params).to_string(),
                }
            })
    })
}
