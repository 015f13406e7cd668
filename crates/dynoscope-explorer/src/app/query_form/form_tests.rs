//! The query form through its own methods: validation, EXPLAIN and the aws-cli command.

use super::*;
use crate::app::fixtures::demo_info;

#[test]
fn prepare_names_the_field_at_fault() {
    let info = demo_info();
    let mut b = QueryForm::new(0);
    assert_eq!(b.prepare(&info).unwrap_err().field, Field::Pk);
    b.set_text(Field::Pk, "USER#1");
    b.op = SORT_OPS.iter().position(|o| *o == "between").unwrap();
    b.set_text(Field::Sk, "b");
    b.set_text(Field::SkHigh, "a");
    let e = b.prepare(&info).unwrap_err();
    assert_eq!(e.field, Field::Sk);
    assert!(
        e.message.contains("'b'") && e.message.contains("'a'"),
        "{}",
        e.message
    );
    b.set_text(Field::SkHigh, "c");
    b.set_text(Field::Limit, "0");
    assert_eq!(b.prepare(&info).unwrap_err().field, Field::Limit);
    b.set_text(Field::Limit, "5");
    b.set_text(Field::Filter, "status = \"open");
    assert_eq!(b.prepare(&info).unwrap_err().field, Field::Filter);
    b.set_text(Field::Filter, "status = \"SHIPPED\"");
    let q = b.prepare(&info).unwrap();
    assert_eq!(
        q.spec.key_condition.as_deref(),
        Some("#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi")
    );
    assert_eq!(q.spec.filter.as_deref(), Some("#status = :f1"));
    assert_eq!(q.spec.limit, Some(5));
    assert!(
        q.warning.is_some(),
        "a filter warns that it reads more than it returns"
    );
}

#[test]
fn raw_mode_parses_the_aws_cli_spelling() {
    let info = demo_info();
    let mut b = QueryForm::new(1);
    b.raw = true;
    b.set_text(Field::RawKey, "GSI1PK = :s AND begins_with(GSI1SK, :m)");
    b.set_text(
        Field::RawValues,
        r#"{":s":{"S":"STATUS#SHIPPED"},":m":{"S":"2026-"}}"#,
    );
    let q = b.prepare(&info).unwrap();
    assert_eq!(q.spec.index.as_deref(), Some("GSI1"));
    b.set_text(Field::RawKey, "GSI1PK > :s");
    let e = b.prepare(&info).unwrap_err();
    assert_eq!(e.field, Field::RawKey);
    assert!(e.message.contains("'GSI1PK'"), "{}", e.message);
}

#[test]
fn cli_command_is_pasteable() {
    let info = demo_info();
    let mut b = QueryForm::new(0);
    b.set_text(Field::Pk, "USER#o'brien");
    b.op = SORT_OPS.iter().position(|o| *o == "begins_with").unwrap();
    b.set_text(Field::Sk, "ORDER#");
    b.descending = true;
    let cli = b.prepare(&info).unwrap().cli;
    assert_eq!(
        cli,
        r##"aws dynamodb query --table-name app --key-condition-expression '#pk = :pk AND begins_with(#sk, :sk)' --expression-attribute-names '{"#pk":"PK","#sk":"SK"}' --expression-attribute-values '{":pk":{"S":"USER#o'\''brien"},":sk":{"S":"ORDER#"}}' --no-scan-index-forward --return-consumed-capacity INDEXES"##
    );
}

#[test]
fn history_round_trips_the_fields() {
    let mut b = QueryForm::new(1);
    b.set_text(Field::Pk, "STATUS#SHIPPED");
    b.op = 7;
    b.set_text(Field::Sk, "2026-");
    b.descending = true;
    let entry = b.history_entry();
    let mut other = QueryForm::new(0);
    other.restore(&entry);
    assert_eq!(other.history_entry(), entry);
    assert_eq!(other.text(Field::Sk), "2026-");
}

#[test]
fn a_filter_on_an_attribute_named_pk_keeps_its_own_placeholder() {
    let info = demo_info();
    let mut b = QueryForm::new(0);
    b.set_text(Field::Pk, "USER#1");
    b.set_text(Field::Filter, "pk = \"a\" and `State#Date` = \"b\"");
    b.set_text(Field::Projection, "pk, `State#Date`, PK");
    let spec = b.prepare(&info).unwrap().spec;
    assert_eq!(spec.key_condition.as_deref(), Some("#pk = :pk"));
    assert_eq!(
        spec.filter.as_deref(),
        Some("#pk_2 = :f1 AND #State_Date = :f2")
    );
    assert_eq!(spec.projection.as_deref(), Some("#pk_2, #State_Date, #pk"));
    let names: Vec<(&str, &str)> = spec
        .names
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("#pk", "PK"),
            ("#pk_2", "pk"),
            ("#State_Date", "State#Date")
        ]
    );
}
