use super::*;

const HEAD: &str = "SELECT * FROM \"app\" WHERE ";

fn at(rest: &str) -> String {
    format!("{HEAD}{rest}")
}

#[test]
fn a_sort_key_value_is_open_after_each_sort_key_condition() {
    for (rest, partial) in [
        ("PK = 'u' AND SK = 'ORD", "ORD"),
        ("PK = 'u' AND SK >= '", ""),
        ("PK = 'u' AND \"SK\" < 'a''b", "a'b"),
        ("PK = 'u' AND begins_with(SK, 'OR", "OR"),
        ("PK = 'u' AND BEGINS_WITH( \"SK\" ,'O", "O"),
        ("PK = 'u' AND SK BETWEEN 'A", "A"),
        ("PK = 'u' AND SK between 'A' and 'B", "B"),
    ] {
        let text = at(rest);
        let (head, typed) = open_sort_value(&text, "SK").unwrap_or_else(|| panic!("{rest}"));
        assert_eq!(typed, partial, "{rest}");
        assert_eq!(
            format!("{head}'{}", partial.replace('\'', "''")),
            text,
            "{rest}"
        );
    }
    for rest in [
        "PK = 'u' AND XSK = 'a",
        "PK = 'u' AND SK <> 'a",
        "PK = 'u' AND SK != 'a",
        "PK = 'u' AND SK = 'a'",
        "PK = 'u' AND contains(SK, 'a",
        "PK = 'u' AND a BETWEEN 'A' AND 'B",
        "PK = 'a",
    ] {
        assert_eq!(open_sort_value(&at(rest), "SK"), None, "{rest}");
    }
    assert!(open_key_value(&at("PK = 'a"), "PK").is_some());
    assert_eq!(open_key_value(&at("m.PK = 'a"), "PK"), None);
}

#[test]
fn keywords_complete_where_the_grammar_expects_them() {
    for (text, want) in [
        ("sel", vec!["SELECT"]),
        ("SELECT * fr", vec!["SELECT * FROM"]),
        (
            "SELECT * FROM \"app\" wh",
            vec!["SELECT * FROM \"app\" WHERE"],
        ),
        (
            "SELECT * FROM \"app\" WHERE PK = 'a' a",
            vec![&at("PK = 'a' AND") as &str],
        ),
        (
            "SELECT * FROM \"app\" WHERE PK = 'a' o",
            vec![&at("PK = 'a' OR"), &at("PK = 'a' ORDER BY")],
        ),
        ("SELECT * FROM \"app\" WHERE SK b", vec![&at("SK BETWEEN")]),
        (
            "SELECT * FROM \"app\" WHERE SK BETWEEN 'a' a",
            vec![&at("SK BETWEEN 'a' AND")],
        ),
        (
            "SELECT * FROM \"app\" WHERE s i",
            vec![&at("s IN"), &at("s IS MISSING"), &at("s IS NOT MISSING")],
        ),
        (
            "SELECT * FROM \"app\" WHERE s IS n",
            vec![&at("s IS NOT MISSING")],
        ),
        (
            "SELECT * FROM \"app\" WHERE s IS NOT m",
            vec![&at("s IS NOT MISSING")],
        ),
        ("SELECT * FROM \"app\" WHERE (b", vec![&at("(begins_with")]),
        (
            "SELECT * FROM \"app\" WHERE PK = 'a' ORDER BY SK d",
            vec![&at("PK = 'a' ORDER BY SK DESC")],
        ),
        (
            "SELECT * FROM \"app\" WHERE PK = 'a' ORDER b",
            vec![&at("PK = 'a' ORDER BY")],
        ),
    ] {
        assert_eq!(keywords(text), want, "{text}");
    }
    // Not where a name or a value goes, inside a string or a quoted name, or once typed out.
    for text in [
        "SELECT a",
        "SELECT * FROM \"app\" WHERE PK = 'a",
        "SELECT * FROM \"app\" WHERE PK = ",
        "SELECT * FROM \"app\" WHERE \"st",
        "SELECT * FROM \"app\" WHERE PK = 'a' AND",
        "SELECT * FROM \"app\" WHERE PK = 'a' ",
    ] {
        assert_eq!(keywords(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn the_pinned_partition_key_is_the_first_equality_on_it() {
    assert_eq!(
        pinned_partition(&at("PK = 'u''1' AND SK > "), "PK").as_deref(),
        Some("u'1")
    );
    assert_eq!(
        pinned_partition(&at("'v' = \"PK\" AND "), "PK").as_deref(),
        Some("v")
    );
    assert_eq!(pinned_partition(&at("XPK = 'u' AND "), "PK"), None);
    assert_eq!(pinned_partition(&at("PK IN ['a'] AND "), "PK"), None);
}
