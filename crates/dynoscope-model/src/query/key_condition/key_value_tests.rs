use super::*;
use crate::query::key_condition::fixtures::{attr, n, s};

#[test]
fn parse_types_values_by_key_type() {
    let cases = [
        ("abc", KeyType::S, s("abc")),
        (" spaced ", KeyType::S, s(" spaced ")),
        ("42", KeyType::N, n("42")),
        ("-1.5e3", KeyType::N, n("-1.5e3")),
        ("AQID", KeyType::B, KeyValue::B(vec![1, 2, 3])),
    ];
    for (raw, key_type, expected) in cases {
        let value = KeyValue::parse(raw, &attr("K", key_type)).unwrap();
        assert_eq!(value, expected, "{raw:?}");
    }
}

#[test]
fn parse_errors_name_the_value() {
    let cases = [
        ("", KeyType::S, "key 'K' cannot be empty; DynamoDB rejects empty key values"),
        ("", KeyType::B, "key 'K' cannot be empty"),
        (
            "12a",
            KeyType::N,
            "key 'K' is a number (N) but '12a' is not a number (expected digits like 42, -1.5 or 6.02E23)",
        ),
        ("", KeyType::N, "key 'K' is a number (N) but '' is not a number"),
        ("1e200", KeyType::N, "'1e200' is too large"),
        (
            "not base64!",
            KeyType::B,
            "key 'K' is binary (B) but 'not base64!' is not base64; give the bytes as standard base64 like 'AQID'",
        ),
    ];
    for (raw, key_type, expected) in cases {
        let message = KeyValue::parse(raw, &attr("K", key_type))
            .unwrap_err()
            .to_string();
        assert!(message.contains(expected), "{raw:?}: {message}");
    }
}

#[test]
fn from_attr_requires_matching_type() {
    let sk = attr("SK", KeyType::N);
    let cases: [(AttrValue, Result<KeyValue, &str>); 6] = [
        (AttrValue::N("7".into()), Ok(n("7"))),
        (
            AttrValue::S("7".into()),
            Err("key 'SK' is a number (N) but the value is a string (S); give it as {\"N\": ...}"),
        ),
        (
            AttrValue::Bool(true),
            Err("key 'SK' is a number (N) but the value is a boolean (BOOL)"),
        ),
        (AttrValue::Null, Err("but the value is null (NULL)")),
        (AttrValue::N("x".into()), Err("'x' is not a number")),
        (AttrValue::L(vec![]), Err("the value is a list (L)")),
    ];
    for (value, expected) in cases {
        match (from_attr(&value, &sk), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want),
            (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
            (got, want) => panic!("{value:?}: got {got:?}, want {want:?}"),
        }
    }
    let err = KeyValue::from_placeholder(":sk", &AttrValue::S("a".into()), &sk).unwrap_err();
    assert_eq!(
        err.to_string(),
        "key 'SK' is a number (N) but ':sk' is a string (S); give it as {\"N\": ...}"
    );
    let pk = attr("PK", KeyType::S);
    let err = KeyValue::from_placeholder(":pk", &AttrValue::S(String::new()), &pk).unwrap_err();
    assert_eq!(err, KeyConditionError::EmptyValue { key: "PK".into() });
}
