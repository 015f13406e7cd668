use super::*;
use crate::fixtures::demo_info;
use crate::formats::json::JsonSpelling;
use crate::item::value::{AttrValue, Item};

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn n(v: &str) -> AttrValue {
    AttrValue::N(v.into())
}

fn item(attrs: &[(&str, AttrValue)]) -> Item {
    Item::from_attrs(
        attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn order() -> Item {
    item(&[
        ("PK", s("USER#1")),
        ("SK", s("ORDER#2026-01-01#o1")),
        ("status", s("STUCK")),
        ("total", n("12.50")),
        ("tags", AttrValue::Ss(vec!["a".into(), "b".into()])),
    ])
}

fn keys() -> crate::design::schema::KeySchema {
    demo_info().keys
}

#[test]
fn values_compare_as_dynamodb_compares_them() {
    assert!(same_value(&n("1.0"), &n("1")));
    assert!(same_value(
        &AttrValue::Ss(vec!["b".into(), "a".into()]),
        &AttrValue::Ss(vec!["a".into(), "b".into()])
    ));
    assert!(!same_value(
        &AttrValue::L(vec![s("a"), s("b")]),
        &AttrValue::L(vec![s("b"), s("a")])
    ));
    assert!(!same_value(&s("1"), &n("1")));
}

#[test]
fn an_edit_is_an_update_guarded_by_the_whole_loaded_image() {
    let loaded = order();
    let mut edited = loaded.clone();
    edited.insert("status", s("SHIPPED"));
    edited.insert("note", s("reset by hand"));
    let mut edited_without_tags = edited.clone();
    edited_without_tags = Item::from_attrs(
        edited_without_tags
            .into_attrs()
            .into_iter()
            .filter(|(k, _)| k != "tags")
            .collect(),
    );
    let plan = plan_edit("app", &keys(), &loaded, &edited_without_tags, None).unwrap();
    assert_eq!(
        (plan.kind, plan.operation()),
        (WriteKind::Edit, "UpdateItem")
    );
    let [op] = plan.render().unwrap().try_into().unwrap();
    assert_eq!(
        op.update.as_deref(),
        Some("SET #a5 = :v5, #a2 = :v6 REMOVE #a3")
    );
    assert_eq!(
        op.condition,
        "#a0 = :v0 AND #a1 = :v1 AND #a2 = :v2 AND #a3 = :v3 AND #a4 = :v4 AND attribute_not_exists(#a5)"
    );
    let names: Vec<&str> = op.names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["PK", "SK", "status", "tags", "total", "note"]);
    assert_eq!(op.values[3].1, AttrValue::Ss(vec!["a".into(), "b".into()]));
    assert_eq!(
        op.key,
        item(&[("PK", s("USER#1")), ("SK", s("ORDER#2026-01-01#o1"))])
    );
    // The guard holds for the loaded item, and not once anything moved.
    let guard = &plan.ops[0].guard;
    assert!(guard.holds(Some(&loaded)));
    let mut changed = loaded.clone();
    changed.insert("total", n("13"));
    assert!(!guard.holds(Some(&changed)));
    let mut added = loaded.clone();
    added.insert("note", s("someone else's"));
    assert!(
        !guard.holds(Some(&added)),
        "an attribute the edit adds must still be absent"
    );
    assert!(!guard.holds(None));
    let mut unrelated = loaded.clone();
    unrelated.insert("other", s("added meanwhile"));
    assert!(guard.holds(Some(&unrelated)), "the update leaves it alone");
    assert_eq!(
        plan_edit("app", &keys(), &loaded, &loaded, None),
        Err(PlanError::NoChange)
    );
}

#[test]
fn a_version_attribute_is_the_whole_condition_and_is_bumped() {
    let mut loaded = order();
    loaded.insert("version", n("41"));
    let mut edited = loaded.clone();
    edited.insert("status", s("SHIPPED"));
    let plan = plan_edit("app", &keys(), &loaded, &edited, Some("version")).unwrap();
    let [op] = plan.render().unwrap().try_into().unwrap();
    assert_eq!(op.condition, "#a0 = :v0");
    assert_eq!(op.names[0].1, "version");
    assert_eq!(
        plan.ops[0].after.as_ref().unwrap().get("version"),
        Some(&n("42"))
    );
    let created = plan_create("app", &keys(), &order(), Some("version")).unwrap();
    assert_eq!(
        created.ops[0].after.as_ref().unwrap().get("version"),
        Some(&n("1"))
    );
}

/// A key change is a move sent in turn, never a transaction (a DeleteItem in one cannot
/// return what it removed): the put of the new key, then the guarded delete of the old one,
/// with the delete of exactly what the put wrote to take it back.
#[test]
fn a_key_change_is_a_put_of_the_new_key_then_a_guarded_delete_that_can_be_taken_back() {
    let loaded = order();
    let mut edited = loaded.clone();
    edited.insert("SK", s("ORDER#2026-01-02#o1"));
    let plan = plan_edit("app", &keys(), &loaded, &edited, None).unwrap();
    assert_eq!(
        (plan.kind, plan.operation(), plan.in_turn()),
        (WriteKind::KeyChange, MOVE_OPERATION, true)
    );
    let ops = plan.render().unwrap();
    assert_eq!(ops[0].operation, "PutItem");
    assert_eq!(ops[0].condition, "attribute_not_exists(#a0)");
    assert_eq!(ops[1].operation, "DeleteItem");
    assert_eq!(ops[1].key.get("SK"), Some(&s("ORDER#2026-01-01#o1")));
    assert!(plan.ops[1].guard.holds(Some(&loaded)));
    let back = &plan.rollback[0];
    assert_eq!(back.action, OpAction::Delete);
    assert_eq!(back.key.get("SK"), Some(&s("ORDER#2026-01-02#o1")));
    assert!(back.guard.holds(Some(&edited)) && !back.guard.holds(Some(&loaded)));
    // Its undo is a move back, in turn as well.
    let images: Vec<UndoImage> = plan
        .ops
        .iter()
        .map(|op| UndoImage {
            before: op.before.clone(),
            after: op.after.clone(),
        })
        .collect();
    let undo = plan_undo("app", &keys(), &images, None).unwrap();
    assert_eq!(undo.len(), 1);
    assert_eq!(undo[0].operation(), MOVE_OPERATION);
    assert_eq!(undo[0].rollback.len(), 2);
}

/// Each delete is a DeleteItem of its own (its `ALL_OLD` compared with the image read);
/// the restores of undo, puts on `attribute_not_exists`, go in transactions of 25.
#[test]
fn deletes_go_one_by_one_and_undo_restores_each_image_in_transactions_of_25() {
    let items: Vec<Item> = (0..60)
        .map(|i| {
            item(&[
                ("PK", s(&format!("P#{i}"))),
                ("SK", s("x")),
                ("n", n(&i.to_string())),
            ])
        })
        .collect();
    let plans = plan_delete("app", &keys(), &items, None).unwrap();
    assert_eq!(plans.len(), 60);
    assert!(plans.iter().all(|p| p.operation() == "DeleteItem"));
    let images: Vec<UndoImage> = plans
        .iter()
        .flat_map(|p| &p.ops)
        .map(|op| UndoImage {
            before: op.before.clone(),
            after: op.after.clone(),
        })
        .collect();
    let undo = plan_undo("app", &keys(), &images, None).unwrap();
    let sizes: Vec<usize> = undo.iter().map(|p| p.ops.len()).collect();
    assert_eq!(sizes, [25, 25, 10]);
    assert_eq!(undo[0].operation(), "TransactWriteItems");
    assert!(
        undo.iter()
            .flat_map(|p| &p.ops)
            .all(|op| op.guard.holds(None)),
        "restores only what is still gone"
    );

    // Undo of an edit: back to the loaded image, guarded by what was written.
    let loaded = order();
    let mut edited = loaded.clone();
    edited.insert("status", s("SHIPPED"));
    let plan = plan_edit("app", &keys(), &loaded, &edited, None).unwrap();
    let image = UndoImage {
        before: plan.ops[0].before.clone(),
        after: plan.ops[0].after.clone(),
    };
    let undo = plan_undo("app", &keys(), &[image], None).unwrap();
    let [op] = undo[0].render().unwrap().try_into().unwrap();
    assert_eq!(op.operation, "UpdateItem");
    assert!(undo[0].ops[0].guard.holds(Some(&edited)));
    assert!(!undo[0].ops[0].guard.holds(Some(&loaded)));
    assert_eq!(undo[0].ops[0].after.as_ref(), Some(&loaded));
}

#[test]
fn an_item_too_wide_for_a_full_image_condition_is_refused_in_one_line() {
    let mut wide = order();
    for i in 0..200 {
        wide.insert(format!("attribute_{i:03}"), n("1"));
    }
    let mut edited = wide.clone();
    edited.insert("status", s("SHIPPED"));
    let err = plan_edit("app", &keys(), &wide, &edited, None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("4096-byte and 300-operator limits"), "{err}");
    assert!(err.contains("version_attribute"), "{err}");
    assert!(!err.contains('\n'));
    assert!(plan_edit("app", &keys(), &wide, &edited, Some("v")).is_ok());
}

#[test]
fn diff_and_three_way() {
    let loaded = order();
    let mut yours = loaded.clone();
    yours.insert("status", s("SHIPPED"));
    yours.insert("tags", AttrValue::Ss(vec!["b".into(), "a".into()]));
    let changes = diff(&loaded, &yours);
    assert_eq!(
        changes,
        [AttributeEdit::Changed(
            "status".into(),
            s("STUCK"),
            s("SHIPPED")
        )]
    );
    let mut current = loaded.clone();
    current.insert("total", n("99"));
    let rows = three_way(&loaded, Some(&current), &yours);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["status", "total"]);
    assert_eq!(three_way(&loaded, None, &yours).len(), loaded.len());
}

#[test]
fn diff_compares_as_dynamodb_one_and_one_point_zero_and_reordered_number_sets_are_no_change() {
    let loaded = item(&[
        ("PK", s("USER#1")),
        ("n", n("1")),
        ("ns", AttrValue::Ns(vec!["1".into(), "2.5".into()])),
    ]);
    let yours = item(&[
        ("PK", s("USER#1")),
        ("n", n("1.0")),
        ("ns", AttrValue::Ns(vec!["2.50".into(), "1".into()])),
    ]);
    assert_eq!(diff(&loaded, &yours), []);
    let changed = item(&[
        ("PK", s("USER#1")),
        ("n", n("1.01")),
        ("ns", AttrValue::Ns(vec!["1".into(), "2.5".into()])),
    ]);
    assert_eq!(
        diff(&loaded, &changed),
        [AttributeEdit::Changed("n".into(), n("1"), n("1.01"))]
    );
}

#[test]
fn edited_plain_json_keeps_exact_numbers_and_the_loaded_types() {
    let big = "12345678901234567890123456789012345678";
    let loaded = item(&[
        ("PK", s("USER#1")),
        ("SK", s("PROFILE")),
        ("bin", AttrValue::B(vec![0, 1, 255])),
        ("ss", AttrValue::Ss(vec!["x".into()])),
        ("ns", AttrValue::Ns(vec!["1".into()])),
        ("m", AttrValue::M(item(&[("b", AttrValue::B(vec![7]))]))),
        ("big", n(big)),
    ]);
    for spelling in [JsonSpelling::Plain, JsonSpelling::Dynamo] {
        let text = render_for_editor(&loaded, spelling);
        assert!(
            text.lines().count() > loaded.len(),
            "one attribute per line:\n{text}"
        );
        assert!(text.contains(big), "{text}");
        assert_eq!(
            parse_edited(&text, spelling, Some(&loaded)).unwrap(),
            loaded
        );
    }
    let edited = r#"{"PK":"USER#1","SK":"PROFILE","bin":"AAH/","ss":["x","y"],"ns":[1,2.50],"m":{"b":"Bw=="},"big":99999999999999999999999999999999999999,"new":[1]}"#;
    let got = parse_edited(edited, JsonSpelling::Plain, Some(&loaded)).unwrap();
    assert_eq!(
        got.get("ss"),
        Some(&AttrValue::Ss(vec!["x".into(), "y".into()]))
    );
    assert_eq!(
        got.get("ns"),
        Some(&AttrValue::Ns(vec!["1".into(), "2.50".into()]))
    );
    assert_eq!(
        got.get("m"),
        Some(&AttrValue::M(item(&[("b", AttrValue::B(vec![7]))])))
    );
    assert_eq!(
        got.get("big"),
        Some(&n("99999999999999999999999999999999999999"))
    );
    assert_eq!(got.get("new"), Some(&AttrValue::L(vec![n("1")])));
    let err = parse_edited("{\"PK\": ", JsonSpelling::Plain, None).unwrap_err();
    assert!(err.contains("line 1"), "{err}");
    assert!(parse_edited("[1]", JsonSpelling::Plain, None).is_err());
}

#[test]
fn validation_names_each_attribute_at_fault() {
    let info = demo_info();
    let ok = item(&[("PK", s("USER#1")), ("SK", s("PROFILE"))]);
    assert!(validate(&ok, &info).is_empty());
    let bad = item(&[
        ("PK", s("")),
        ("GSI1PK", n("5")),
        ("GSI1SK", AttrValue::Bool(true)),
        ("tags", AttrValue::Ss(vec![])),
        (
            "m",
            AttrValue::M(item(&[(
                "dup",
                AttrValue::Ns(vec!["1".into(), "1.0".into()]),
            )])),
        ),
    ]);
    let problems = validate(&bad, &info);
    let want = [
        "PK: empty",
        "SK: missing",
        "GSI1PK: is N",
        "GSI1SK: is BOOL",
        "tags: an empty string set",
        "m.dup: a number set with a repeated element",
    ];
    for w in want {
        assert!(
            problems.iter().any(|p| p.starts_with(w)),
            "{w}: {problems:#?}"
        );
    }
    assert_eq!(problems.len(), want.len(), "{problems:#?}");
    let mut big = ok.clone();
    big.insert("blob", s(&"x".repeat(410_000)));
    assert!(validate(&big, &info)[0].contains("over the 409600-byte"));
}

#[test]
fn a_template_keeps_keys_and_blanks_the_rest() {
    let example = item(&[
        ("PK", s("USER#1")),
        ("SK", s("ORDER#2026-01-01#o1")),
        ("GSI1PK", s("STATUS#SHIPPED")),
        ("total", n("12.5")),
        ("tags", AttrValue::Ss(vec!["a".into(), "b".into()])),
        ("status", s("SHIPPED")),
    ]);
    let t = new_item_template(&example, &["PK".into(), "GSI1PK".into()], Some("SK"), '#');
    assert_eq!(t.get("PK"), Some(&s("USER#1")));
    assert_eq!(t.get("SK"), Some(&s("ORDER#")));
    assert_eq!(t.get("GSI1PK"), Some(&s("STATUS#SHIPPED")));
    assert_eq!(t.get("total"), Some(&n("0")));
    assert_eq!(t.get("status"), Some(&s("")));
    assert_eq!(t.get("tags"), Some(&AttrValue::Ss(vec!["a".into()])));
}
