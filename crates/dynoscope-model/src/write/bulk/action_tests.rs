use super::*;
use crate::query::partiql::fixtures::app;
use crate::write::bulk::preview::{self, Report};

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn item(pk: &str, sk: &str, extra: &[(&str, AttrValue)]) -> Item {
    let mut attrs = vec![("PK".to_string(), s(pk)), ("SK".to_string(), s(sk))];
    attrs.extend(extra.iter().map(|(n, v)| (n.to_string(), v.clone())));
    Item::from_attrs(attrs)
}

#[test]
fn a_typed_value_is_dynamodb_json_when_tagged_and_plain_json_otherwise() {
    assert_eq!(parse_value("\"DONE\"").unwrap(), s("DONE"));
    let big = "12345678901234567890.123456789012345678";
    assert_eq!(parse_value(big).unwrap(), AttrValue::N(big.into()));
    assert_eq!(parse_value(" true ").unwrap(), AttrValue::Bool(true));
    assert_eq!(parse_value("null").unwrap(), AttrValue::Null);
    assert_eq!(
        parse_value(r#"{"N":"12.5"}"#).unwrap(),
        AttrValue::N("12.5".into())
    );
    assert!(matches!(
        parse_value(r#"{"SS":["a","b"]}"#).unwrap(),
        AttrValue::Ss(_)
    ));
    // An object that is not one type tag is a map.
    assert!(matches!(
        parse_value(r#"{"note":"x"}"#).unwrap(),
        AttrValue::M(_)
    ));
    let err = parse_value("DONE").unwrap_err();
    assert!(
        err.contains("'DONE' is not a JSON value") && err.contains("\"DONE\""),
        "{err}"
    );
    assert!(parse_value(r#"{"N":"x"}"#).is_err());
}

#[test]
fn each_action_plans_what_the_matching_statement_would() {
    let info = app();
    let items = vec![
        item("a", "1", &[("status", s("NEW")), ("note", s("x"))]),
        item("a", "2", &[("status", s("DONE"))]),
        // The same key listed twice is planned once.
        item("a", "1", &[("status", s("NEW")), ("note", s("x"))]),
    ];
    let set = BulkAction::Set {
        name: "status".into(),
        value: s("DONE"),
    };
    let planned = plan_action(&info, &set, items.clone()).unwrap();
    assert_eq!(planned.len(), 2);
    assert_eq!(
        planned[0].after.as_ref().unwrap().get("status"),
        Some(&s("DONE"))
    );
    assert!(planned[1].unchanged());
    let remove = BulkAction::Remove {
        name: "note".into(),
    };
    let planned = plan_action(&info, &remove, items.clone()).unwrap();
    assert_eq!(planned[0].after.as_ref().unwrap().get("note"), None);
    assert!(planned[1].unchanged());
    let planned = plan_action(&info, &BulkAction::Delete, items).unwrap();
    assert!(planned.iter().all(|p| p.after.is_none()));

    // The dry run's report, as the command line prints it.
    let summary = preview::summarize(&info, &planned);
    let text = preview::text(&Report {
        verb: BulkAction::Delete.verb(),
        table: &info.name,
        read: "marked items",
        info: &info,
        items: &planned,
        summary: &summary,
        rate: Some(10.0),
    });
    assert!(
        text.contains("DELETE on 'app' matches 2 items (marked items); 2 would be written"),
        "{text}"
    );
}

#[test]
fn keys_unnamed_attributes_and_mistyped_index_keys_are_refused() {
    let info = app();
    let items = vec![item("a", "1", &[])];
    let key = BulkAction::Remove { name: "SK".into() };
    let err = plan_action(&info, &key, items.clone()).unwrap_err();
    assert!(err.contains("'SK' is a key attribute"), "{err}");
    let index = BulkAction::Set {
        name: "GSI1PK".into(),
        value: AttrValue::N("5".into()),
    };
    let err = plan_action(&info, &index, items.clone()).unwrap_err();
    assert!(err.contains("must be of type S"), "{err}");
    let unnamed = BulkAction::Set {
        name: " ".into(),
        value: s("x"),
    };
    assert_eq!(
        plan_action(&info, &unnamed, items).unwrap_err(),
        "name the attribute to change"
    );
}
