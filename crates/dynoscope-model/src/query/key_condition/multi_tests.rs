//! DynamoDB's rule on a multi-attribute key, held by `KeyCondition::new`: every partition
//! attribute, a sort prefix of equalities in order, at most one condition on the next.

use proptest::prelude::*;

use super::fixtures::{attr, n, s};
use super::{KeyCondition, KeyConditionError, SortCondition, SortInput};
use crate::design::schema::{KeySchema, KeyType};
use crate::item::value::AttrValue;

fn matches_index() -> KeySchema {
    KeySchema::new(
        vec![attr("tournamentId", KeyType::S), attr("region", KeyType::S)],
        vec![
            attr("round", KeyType::S),
            attr("bracket", KeyType::S),
            attr("matchNo", KeyType::N),
        ],
    )
    .unwrap()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|v| v.to_string()).collect()
}

#[test]
fn every_partition_attribute_and_a_sort_prefix_are_spelled_in_order() {
    let keys = matches_index();
    let condition = KeyCondition::build_parts(
        &keys,
        &strings(&["WINTER2024", "EU-WEST"]),
        &strings(&["SEMIFINALS", "UPPER"]),
        Some(SortInput::Between("1".into(), "9".into())),
    )
    .unwrap();
    let parts = condition.to_expression();
    assert_eq!(
        parts.key_condition,
        "#pk0 = :pk0 AND #pk1 = :pk1 AND #sk0 = :sk0 AND #sk1 = :sk1 AND #sk2 BETWEEN :sk2_lo AND :sk2_hi"
    );
    let names: Vec<&str> = parts.names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        ["tournamentId", "region", "round", "bracket", "matchNo"]
    );
    assert_eq!(
        parts.values[4],
        (":sk2_lo".into(), AttrValue::N("1".into()))
    );
    assert_eq!(condition.sort_prefix()[1].1, s("UPPER"));
    // A one-and-one condition keeps the table's spelling.
    let table = KeySchema::simple(attr("PK", KeyType::S), Some(attr("SK", KeyType::N)));
    let parts = KeyCondition::build(&table, "u", Some(SortInput::Eq("5".into())))
        .unwrap()
        .to_expression();
    assert_eq!(parts.key_condition, "#pk = :pk AND #sk = :sk");
}

#[test]
fn a_condition_that_breaks_the_rule_names_the_attribute() {
    let keys = matches_index();
    let err = |pk: &[&str], eq: &[&str], sort: Option<SortInput>| {
        KeyCondition::build_parts(&keys, &strings(pk), &strings(eq), sort)
            .unwrap_err()
            .to_string()
    };
    assert!(err(&["W"], &[], None).contains("partition attribute 'region' has no value"));
    assert!(err(&["W", "E", "X"], &[], None).contains("3 partition values given"));
    let four = err(
        &["W", "E"],
        &["a", "b", "1"],
        Some(SortInput::Eq("2".into())),
    );
    assert!(four.contains("4 sort conditions given"), "{four}");
    let on_number = err(
        &["W", "E"],
        &["a", "b"],
        Some(SortInput::BeginsWith("1".into())),
    );
    assert!(on_number.contains("'matchNo'"), "{on_number}");
    let typed = err(&["W", "E"], &["a", "b"], Some(SortInput::Eq("x".into())));
    assert!(typed.contains("key 'matchNo' is a number (N)"), "{typed}");
}

/// A key of `p` partition and `q` sort attributes (strings), named p0…, s0….
fn schema(p: usize, q: usize) -> KeySchema {
    let list = |side: &str, count: usize| {
        (0..count)
            .map(|i| attr(&format!("{side}{i}"), KeyType::S))
            .collect()
    };
    KeySchema::new(list("p", p), list("s", q)).unwrap()
}

proptest! {
    /// Built exactly when the rule holds: as many partition values as attributes, and the
    /// prefix plus the last condition no more than the sort attributes.
    #[test]
    fn new_holds_dynamodbs_rule(
        attrs in (1usize..=4, 0usize..=4),
        given in (0usize..=5, 0usize..=5, any::<bool>()),
    ) {
        let (p, q) = attrs;
        let (pk_count, prefix, last) = given;
        let keys = schema(p, q);
        let values = |count: usize| (0..count).map(|i| s(&format!("v{i}"))).collect();
        let sort = last.then(|| SortCondition::Gt(s("x")));
        let built = KeyCondition::new(&keys, values(pk_count), values(prefix), sort);
        let holds = pk_count == p && prefix + usize::from(last) <= q;
        prop_assert_eq!(built.is_ok(), holds, "{:?}", built);
        if let Ok(condition) = built {
            let clauses = condition.to_expression().key_condition.matches(" AND ").count() + 1;
            prop_assert_eq!(clauses, p + prefix + usize::from(last));
        } else if pk_count != p {
            let partition_error = matches!(
                built,
                Err(KeyConditionError::MissingPartition { .. } | KeyConditionError::ExtraPartition { .. })
            );
            prop_assert!(partition_error);
        }
    }
}

#[test]
fn numbers_keep_their_value_in_a_multi_attribute_partition() {
    let keys = KeySchema::new(
        vec![attr("t", KeyType::S), attr("group", KeyType::N)],
        vec![],
    )
    .unwrap();
    let condition = KeyCondition::new(&keys, vec![s("W"), n("1.50")], vec![], None).unwrap();
    assert_eq!(condition.partition()[1].1, n("1.50"));
}
