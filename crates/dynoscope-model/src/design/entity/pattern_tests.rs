use super::*;
use crate::design::entity::decode_key;

#[test]
fn parses_patterns() {
    let cases: &[(&str, &str, char, &[&str])] = &[
        ("ORDER#{date}#{orderId}", "ORDER", '#', &["date", "orderId"]),
        ("USER#{id}", "USER", '#', &["id"]),
        ("#META#{ id }", "META", '#', &["id"]),
        ("PROFILE", "PROFILE", '#', &[]),
        ("USER#{id}#PROFILE", "USER", '#', &["id"]),
        ("tenant|{t}", "tenant", '|', &["t"]),
    ];
    for (template, kind, sep, names) in cases {
        let pattern = EntityPattern::parse(template).unwrap();
        assert_eq!(pattern.kind(), *kind, "{template}");
        assert_eq!(pattern.separator(), *sep, "{template}");
        assert_eq!(pattern.part_names(), *names, "{template}");
    }
}

#[test]
fn rejects_bad_patterns() {
    let unbalanced = |t: &str| PatternError::UnbalancedBraces { template: t.into() };
    let missing = |t: &str| PatternError::MissingKind { template: t.into() };
    let cases: &[(&str, PatternError)] = &[
        ("ORDER#{date", unbalanced("ORDER#{date")),
        ("ORDER#date}", unbalanced("ORDER#date}")),
        ("ORDER#{{date}}", unbalanced("ORDER#{{date}}")),
        ("{tenant}#USER#{id}", missing("{tenant}#USER#{id}")),
        ("2026#{id}", missing("2026#{id}")),
        ("", missing("")),
        (
            "ORDER#{}",
            PatternError::EmptyPlaceholder {
                template: "ORDER#{}".into(),
            },
        ),
        (
            "ORDER#{id}#{id}",
            PatternError::DuplicatePlaceholder {
                template: "ORDER#{id}#{id}".into(),
                name: "id".into(),
            },
        ),
        (
            "ORDER#o{id}",
            PatternError::PartialPlaceholder {
                template: "ORDER#o{id}".into(),
                segment: "o{id}".into(),
            },
        ),
        (
            "ORDER#{a#b}",
            PatternError::PartialPlaceholder {
                template: "ORDER#{a#b}".into(),
                segment: "{a".into(),
            },
        ),
    ];
    for (template, want) in cases {
        assert_eq!(
            EntityPattern::parse(template).unwrap_err(),
            *want,
            "{template}"
        );
    }
    assert!(unbalanced("ORDER#{date")
        .to_string()
        .contains("\"ORDER#{date\""));
}

#[test]
fn matches_decoded_keys() {
    let cases: &[(&str, &str, char, bool)] = &[
        ("ORDER#{date}#{id}", "ORDER#2026-08-27#456", '#', true),
        ("ORDER#{date}#{id}", "ORDER#2026-08-27", '#', false),
        ("ORDER#{date}#{id}", "ORDER#2026-08-27#456#x", '#', false),
        ("ORDER#{date}#{id}", "ORDER##456", '#', false),
        ("ORDER#{date}#{id}", "USER#a#b", '#', false),
        ("USER#{id}#PROFILE", "USER#1#PROFILE", '#', true),
        ("USER#{id}#PROFILE", "USER#1#SETTINGS", '#', false),
        ("#META#{id}", "#META#x", '#', true),
        ("PROFILE", "PROFILE", '#', true),
        ("PROFILE", "PROFILE#1", '#', false),
        ("USER#{id}", "123", '#', false),
        ("tenant|{t}", "tenant|acme", '|', true),
    ];
    for (template, value, sep, want) in cases {
        let pattern = EntityPattern::parse(template).unwrap();
        let decoded = decode_key(value, *sep);
        assert_eq!(pattern.matches(&decoded), *want, "{template} vs {value}");
    }
}
