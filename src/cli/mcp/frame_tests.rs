use super::*;

fn answer(line: &str) -> (i32, Option<RequestId>, String) {
    match decode(line.as_bytes(), false) {
        Decoded::Answer(error, id) => (error.code.0, id, error.message.to_string()),
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn a_lone_surrogate_deep_nesting_and_bad_syntax_are_parse_errors_with_the_id() {
    let (code, id, message) = answer(
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"pk":"a\ud83d"}}}"#,
    );
    assert_eq!((code, id), (-32700, Some(RequestId::Number(7))));
    assert!(message.contains("surrogate"), "{message}");
    let deep = format!(
        r#"{{"params":{{"x":{}1{}}},"id":"d","jsonrpc":"2.0"}}"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let (code, id, message) = answer(&deep);
    assert_eq!((code, id), (-32700, Some(RequestId::String("d".into()))));
    assert!(message.contains("64 levels deep"), "{message}");
    let (code, id, _) = answer(r#"{"jsonrpc":"2.0","id":"cut","method":"tools/ca"#);
    assert_eq!((code, id), (-32700, Some(RequestId::String("cut".into()))));
    assert_eq!(answer("not json").0, -32700);
    assert_eq!(answer("not json").1, None);
}

#[test]
fn a_cut_line_is_answered_with_the_id_read_before_the_cut() {
    let line =
        br#"{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"arguments":{"pk":"xxxx"#;
    match decode(line, true) {
        Decoded::Answer(error, id) => {
            assert_eq!(error.code.0, -32700);
            assert!(error.message.contains("longer than"), "{}", error.message);
            assert_eq!(id, Some(RequestId::Number(12)));
        }
        other => panic!("{other:?}"),
    }
    // An id the cut itself ends is not guessed at.
    assert_eq!(top_level_id(br#"{"id":1234"#), None);
}

#[test]
fn params_of_the_wrong_type_are_invalid_params_and_non_requests_invalid_requests() {
    let (code, id, message) =
        answer(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1,2]}"#);
    assert_eq!((code, id), (-32602, Some(RequestId::Number(4))));
    assert!(message.contains("tools/call"), "{message}");
    assert_eq!(answer("[1,2]").0, -32600);
    let (code, id, _) = answer(r#"{"id":5}"#);
    assert_eq!((code, id), (-32600, Some(RequestId::Number(5))));
}

#[test]
fn good_messages_pass_and_undecodable_notifications_are_not_answered() {
    let good = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    assert!(matches!(
        decode(good.as_bytes(), false),
        Decoded::Message(_)
    ));
    let note = r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#;
    assert!(matches!(
        decode(note.as_bytes(), false),
        Decoded::Skip(Some(_))
    ));
    assert!(matches!(decode(b"  \r", false), Decoded::Skip(None)));
}

#[test]
fn the_id_is_found_past_nested_values_and_strings_with_brackets() {
    let line = br#"{"params":{"a":["]}",{"b":"\"}"}]},"method":"m","id":"x y"}"#;
    assert_eq!(top_level_id(line), Some(RequestId::String("x y".into())));
    assert_eq!(top_level_id(br#"{"id":null}"#), None);
    assert_eq!(top_level_id(br#"[{"id":1}]"#), None);
}

#[test]
fn a_surrogate_escape_is_told_from_an_escaped_backslash() {
    assert!(has_surrogate_escape(br#""a\ud83d""#));
    assert!(has_surrogate_escape(br#""a\\\uDC00""#));
    assert!(!has_surrogate_escape(br#""a\\ud83d""#));
    assert!(!has_surrogate_escape(br#""a\u00e9""#));
}
