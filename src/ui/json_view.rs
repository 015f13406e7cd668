//! An item as pretty, colourised JSON lines for the detail pane, in plain JSON or DynamoDB JSON.
//! Every string passes through the sanitiser; very long strings are cut with their length shown.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use ratatui::text::{Line, Span};

use super::theme::json as style;
use crate::app::state::JsonMode;
use crate::model::number::{is_json_number, to_json_number};
use crate::model::sanitize::sanitize;
use crate::model::value::{AttrValue, Item};

/// Characters of one string shown before it is cut.
pub const MAX_STRING_CHARS: usize = 2_000;

pub fn item_lines(item: &Item, mode: JsonMode) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut w = Writer {
        out: &mut out,
        mode,
    };
    w.map(item, 0, Vec::new(), false);
    out
}

struct Writer<'a> {
    out: &'a mut Vec<Line<'static>>,
    mode: JsonMode,
}

fn indent(depth: usize) -> Span<'static> {
    Span::raw("  ".repeat(depth))
}

fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count > MAX_STRING_CHARS {
        let cut: String = text.chars().take(MAX_STRING_CHARS).collect();
        format!("\"{}…\" ({} chars)", sanitize(&cut), count)
    } else {
        format!("\"{}\"", sanitize(text))
    }
}

impl Writer<'_> {
    /// Writes `{ … }` for a map; `prefix` holds spans already on the opening line (a key).
    fn map(&mut self, item: &Item, depth: usize, mut prefix: Vec<Span<'static>>, comma: bool) {
        if item.is_empty() {
            prefix.push(Span::raw(if comma { "{}," } else { "{}" }));
            self.out.push(Line::from(prefix));
            return;
        }
        prefix.push(Span::raw("{"));
        self.out.push(Line::from(prefix));
        let last = item.len() - 1;
        for (i, (name, value)) in item.iter().enumerate() {
            let key = vec![
                indent(depth + 1),
                Span::styled(quoted(name), style::key()),
                Span::raw(": "),
            ];
            self.value(value, depth + 1, key, i < last);
        }
        self.out.push(Line::from(vec![
            indent(depth),
            Span::raw(if comma { "}," } else { "}" }),
        ]));
    }

    fn list<T>(
        &mut self,
        values: &[T],
        depth: usize,
        mut prefix: Vec<Span<'static>>,
        comma: bool,
        mut each: impl FnMut(&mut Self, &T, usize, Vec<Span<'static>>, bool),
    ) {
        if values.is_empty() {
            prefix.push(Span::raw(if comma { "[]," } else { "[]" }));
            self.out.push(Line::from(prefix));
            return;
        }
        prefix.push(Span::raw("["));
        self.out.push(Line::from(prefix));
        for (i, v) in values.iter().enumerate() {
            each(
                self,
                v,
                depth + 1,
                vec![indent(depth + 1)],
                i + 1 < values.len(),
            );
        }
        self.out.push(Line::from(vec![
            indent(depth),
            Span::raw(if comma { "]," } else { "]" }),
        ]));
    }

    fn scalar(&mut self, mut prefix: Vec<Span<'static>>, span: Span<'static>, comma: bool) {
        prefix.push(span);
        if comma {
            prefix.push(Span::raw(","));
        }
        self.out.push(Line::from(prefix));
    }

    fn value(&mut self, value: &AttrValue, depth: usize, prefix: Vec<Span<'static>>, comma: bool) {
        match self.mode {
            JsonMode::Plain => self.plain(value, depth, prefix, comma),
            JsonMode::Dynamo => self.dynamo(value, depth, prefix, comma),
        }
    }

    fn plain(&mut self, value: &AttrValue, depth: usize, prefix: Vec<Span<'static>>, comma: bool) {
        let string = |s: &str| Span::styled(quoted(s), style::string());
        // Text that is no number (only a misbehaving server sends one) is shown as a string,
        // through the sanitiser, as `jsonl` writes it.
        let number = |n: &str| match to_json_number(n) {
            json if is_json_number(&json) => Span::styled(json.into_owned(), style::number()),
            _ => Span::styled(quoted(n), style::string()),
        };
        match value {
            AttrValue::S(s) => self.scalar(prefix, string(s), comma),
            AttrValue::N(n) => self.scalar(prefix, number(n), comma),
            AttrValue::B(b) => self.scalar(prefix, string(&BASE64.encode(b)), comma),
            AttrValue::Bool(b) => {
                self.scalar(prefix, Span::styled(b.to_string(), style::literal()), comma)
            }
            AttrValue::Null => self.scalar(prefix, Span::styled("null", style::literal()), comma),
            AttrValue::Ss(v) => self.list(v, depth, prefix, comma, |w, s, _, p, c| {
                w.scalar(p, string(s), c)
            }),
            AttrValue::Ns(v) => self.list(v, depth, prefix, comma, |w, n, _, p, c| {
                w.scalar(p, number(n), c)
            }),
            AttrValue::Bs(v) => self.list(v, depth, prefix, comma, |w, b, _, p, c| {
                w.scalar(p, string(&BASE64.encode(b)), c)
            }),
            AttrValue::L(v) => {
                self.list(v, depth, prefix, comma, |w, x, d, p, c| w.plain(x, d, p, c))
            }
            AttrValue::M(m) => self.map(m, depth, prefix, comma),
        }
    }

    /// DynamoDB JSON: `{"S": "…"}` on one line for scalars, nested blocks for containers.
    fn dynamo(
        &mut self,
        value: &AttrValue,
        depth: usize,
        mut prefix: Vec<Span<'static>>,
        comma: bool,
    ) {
        let tag = value.type_name();
        let open = |prefix: &mut Vec<Span<'static>>| {
            prefix.push(Span::raw("{"));
            prefix.push(Span::styled(format!("\"{tag}\""), style::type_tag()));
            prefix.push(Span::raw(": "));
        };
        let scalar: Option<Span<'static>> = match value {
            AttrValue::S(s) => Some(Span::styled(quoted(s), style::string())),
            AttrValue::N(n) => Some(Span::styled(
                format!("\"{}\"", sanitize(n)),
                style::number(),
            )),
            AttrValue::B(b) => Some(Span::styled(
                format!("\"{}\"", BASE64.encode(b)),
                style::string(),
            )),
            AttrValue::Bool(b) => Some(Span::styled(b.to_string(), style::literal())),
            AttrValue::Null => Some(Span::styled("true", style::literal())),
            _ => None,
        };
        if let Some(span) = scalar {
            open(&mut prefix);
            prefix.push(span);
            prefix.push(Span::raw(if comma { "}," } else { "}" }));
            self.out.push(Line::from(prefix));
            return;
        }
        open(&mut prefix);
        match value {
            AttrValue::Ss(v) | AttrValue::Ns(v) => {
                let number = matches!(value, AttrValue::Ns(_));
                self.list(v, depth, prefix, false, |w, s, _, p, c| {
                    let span = if number {
                        Span::styled(format!("\"{}\"", sanitize(s)), style::number())
                    } else {
                        Span::styled(quoted(s), style::string())
                    };
                    w.scalar(p, span, c)
                })
            }
            AttrValue::Bs(v) => self.list(v, depth, prefix, false, |w, b, _, p, c| {
                w.scalar(
                    p,
                    Span::styled(format!("\"{}\"", BASE64.encode(b)), style::string()),
                    c,
                )
            }),
            AttrValue::L(v) => self.list(v, depth, prefix, false, |w, x, d, p, c| {
                w.dynamo(x, d, p, c)
            }),
            AttrValue::M(m) => self.map(m, depth, prefix, false),
            _ => unreachable!("scalars handled above"),
        }
        // Close the `{"L": …` wrapper on the container's closing line.
        if let Some(last) = self.out.last_mut() {
            last.spans.push(Span::raw(if comma { "}," } else { "}" }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let v: serde_json::Value = serde_json::from_str(&out.replace("\\x1b", "ESC")).unwrap();
        assert_eq!(v["n"].to_string(), "12345678901234567890123456789012345678");
        assert!(out.contains("\"b\\x1b[2J\""), "{out}");
        assert!(!out.contains('\u{1b}'));
    }

    #[test]
    fn dynamo_json_is_valid_and_typed() {
        let out = text(&item_lines(&sample(), JsonMode::Dynamo));
        let v: serde_json::Value = serde_json::from_str(&out.replace("\\x1b", "ESC")).unwrap();
        assert_eq!(v["PK"]["S"], "USER#1");
        assert_eq!(v["n"]["N"], "12345678901234567890123456789012345678");
        assert_eq!(v["tags"]["SS"][0], "a");
        assert_eq!(v["m"]["M"]["x"]["NULL"], true);
        assert_eq!(v["l"]["L"], serde_json::json!([]));
    }

    /// Scrolling in `update` stops at the model's count of these lines.
    #[test]
    fn line_count_matches_the_model() {
        let mut attrs = vec![
            ("empty_map".to_string(), AttrValue::M(Item::default())),
            ("empty_set".to_string(), AttrValue::Ns(vec![])),
            ("bs".to_string(), AttrValue::Bs(vec![vec![1], vec![2]])),
            (
                "nested".to_string(),
                AttrValue::L(vec![
                    AttrValue::M(Item::from_attrs(vec![(
                        "l".into(),
                        AttrValue::L(vec![AttrValue::Null, AttrValue::Bool(true)]),
                    )])),
                    AttrValue::L(vec![]),
                    AttrValue::N("1".into()),
                ]),
            ),
        ];
        attrs.extend(sample().iter().map(|(k, v)| (k.to_string(), v.clone())));
        for item in [sample(), Item::default(), Item::from_attrs(attrs)] {
            for mode in [JsonMode::Plain, JsonMode::Dynamo] {
                assert_eq!(
                    item_lines(&item, mode).len(),
                    crate::model::json::pretty_line_count(&item),
                    "{mode:?}: {}",
                    text(&item_lines(&item, mode))
                );
            }
        }
    }

    #[test]
    fn a_number_that_is_not_one_is_sanitised() {
        let item = Item::from_attrs(vec![
            ("n".into(), AttrValue::N("1\u{1b}[2J\u{202e}".into())),
            ("ns".into(), AttrValue::Ns(vec!["\u{9b}31m".into()])),
        ]);
        for mode in [JsonMode::Plain, JsonMode::Dynamo] {
            let out = text(&item_lines(&item, mode));
            assert!(out.contains("1\\x1b[2J\\u{202e}"), "{out}");
            assert!(out.contains("\\u{9b}31m"), "{out}");
            assert!(!out.contains('\u{1b}') && !out.contains('\u{9b}'), "{out}");
        }
    }

    #[test]
    fn long_strings_are_cut_with_their_length() {
        let item = Item::from_attrs(vec![("big".into(), AttrValue::S("x".repeat(350_000)))]);
        let out = text(&item_lines(&item, JsonMode::Plain));
        assert!(out.len() < 3_000);
        assert!(out.contains("(350000 chars)"), "{}", &out[out.len() - 40..]);
    }
}
