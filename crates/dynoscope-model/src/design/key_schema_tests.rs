use super::*;

fn attr(name: &str) -> KeyAttr {
    KeyAttr::new(name, KeyType::S)
}

#[test]
fn a_base_table_key_is_the_one_and_one_case() {
    let keys = KeySchema::simple(attr("PK"), Some(attr("SK")));
    assert_eq!(keys.names(), ["PK", "SK"]);
    assert!(!keys.is_multi_attribute());
    assert_eq!(keys.partition_key().name, "PK");
    assert_eq!(keys.sort_key().map(|k| k.name.as_str()), Some("SK"));
    assert_eq!(keys.refuse_multi_attribute("hotkeys", "table 't'"), Ok(()));
}

#[test]
fn a_multi_attribute_key_keeps_every_attribute_in_order() {
    let keys = KeySchema::new(
        vec![attr("tournamentId"), attr("region")],
        vec![
            attr("round"),
            attr("bracket"),
            KeyAttr::new("matchId", KeyType::N),
        ],
    )
    .unwrap();
    assert_eq!(
        keys.names(),
        ["tournamentId", "region", "round", "bracket", "matchId"]
    );
    assert!(keys.is_multi_attribute());
    assert_eq!(
        keys.display(),
        "tournamentId S + region S, sort round S + bracket S + matchId N"
    );
    let refusal = keys
        .refuse_multi_attribute("hotkeys", "index 'TournamentRegionIndex'")
        .unwrap_err();
    assert!(refusal.contains("tournamentId S + region S"), "{refusal}");
}

#[test]
fn a_key_dynamodb_would_not_hold_is_refused() {
    assert_eq!(
        KeySchema::new(vec![], vec![attr("SK")]),
        Err(KeySchemaError::NoPartition)
    );
    let five: Vec<KeyAttr> = (0..5).map(|i| attr(&format!("a{i}"))).collect();
    assert_eq!(
        KeySchema::new(vec![attr("PK")], five),
        Err(KeySchemaError::TooMany {
            side: "sort",
            count: 5
        })
    );
    assert_eq!(
        KeySchema::new(vec![attr("PK")], vec![attr("PK")]),
        Err(KeySchemaError::Repeated("PK".into()))
    );
}

#[test]
fn the_json_lists_both_sides() {
    let keys = KeySchema::new(vec![attr("a"), attr("b")], vec![]).unwrap();
    let json = serde_json::to_value(&keys).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"partition": [{"name": "a", "type": "S"}, {"name": "b", "type": "S"}], "sort": []})
    );
}
