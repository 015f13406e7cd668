use super::*;
use crate::item::value::AttrValue;

/// `item_kind` runs on `key_kind`, which must agree with the full decoding.
#[test]
fn key_kind_agrees_with_decode_key() {
    let keys = [
        "",
        "#",
        "##",
        "USER#123",
        "USER#",
        "#META",
        "#META#x",
        "PROFILE",
        "profile",
        "alice",
        "ORDER#2026-08-27#456",
        "2026-08-27#x",
        "a3f9c2e1-0b1d-4c7e-9d3a-1f2e3d4c5b6a#x",
        "STATUS#PENDING#3",
        "USER|1",
        "A",
        "a#",
        "_x#1",
        "Café#1",
        "#meta",
        "#Order|x",
        "User:2023-04-01T12:00:00.001Z",
        "2023-04-01T12:00:00.001Z",
        "$task_1#project_552-79#employee_8016",
        "$employee_1",
        "$workplaces#employee_1#team_red",
        "$task-manager#employee_4c78",
        "$x",
    ];
    for sep in SEPARATORS {
        for key in keys {
            for role in [KeyRole::Partition, KeyRole::Sort] {
                let decoded = decode_key_as(key, sep, role);
                let want = decoded.kind.map(|kind| (kind, !decoded.parts.is_empty()));
                let got = key_kind(key, sep, role).map(|(kind, rest)| (kind, rest.is_some()));
                assert_eq!(got, want, "{key:?} with {sep:?} as {role:?}");
            }
        }
    }
}

#[test]
fn decodes_keys() {
    let cases: &[(&str, char, Option<&str>, &[&str])] = &[
        ("USER#123", '#', Some("USER"), &["123"]),
        (
            "ORDER#2026-08-27#456",
            '#',
            Some("ORDER"),
            &["2026-08-27", "456"],
        ),
        ("#META#x", '#', Some("META"), &["x"]),
        ("#META", '#', Some("META"), &[]),
        ("PROFILE", '#', Some("PROFILE"), &[]),
        ("USER_SETTINGS", '#', Some("USER_SETTINGS"), &[]),
        ("order-item#7", '#', Some("order-item"), &["7"]),
        ("USER#", '#', Some("USER"), &[""]),
        ("USER|123", '|', Some("USER"), &["123"]),
        ("tenant:acme:42", ':', Some("tenant"), &["acme", "42"]),
        // No prefix: numbers, dates, ids and lone lower-case words.
        ("123", '#', None, &["123"]),
        (
            "2026-08-27#ORDER#456",
            '#',
            None,
            &["2026-08-27", "ORDER", "456"],
        ),
        (
            "3f2b8c1e-9a4d-4e7b-8c2d-1a2b3c4d5e6f",
            '#',
            None,
            &["3f2b8c1e-9a4d-4e7b-8c2d-1a2b3c4d5e6f"],
        ),
        ("a3f9c2e1-9a4d#x", '#', None, &["a3f9c2e1-9a4d", "x"]),
        (
            "01ARZ3NDEKTSV4RRFFQ69G5FAV",
            '#',
            None,
            &["01ARZ3NDEKTSV4RRFFQ69G5FAV"],
        ),
        ("alice", '#', None, &["alice"]),
        ("o9", '#', None, &["o9"]),
        ("", '#', None, &[]),
        ("#", '#', None, &[]),
        ("user name#1", '#', None, &["user name", "1"]),
        // Mixed separators: only the chosen one splits.
        ("USER|123", '#', None, &["USER|123"]),
        ("USER:1#x", '#', None, &["USER:1", "x"]),
        ("USER#1:x", ':', None, &["USER#1", "x"]),
        // An ISO-8601 timestamp is one part, whatever the separator.
        ("2026-01-02T10:00:00Z", ':', None, &["2026-01-02T10:00:00Z"]),
        (
            "Game:2026-01-02T10:00:00.001Z:g1",
            ':',
            Some("Game"),
            &["2026-01-02T10:00:00.001Z", "g1"],
        ),
        // ElectroDB keys decode with the library's grammar (the kind is in the sort key).
        ("$task-manager#employee_4c78", '#', None, &["4c78"]),
    ];
    for (value, sep, kind, parts) in cases {
        let decoded = decode_key(value, *sep);
        assert_eq!(decoded.kind, *kind, "{value:?}");
        assert_eq!(decoded.parts, *parts, "{value:?}");
    }
}

#[test]
fn infers_separator() {
    let cases: &[(&[&str], char)] = &[
        (&[], '#'),
        (&["123", "alice"], '#'),
        (&["USER#1", "ORDER#2"], '#'),
        (&["USER|1", "ORDER|2", "ITEM#3"], '|'),
        (&["tenant:a", "user:b"], ':'),
        (&["USER#1", "USER|1"], '#'),
        (&["USER|1", "USER:1"], '|'),
        // The colons of timestamps are data, not separators.
        (
            &["USER#1", "2026-01-02T10:00:00Z", "2026-01-03T11:00:00Z"],
            '#',
        ),
        (&["#META", "#META#x", "TAG|a"], '#'),
    ];
    for (values, want) in cases {
        assert_eq!(infer_separator(values.iter().copied()), *want, "{values:?}");
    }
}

fn keyed(pk: AttrValue, sk: Option<AttrValue>) -> Item {
    let mut item = Item::new();
    item.insert("PK", pk);
    if let Some(sk) = sk {
        item.insert("SK", sk);
    }
    item
}

#[test]
fn classifies_items() {
    let s = |v: &str| AttrValue::S(v.into());
    let cases: &[(AttrValue, Option<AttrValue>, char, Option<&str>)] = &[
        (s("USER#1"), Some(s("PROFILE")), '#', Some("USER")),
        (
            s("USER#1"),
            Some(s("ORDER#2026-01-02#o9")),
            '#',
            Some("ORDER"),
        ),
        (s("ORDER#o9"), Some(s("ITEM#1")), '#', Some("ITEM")),
        (s("ORDER#o9"), Some(s("#META")), '#', Some("ORDER")),
        (s("PRODUCT#9"), Some(s("PRODUCT")), '#', Some("PRODUCT")),
        (s("123"), Some(s("456")), '#', None),
        // A bare SK still names the kind when the PK has none.
        (s("123"), Some(s("PROFILE")), '#', Some("PROFILE")),
        (s("USER#1"), Some(s("2026-01-02")), '#', Some("USER")),
        (s("USER#1"), None, '#', Some("USER")),
        (
            s("USER#1"),
            Some(AttrValue::N("7".into())),
            '#',
            Some("USER"),
        ),
        (
            AttrValue::N("1".into()),
            Some(s("ITEM#1")),
            '#',
            Some("ITEM"),
        ),
        (s("USER|1"), Some(s("ORDER|9")), '|', Some("ORDER")),
        // Keys written with another separator decode to no kind at all.
        (s("USER|1"), Some(s("ORDER|9")), '#', None),
    ];
    for (pk, sk, sep, want) in cases {
        let item = keyed(pk.clone(), sk.clone());
        let sk_name = sk.as_ref().map(|_| "SK");
        assert_eq!(
            item_kind(&item, "PK", sk_name, *sep),
            *want,
            "{pk:?} {sk:?}"
        );
    }
    let item = keyed(s("USER#1"), None);
    assert_eq!(item_kind(&item, "PK", Some("SK"), '#'), Some("USER"));
    assert_eq!(item_kind(&item, "missing", None, '#'), None);
}

#[test]
fn sort_keys_in_electrodb_s_grammar_name_their_entity_and_parts() {
    let decoded = decode_key_as("$task_1#project_552-79#employee_8016", '#', KeyRole::Sort);
    assert_eq!(decoded.kind, Some("task"));
    assert_eq!(decoded.parts, ["552-79", "8016"]);
    assert_eq!(decoded.names, ["project", "employee"]);
    // As a partition key the head is the service.
    let pk = decode_key("$task-manager#employee_4c78", '#');
    assert_eq!((pk.kind, pk.names), (None, vec!["employee"]));
    // With another separator the key is plain text.
    assert_eq!(decode_key_as("$task_1#x_1", '|', KeyRole::Sort).kind, None);
}

#[test]
fn electrodb_and_timestamp_keys_infer_their_separator() {
    let electrodb = [
        "$taskapp#employee_1",
        "$employee_1",
        "$taskapp#datehired_2020-01-02t03:04:05z",
    ];
    assert_eq!(infer_separator(electrodb.into_iter()), '#');
    let colons = [
        "User:UserA",
        "2023-04-01T12:00:00.001Z",
        "User:UserB",
        "2023-04-02T12:00:00Z",
    ];
    assert_eq!(infer_separator(colons.into_iter()), ':');
}
