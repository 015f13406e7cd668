//! Tests of number.rs.

use super::*;

#[test]
fn accepts_dynamodb_number_syntax() {
    let ok = [
        "0",
        "-0",
        "+0",
        "0.0",
        "-0.0e-999999999999",
        "1",
        "-1",
        "+5",
        "1.5",
        ".5",
        "5.",
        "-.5e3",
        "6.02E23",
        "6.02e+23",
        "1e-130",
        "1E-130",
        "0.0001e-126",
        "9.9999999999999999999999999999999999999E+125",
        "-9.9999999999999999999999999999999999999E+125",
        "99999999999999999999999999999999999999",
        // Leading and trailing zeros are not significant.
        "000000000000000000000012345678901234567890123456789012345678",
        "12345678901234567890123456789012345678000000000000",
        "0.00000000000000000000000000000012345678901234567890123456789012345678",
        "1000000000000000000000000000000000000000000000000000000000000000",
    ];
    for text in ok {
        assert_eq!(validate_number(text), Ok(()), "{text:?}");
    }
}

#[test]
fn rejects_bad_numbers_with_messages() {
    let cases = [
        (
            "12a",
            "'12a' is not a number (expected digits like 42, -1.5 or 6.02E23)",
        ),
        (
            "",
            "'' is not a number (expected digits like 42, -1.5 or 6.02E23)",
        ),
        ("-", "'-' is not a number"),
        (".", "'.' is not a number"),
        ("e5", "'e5' is not a number"),
        ("1e", "'1e' is not a number"),
        ("1e+", "'1e+' is not a number"),
        ("--1", "'--1' is not a number"),
        (" 1", "' 1' is not a number"),
        ("1 ", "'1 ' is not a number"),
        ("1.2.3", "'1.2.3' is not a number"),
        ("0x10", "'0x10' is not a number"),
        ("NaN", "'NaN' is not a number"),
        ("Infinity", "'Infinity' is not a number"),
        ("١", "'١' is not a number"),
        (
            "123456789012345678901234567890123456789",
            "'123456789012345678901234567890123456789' has 39 significant digits; DynamoDB keeps at most 38",
        ),
        ("1.23456789012345678901234567890123456789", "has 39 significant digits"),
        ("1e126", "'1e126' is too large for DynamoDB"),
        ("-1e126", "'-1e126' is too large for DynamoDB"),
        ("10E+125", "is too large"),
        ("1e999999999999999999999", "is too large"),
        ("1e-131", "'1e-131' is too small for DynamoDB"),
        ("0.9e-130", "is too small"),
        ("-0.1e-130", "is too small"),
    ];
    for (text, expected) in cases {
        let message = validate_number(text).expect_err(text).to_string();
        assert!(
            message.starts_with(expected) || message.contains(expected),
            "{text:?}: got {message:?}, want {expected:?}"
        );
        assert!(!message.contains('\n'), "one line: {message:?}");
    }
}

#[test]
fn compares_numerically() {
    use Ordering::*;
    let cases = [
        ("9", "10", Less),
        ("10", "9", Greater),
        ("-2", "-1.5", Less),
        ("-1.5", "-2", Greater),
        ("1e2", "100", Equal),
        ("100", "1E+2", Equal),
        ("0", "-0.0", Equal),
        ("+0", ".0e5", Equal),
        ("0", "1e-130", Less),
        ("0", "-1e-130", Greater),
        ("-1", "1", Less),
        ("1.5", "1.50", Equal),
        ("0.5", ".5", Equal),
        ("5.", "5", Equal),
        ("12", "123", Less),
        ("-12", "-123", Greater),
        ("0.001", "0.01", Less),
        ("99999999999999999999999999999999999999", "1e38", Less),
        (
            "123456789012345678901234567890123456.7",
            "123456789012345678901234567890123456.8",
            Less,
        ),
        ("1e125", "9.9e124", Greater),
        ("-1e125", "-9.9e124", Less),
    ];
    for (a, b, expected) in cases {
        assert_eq!(compare_numbers(a, b), expected, "{a} vs {b}");
    }
}

#[test]
fn comparing_non_numbers_falls_back_to_text() {
    assert_eq!(compare_numbers("abc", "1"), Ordering::Greater);
    assert_eq!(compare_numbers("x", "x"), Ordering::Equal);
}

#[test]
fn json_spelling_keeps_every_digit() {
    let cases = [
        (".5", "0.5"),
        ("+5", "5"),
        ("5.", "5"),
        ("-.5e3", "-0.5e3"),
        ("+.5E-3", "0.5E-3"),
        ("007", "7"),
        ("-00.50", "-0.50"),
        ("000", "0"),
        ("+0", "0"),
        ("5.e2", "5e2"),
        (
            "123456789012345678901234567890123456.78",
            "123456789012345678901234567890123456.78",
        ),
    ];
    for (text, expected) in cases {
        let json = to_json_number(text);
        assert_eq!(json, expected, "{text:?}");
        assert!(
            serde_json::from_str::<serde_json::Number>(&json).is_ok(),
            "{json:?} is not JSON"
        );
        assert_eq!(compare_numbers(text, &json), Ordering::Equal, "{text:?}");
    }
}

#[test]
fn json_spelling_borrows_when_already_valid() {
    for text in [
        "0",
        "-0",
        "1.5",
        "6.02E+23",
        "1e-130",
        "-12",
        "not a number",
    ] {
        assert!(
            matches!(to_json_number(text), Cow::Borrowed(t) if t == text),
            "{text:?} should be borrowed unchanged"
        );
    }
}
