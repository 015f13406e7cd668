//! Writes through `update`: the new item `N` starts from.

use crate::app::fixtures::*;
use crate::app::msg::{Effect, Msg, WriteEffect, WriteMsg};
use crate::model::item::value::{AttrValue, Item};

fn tagged(sk: &str, extra: Vec<(&str, AttrValue)>) -> Item {
    let mut attrs = vec![
        ("PK".to_string(), AttrValue::S("USER#u1".into())),
        ("SK".to_string(), AttrValue::S(sk.into())),
        (
            "ss".to_string(),
            AttrValue::Ss(vec!["p".into(), "q".into()]),
        ),
        ("bin".to_string(), AttrValue::B(vec![1, 2, 3])),
        ("n".to_string(), AttrValue::N("7".into())),
    ];
    attrs.extend(extra.into_iter().map(|(n, v)| (n.to_string(), v)));
    Item::from_attrs(attrs)
}

/// Issue 21.6: a new item saved a string set as a list and a binary as a string.
#[test]
fn a_new_item_keeps_the_types_of_its_kinds_items() {
    let (mut s, id) = opened();
    s.writes_enabled = true;
    let items = vec![
        tagged("ORDER#1", vec![]),
        tagged(
            "ORDER#2",
            vec![("tags", AttrValue::Ns(vec!["1".into(), "2".into()]))],
        ),
    ];
    send(&mut s, [page(id, 1, items, false)]);
    let effects = send(&mut s, [char('N')]);
    let (edit, text) = match effects.as_slice() {
        [Effect::Write(WriteEffect::Edit { edit, text })] => (*edit, text.clone()),
        other => panic!("{other:?}"),
    };
    // The user fills in the sort key, and adds `tags`, which another item of the kind holds.
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["SK"] = "ORDER#3".into();
    v["tags"] = serde_json::json!([5]);
    send(
        &mut s,
        [Msg::Write(WriteMsg::Edited {
            edit,
            result: Ok(v.to_string()),
        })],
    );
    let flow = s.table.as_ref().unwrap().write().unwrap();
    assert!(flow.problems.is_empty(), "{:?}", flow.problems);
    let yours = flow.yours.as_ref().unwrap();
    assert_eq!(yours.get("ss"), Some(&AttrValue::Ss(vec!["p".into()])));
    assert_eq!(yours.get("bin"), Some(&AttrValue::B(Vec::new())));
    assert_eq!(yours.get("n"), Some(&AttrValue::N("0".into())));
    assert_eq!(yours.get("tags"), Some(&AttrValue::Ns(vec!["5".into()])));
}

/// Issue 24: on an export every write key says it is read-only and sends nothing, even with
/// a writer (the CLI never makes one for an export; the state must not rely on that alone).
#[test]
fn write_keys_on_an_export_say_it_is_read_only_and_do_nothing() {
    let (mut s, id) = opened();
    s.writes_enabled = true;
    s.session.export = Some("export 017-abc of shop at 2026-12-01T11:00:00Z".into());
    send(
        &mut s,
        [page(id, 1, vec![tagged("ORDER#1", vec![])], false)],
    );
    for key in ['e', 'E', 'N', 'D', 'U'] {
        s.notice = None;
        let effects = send(&mut s, [char(key)]);
        assert!(effects.is_empty(), "{key}: {effects:?}");
        let notice = s.notice.as_ref().expect("a notice");
        assert!(notice.error, "{key}");
        assert_eq!(notice.text, super::keys::EXPORT_READ_ONLY, "{key}");
        let view = s.table.as_ref().unwrap();
        assert!(view.write().is_none() && view.modal.is_none(), "{key}");
    }
}
