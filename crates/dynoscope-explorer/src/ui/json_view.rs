//! An item as pretty, colourised JSON lines for the detail pane, in plain JSON or DynamoDB JSON:
//! the model's pretty lines (`model::formats::json::pretty`) with each token's colour.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::theme::json as style;
use crate::app::state::JsonMode;
use crate::model::formats::json::{pretty_lines, JsonSpelling, Token};
use crate::model::item::value::Item;

pub fn spelling(mode: JsonMode) -> JsonSpelling {
    match mode {
        JsonMode::Plain => JsonSpelling::Plain,
        JsonMode::Dynamo => JsonSpelling::Dynamo,
    }
}

pub fn token_style(token: Token) -> Style {
    match token {
        Token::Punct => Style::new(),
        Token::Key => style::key(),
        Token::Str => style::string(),
        Token::Number => style::number(),
        Token::Literal => style::literal(),
        Token::TypeTag => style::type_tag(),
    }
}

pub fn item_lines(item: &Item, mode: JsonMode) -> Vec<Line<'static>> {
    pretty_lines(item, spelling(mode))
        .into_iter()
        .map(|line| {
            Line::from(
                line.into_iter()
                    .map(|(token, text)| Span::styled(text, token_style(token)))
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::item::value::AttrValue;

    fn text(lines: &[Line]) -> String {
        lines
            .iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn sample() -> Item {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#1".into())),
            (
                "n".into(),
                AttrValue::N("12345678901234567890123456789012345678".into()),
            ),
            (
                "tags".into(),
                AttrValue::Ss(vec!["a".into(), "b\u{1b}[2J".into()]),
            ),
            (
                "m".into(),
                AttrValue::M(Item::from_attrs(vec![("x".into(), AttrValue::Null)])),
            ),
            ("l".into(), AttrValue::L(vec![])),
        ])
    }

    #[test]
    fn plain_json_is_valid_json_with_exact_numbers() {
        let out = text(&item_lines(&sample(), JsonMode::Plain));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["n"].to_string(), "12345678901234567890123456789012345678");
        assert!(out.contains("\"b\\u001b[2J\""), "{out}");
        assert!(!out.contains('\u{1b}'));
    }

    #[test]
    fn dynamo_json_is_valid_and_typed() {
        let out = text(&item_lines(&sample(), JsonMode::Dynamo));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["PK"]["S"], "USER#1");
        assert_eq!(v["n"]["N"], "12345678901234567890123456789012345678");
        assert_eq!(v["tags"]["SS"][0], "a");
        assert_eq!(v["m"]["M"]["x"]["NULL"], true);
        assert_eq!(v["l"]["L"], serde_json::json!([]));
    }

    #[test]
    fn a_number_that_is_not_one_is_sanitised() {
        let item = Item::from_attrs(vec![
            ("n".into(), AttrValue::N("1\u{1b}[2J\u{202e}".into())),
            ("ns".into(), AttrValue::Ns(vec!["\u{9b}31m".into()])),
        ]);
        for mode in [JsonMode::Plain, JsonMode::Dynamo] {
            let out = text(&item_lines(&item, mode));
            assert!(out.contains("1\\u001b[2J\\u202e"), "{out}");
            assert!(out.contains("\\u009b31m"), "{out}");
            assert!(!out.contains('\u{1b}') && !out.contains('\u{9b}'), "{out}");
        }
    }

    /// Issue 20: `"SK": ""count""` was no JSON. What the detail shows parses back, in both
    /// spellings, to the exact strings, while nothing raw reaches the terminal.
    #[test]
    fn a_hostile_item_is_shown_as_json_that_parses_back() {
        let hostile = [
            "\"count\"",
            "C:\\temp\\",
            "a\\\"b",
            "tab\tnl\ncr\rnul\0",
            "esc\u{1b}]0;pwned\u{7}",
            "rlo\u{202e}gpj.exe",
            "c1\u{9b}31m\u{7f}",
        ];
        let item = Item::from_attrs(vec![
            ("SK".into(), AttrValue::S(hostile[0].into())),
            ("\"quoted\" \\name".into(), AttrValue::S(hostile[1].into())),
            (
                "ss".into(),
                AttrValue::Ss(hostile.iter().map(|h| h.to_string()).collect()),
            ),
            (
                "m".into(),
                AttrValue::M(Item::from_attrs(vec![(
                    hostile[3].into(),
                    AttrValue::L(vec![AttrValue::S(hostile[2].into())]),
                )])),
            ),
        ]);
        for mode in [JsonMode::Plain, JsonMode::Dynamo] {
            let out = text(&item_lines(&item, mode));
            assert!(out.contains(r#""SK": "#), "{out}");
            for c in [
                '\u{1b}', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}', '\r', '\0', '\t',
            ] {
                assert!(!out.contains(c), "{c:?} shown raw in {mode:?}:\n{out}");
            }
            let v: serde_json::Value = serde_json::from_str(&out)
                .unwrap_or_else(|e| panic!("{mode:?} detail is not JSON ({e}):\n{out}"));
            let s = |v: &serde_json::Value| -> String {
                match mode {
                    JsonMode::Plain => v.as_str().unwrap().to_string(),
                    JsonMode::Dynamo => v["S"].as_str().unwrap().to_string(),
                }
            };
            assert_eq!(s(&v["SK"]), hostile[0]);
            assert_eq!(s(&v["\"quoted\" \\name"]), hostile[1]);
            let ss = match mode {
                JsonMode::Plain => v["ss"].clone(),
                JsonMode::Dynamo => v["ss"]["SS"].clone(),
            };
            let ss: Vec<String> = serde_json::from_value(ss).unwrap();
            assert_eq!(ss, hostile);
            let inner = match mode {
                JsonMode::Plain => v["m"][hostile[3]][0].clone(),
                JsonMode::Dynamo => v["m"]["M"][hostile[3]]["L"][0].clone(),
            };
            assert_eq!(s(&inner), hostile[2]);
        }
        let plain = text(&item_lines(&item, JsonMode::Plain));
        assert!(plain.contains(r#""SK": "\"count\"""#), "{plain}");
        assert!(plain.contains(r#""esc\u001b]0;pwned\u0007""#), "{plain}");
    }

    #[test]
    fn long_strings_are_cut_with_their_length() {
        let item = Item::from_attrs(vec![("big".into(), AttrValue::S("x".repeat(350_000)))]);
        let out = text(&item_lines(&item, JsonMode::Plain));
        assert!(out.len() < 3_000);
        assert!(out.contains("(350000 chars)"), "{}", &out[out.len() - 40..]);
    }
}
