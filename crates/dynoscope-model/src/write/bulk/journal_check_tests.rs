use super::*;
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::fixtures::app;
use crate::write::bulk::journal::{self, Header};
use crate::write::bulk::{plan_items, with_version, BulkItem};

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn before(sk: &str) -> Item {
    Item::from_attrs(vec![
        ("PK".into(), s("a")),
        ("SK".into(), s(sk)),
        ("status".into(), s("NEW")),
    ])
}

fn header(statement: &str, parameters: Option<&str>) -> Header {
    Header {
        verb: statement.split(' ').next().unwrap().into(),
        statement: statement.into(),
        parameters: parameters.map(str::to_string),
        table: "app".into(),
        endpoint: "http://localhost:8000".into(),
    }
}

/// The journal a run of `statement` writes for items SK 1..=3, read back.
fn journal_of(h: &Header, items: Vec<BulkItem>) -> Journal {
    let info = app();
    let mut text = journal::header_line(h);
    for (n, item) in items.iter().enumerate() {
        text.push_str(&journal::item_line(n, &item.key(&info), item));
    }
    text.push_str(&journal::planned_line(items.len()));
    journal::parse(&text).unwrap()
}

fn check(j: &Journal) -> Result<(), String> {
    check_versioned(j, None)
}

fn check_versioned(j: &Journal, version: Option<&str>) -> Result<(), String> {
    let rule = check_header(&j.header)?;
    check_items(j, &rule, &app(), version)
}

fn planned(statement: &str, parameters: &[AttrValue]) -> Vec<BulkItem> {
    let stmt = parse_write(statement).unwrap();
    let set = stmt.bound_set(parameters);
    plan_items(&stmt, &set, vec![before("1"), before("2"), before("3")])
}

#[test]
fn a_journal_as_its_run_wrote_it_passes() {
    let update = "UPDATE app SET status = ? REMOVE note WHERE PK = 'a'";
    let h = header(update, Some("[\"DONE\"]"));
    let j = journal_of(&h, planned(update, &[s("DONE")]));
    check(&j).unwrap();
    let delete = "DELETE FROM app WHERE PK = 'a'";
    check(&journal_of(&header(delete, None), planned(delete, &[]))).unwrap();
}

/// A run with a version attribute increments it in every after-image (as `partiql`, undo
/// and the explorer's bulk dialog write them): such a journal passes with that attribute
/// configured, and is refused without it or when the version is not the increment.
#[test]
fn a_versioned_journal_passes_with_its_version_attribute() {
    let update = "UPDATE app SET status = 'DONE' WHERE PK = 'a'";
    let h = header(update, None);
    let mut items = planned(update, &[]);
    with_version(&mut items, Some("version"));
    assert!(items
        .iter()
        .all(|i| i.after.as_ref().unwrap().get("version") == Some(&AttrValue::N("1".into()))));
    let j = journal_of(&h, items.clone());
    check_versioned(&j, Some("version")).unwrap();
    assert!(check(&j)
        .unwrap_err()
        .contains("attribute 'version' differs"));
    items[1]
        .after
        .as_mut()
        .unwrap()
        .insert("version", AttrValue::N("7".into()));
    let e = check_versioned(&journal_of(&h, items), Some("version")).unwrap_err();
    assert!(e.starts_with("journal line 3: item 1's after-image"), "{e}");
    // The bulk dialog's journal: the action's attribute and the version.
    let dialog = header("UPDATE \"app\" -- explorer bulk dialog", None);
    let mut items = planned(update, &[]);
    with_version(&mut items, Some("version"));
    let j = journal_of(&dialog, items);
    check_versioned(&j, Some("version")).unwrap();
    assert!(check(&j).unwrap_err().contains("changes 2 attributes"));
}

#[test]
fn an_after_image_the_statement_does_not_make_is_refused_naming_its_line() {
    let update = "UPDATE app SET status = 'DONE' WHERE PK = 'a'";
    let h = header(update, None);
    // One after-image set to null: the resumed run would delete the item.
    let mut items = planned(update, &[]);
    items[1].after = None;
    let e = check(&journal_of(&h, items)).unwrap_err();
    assert_eq!(
        e,
        "journal line 3: item 1's after-image is not what the statement makes of its before-image (it is null, a delete)"
    );
    // Another value.
    let mut items = planned(update, &[]);
    items[2].after.as_mut().unwrap().insert("status", s("EVIL"));
    let e = check(&journal_of(&h, items)).unwrap_err();
    assert!(e.starts_with("journal line 4: item 2's after-image"), "{e}");
    assert!(e.contains("attribute 'status' differs"), "{e}");
    // Other --parameters than the run's: every after-image differs.
    let h = header("UPDATE app SET status = ? WHERE PK = 'a'", Some("[\"X\"]"));
    let j = journal_of(
        &h,
        planned("UPDATE app SET status = ? WHERE PK = 'a'", &[s("Y")]),
    );
    assert!(check(&j)
        .unwrap_err()
        .starts_with("journal line 2: item 0's after-image"));
    // A delete's journal with an after-image.
    let delete = "DELETE FROM app WHERE PK = 'a'";
    let mut items = planned(delete, &[]);
    items[0].after = Some(before("1"));
    let e = check(&journal_of(&header(delete, None), items)).unwrap_err();
    assert!(e.contains("a delete's after-image must be null"), "{e}");
}

#[test]
fn a_header_naming_another_table_or_verb_is_refused() {
    let update = "UPDATE app SET status = 'DONE' WHERE PK = 'a'";
    let mut h = header(update, None);
    h.table = "other".into();
    let e = check_header(&h).unwrap_err();
    assert_eq!(
        e,
        "journal line 1: it names table 'other' but its statement writes table 'app'"
    );
    let mut h = header(update, None);
    h.verb = "DELETE".into();
    assert!(check_header(&h).unwrap_err().contains("its verb is DELETE"));
    let h = header("UPDATE app -- hello", None);
    assert!(check_header(&h)
        .unwrap_err()
        .contains("not a bulk UPDATE or DELETE"));
}

#[test]
fn keys_must_be_the_tables_and_each_listed_once() {
    let update = "UPDATE app SET status = 'DONE' WHERE PK = 'a'";
    let h = header(update, None);
    let mut items = planned(update, &[]);
    items[1] = items[0].clone();
    let e = check(&journal_of(&h, items)).unwrap_err();
    assert_eq!(e, "journal line 3: item 1's key is listed twice");
    let mut items = planned(update, &[]);
    let mut j = journal_of(&h, items.clone());
    j.keys[2].insert("SK", s("9"));
    assert_eq!(
        check(&j).unwrap_err(),
        "journal line 4: item 2's key is not its before-image's"
    );
    items[0].before = Item::from_attrs(vec![("PK".into(), s("a"))]);
    let mut j = journal_of(&h, items);
    j.items[0].before = Item::from_attrs(vec![("PK".into(), s("a"))]);
    assert!(check(&j)
        .unwrap_err()
        .contains("before-image lacks the key"));
}

#[test]
fn a_dialog_run_must_be_one_action_on_every_item() {
    let h = |verb: &str| Header {
        verb: verb.into(),
        statement: format!("{verb} \"app\" -- explorer bulk dialog"),
        parameters: None,
        table: "app".into(),
        endpoint: "http://localhost:8000".into(),
    };
    let set = |sk: &str, v: &str| {
        let mut after = before(sk);
        after.insert("status", s(v));
        BulkItem {
            before: before(sk),
            after: Some(after),
        }
    };
    check(&journal_of(
        &h("UPDATE"),
        vec![set("1", "DONE"), set("2", "DONE")],
    ))
    .unwrap();
    let e = check(&journal_of(
        &h("UPDATE"),
        vec![set("1", "DONE"), set("2", "EVIL")],
    ))
    .unwrap_err();
    assert!(
        e.starts_with(
            "journal line 3: item 1's after-image is not what the bulk dialog's action makes"
        ),
        "{e}"
    );
    let mut deleted = set("2", "DONE");
    deleted.after = None;
    let e = check(&journal_of(
        &h("UPDATE"),
        vec![set("1", "DONE"), deleted.clone()],
    ))
    .unwrap_err();
    assert!(e.starts_with("journal line 3: item 1's after-image"), "{e}");
    let e = check(&journal_of(&h("UPDATE"), vec![deleted.clone()])).unwrap_err();
    assert!(
        e.contains("is null (a delete) in the bulk dialog's UPDATE"),
        "{e}"
    );
    check(&journal_of(&h("DELETE"), vec![deleted])).unwrap();
    let e = check(&journal_of(&h("DELETE"), vec![set("1", "DONE")])).unwrap_err();
    assert!(e.contains("a delete's after-image must be null"), "{e}");
}
