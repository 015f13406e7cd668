//! PartiQL on a multi-attribute GSI: the WHERE becomes the Query DynamoDB accepts.

use crate::item::value::AttrValue;
use crate::query::partiql::fixtures::matches;
use crate::query::partiql::plan::{Plan, ReadKind};
use crate::query::partiql::translate;
use crate::query::partiql::{parse, Statement};

fn plan(where_: &str) -> Plan {
    let text = format!(r#"SELECT * FROM "app"."TournamentRegionIndex" WHERE {where_}"#);
    let Statement::Select(select) = parse(&text).unwrap() else {
        panic!("not a select")
    };
    translate(&select, &[], &matches()).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn every_partition_attribute_and_a_sort_prefix_make_the_query() {
    let p = plan("region = 'EU-WEST' AND tournamentId = 'WINTER2024'");
    assert_eq!(p.kind, ReadKind::Query);
    assert_eq!(
        p.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1")
    );
    assert_eq!(p.names[0], ("#pk0".into(), "tournamentId".into()));
    assert_eq!(p.values[1], (":pk1".into(), AttrValue::S("EU-WEST".into())));
    assert_eq!(p.filter, None);

    let p = plan(
        "tournamentId = 'W' AND region = 'E' AND begins_with(bracket, 'UP') AND round = 'SEMIFINALS' AND score > 3",
    );
    assert_eq!(p.kind, ReadKind::Query);
    assert_eq!(
        p.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1 AND #sk0 = :sk0 AND begins_with(#sk1, :sk1)")
    );
    assert!(
        p.filter.as_deref().is_some_and(|f| f.contains('>')),
        "{:?}",
        p.filter
    );
}

#[test]
fn a_missing_partition_attribute_or_a_gap_is_not_a_query() {
    // Without region: DynamoDB has no partition to read.
    let p = plan("tournamentId = 'W' AND round = 'FINAL'");
    assert_eq!(p.kind, ReadKind::Scan);
    // bracket without round before it: no key condition holds it.
    let p = plan("tournamentId = 'W' AND region = 'E' AND bracket = 'UPPER'");
    assert_eq!(p.kind, ReadKind::Scan);
    assert!(
        p.note.as_deref().is_some_and(|n| n.contains("'bracket'")),
        "{:?}",
        p.note
    );
}
