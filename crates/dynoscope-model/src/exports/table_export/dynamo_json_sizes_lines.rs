//! Lines to test the size-and-key pass with: DynamoDB JSON spelled every way JSON allows,
//! and some ways an export line must not be.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use proptest::prelude::*;

use crate::item::value::{AttrValue, Item};

pub(super) fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("TENANT#12#USER#7".to_string()),
        Just("cls\x1b[2Jcls".to_string()),
        Just("cr\rnul\0del\x7ftab\tbell\x07c1\u{9b}2Jend".to_string()),
        Just("invoice\u{202e}fdp.exe \u{200b}\u{feff}".to_string()),
        Just("漢字テキスト🦀中文".to_string()),
        Just("'''\"\\'\\/".to_string()),
        Just(String::new()),
        ".{0,12}",
    ]
}

/// Numbers DynamoDB holds (38 digits, exponents at the edges) and ones it does not.
pub(super) fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[1-9][0-9]{0,37}",
        "-?[0-9]{1,20}\\.[0-9]{1,20}",
        "[-+]?[0-9]{0,40}(\\.[0-9]{0,40})?([eE][-+]?[0-9]{1,3})?",
        Just("99999999999999999999999999999999999999".to_string()),
        Just("999999999999999999999999999999999999999".to_string()),
        Just("9.9999999999999999999999999999999999999E+125".to_string()),
        Just("1E+126".to_string()),
        Just("1E-130".to_string()),
        Just("1E-131".to_string()),
        Just("-0.000".to_string()),
        Just("00012.3400".to_string()),
        Just("abc".to_string()),
        Just("".to_string()),
    ]
}

pub(super) fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop_oneof![Just("PK"), Just("SK"), Just("GSI1PK"), Just("x"), Just("data")]
            .prop_map(str::to_string),
        1 => hostile_string(),
    ]
}

pub(super) fn scalar() -> impl Strategy<Value = AttrValue> {
    prop_oneof![
        hostile_string().prop_map(AttrValue::S),
        number().prop_map(AttrValue::N),
        proptest::collection::vec(any::<u8>(), 0..12).prop_map(AttrValue::B),
        Just(AttrValue::Null),
        any::<bool>().prop_map(AttrValue::Bool),
        proptest::collection::vec(hostile_string(), 0..4).prop_map(AttrValue::Ss),
        proptest::collection::vec(number(), 0..4).prop_map(AttrValue::Ns),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..6), 0..4)
            .prop_map(AttrValue::Bs),
    ]
}

pub(super) fn value() -> impl Strategy<Value = AttrValue> {
    scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttrValue::L),
            proptest::collection::vec((name(), inner), 0..4)
                .prop_map(|attrs| AttrValue::M(Item::from_attrs(attrs))),
        ]
    })
}

/// An item's attributes in the order written, repeats allowed (the writer below keeps them).
pub(super) fn attrs() -> impl Strategy<Value = Vec<(String, AttrValue)>> {
    proptest::collection::vec((name(), value()), 0..7)
}

/// Spells DynamoDB JSON with the freedoms JSON allows — whitespace, `\u` escapes (surrogate
/// pairs too) and short ones, either case of hex — each choice taken from `noise`; with
/// `defects`, also spellings the pass leaves to the full reader or that are no export line:
/// escaped names and types, base64 without padding, a NULL that is not `true`, a second type
/// descriptor, an unknown one, a repeated name, an extra field.
struct Speller<'n> {
    noise: &'n [u8],
    at: usize,
    defects: bool,
    out: String,
    /// Escapes written so far.
    escapes: usize,
    /// Top-level attributes whose name or value was written with an escape.
    escaped: Vec<String>,
}

impl Speller<'_> {
    /// A choice of `n`; without noise the last, which is always the plain spelling.
    fn pick(&mut self, n: u8) -> u8 {
        let Some(&v) = self.noise.get(self.at % self.noise.len().max(1)) else {
            return n - 1;
        };
        self.at += 1;
        v % n
    }

    /// A defect, one time in `n`, when defects are asked for.
    fn defect(&mut self, n: u8) -> bool {
        self.defects && self.pick(n) == 0
    }

    fn ws(&mut self) {
        if self.pick(10) == 0 {
            let w = [" ", "\n", "\t", "\r", "  "][self.pick(5) as usize];
            self.out.push_str(w);
        }
    }

    /// A string; a name or type descriptor (`free` false) is escaped only where JSON must, or
    /// as a defect.
    fn string(&mut self, s: &str, free: bool) {
        self.out.push('"');
        for c in s.chars() {
            let short = match c {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '/' => Some("\\/"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                '\u{8}' => Some("\\b"),
                '\u{c}' => Some("\\f"),
                _ => None,
            };
            let must = c < ' ' || c == '"' || c == '\\';
            let choice = if free || self.defect(8) {
                self.pick(8)
            } else {
                7
            };
            match choice {
                0 => self.unicode(c),
                1 if short.is_some() => {
                    self.escapes += 1;
                    self.out.push_str(short.unwrap())
                }
                _ if must => match short {
                    Some(e) => {
                        self.escapes += 1;
                        self.out.push_str(e)
                    }
                    None => self.unicode(c),
                },
                _ => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn unicode(&mut self, c: char) {
        self.escapes += 1;
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            // Upper- and lower-case hex digits are both JSON.
            let hex = if self.pick(2) == 0 {
                format!("\\u{:04X}", unit)
            } else {
                format!("\\u{:04x}", unit)
            };
            self.out.push_str(&hex);
        }
    }

    fn member(&mut self, name: &str, value: &AttrValue) {
        self.string(name, false);
        self.ws();
        self.out.push(':');
        self.ws();
        self.value(value);
    }

    fn binary(&mut self, b: &[u8]) {
        let mut text = BASE64.encode(b);
        if self.defect(4) {
            text = text.trim_end_matches('=').to_string();
        }
        self.string(&text, false);
    }

    fn list<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Self, &T)) {
        self.out.push('[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.ws();
            each(self, item);
            self.ws();
        }
        self.out.push(']');
    }

    fn map(&mut self, attrs: &[(String, AttrValue)], top: bool) {
        self.out.push('{');
        self.ws();
        for (i, (name, value)) in attrs.iter().enumerate() {
            if i > 0 {
                self.out.push(',');
                self.ws();
            }
            let before = self.escapes;
            self.member(name, value);
            if top && self.escapes > before {
                self.escaped.push(name.clone());
            }
        }
        self.ws();
        self.out.push('}');
    }

    fn value(&mut self, value: &AttrValue) {
        let tag = if self.defect(30) {
            "Q"
        } else {
            value.type_name()
        };
        self.out.push('{');
        self.ws();
        self.string(tag, false);
        self.ws();
        self.out.push(':');
        self.ws();
        match value {
            AttrValue::S(s) => self.string(s, true),
            AttrValue::N(n) => self.string(n, false),
            AttrValue::B(b) => self.binary(b),
            AttrValue::Ss(v) => self.list(v, |p, s| p.string(s, true)),
            AttrValue::Ns(v) => self.list(v, |p, n| p.string(n, false)),
            AttrValue::Bs(v) => self.list(v, |p, b| p.binary(b)),
            AttrValue::M(m) => {
                let mut attrs: Vec<(String, AttrValue)> =
                    m.iter().map(|(n, v)| (n.to_string(), v.clone())).collect();
                if !attrs.is_empty() && self.defect(8) {
                    attrs.push(attrs[0].clone());
                }
                self.map(&attrs, false)
            }
            AttrValue::L(l) => self.list(l, |p, v| p.value(v)),
            AttrValue::Null => {
                let spelling = if self.defect(4) {
                    ["false", "1", "{}"][self.pick(3) as usize]
                } else {
                    "true"
                };
                self.out.push_str(spelling)
            }
            AttrValue::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
        }
        if self.defect(30) {
            self.out.push_str(",\"S\":\"x\"");
        }
        self.ws();
        self.out.push('}');
    }
}

/// A full export's line for `attrs` (in their order, repeats kept), and the top-level
/// attributes written with an escape.
pub(super) fn spelled(
    attrs: &[(String, AttrValue)],
    noise: &[u8],
    defects: bool,
) -> (String, Vec<String>) {
    let mut p = Speller {
        noise,
        at: 0,
        defects,
        out: String::new(),
        escapes: 0,
        escaped: Vec::new(),
    };
    p.ws();
    p.out.push('{');
    if p.defect(20) {
        p.out.push_str("\"Other\":1,");
    }
    p.string("Item", false);
    p.out.push(':');
    p.map(attrs, true);
    p.out.push('}');
    p.ws();
    (p.out, p.escaped)
}

/// Whether a name in `attrs`, at any depth, has a character JSON must escape.
pub(super) fn escaped_name(attrs: &[(String, AttrValue)]) -> bool {
    fn inside(value: &AttrValue) -> bool {
        match value {
            AttrValue::M(m) => m.iter().any(|(n, v)| must_escape(n) || inside(v)),
            AttrValue::L(l) => l.iter().any(inside),
            _ => false,
        }
    }
    fn must_escape(name: &str) -> bool {
        name.chars().any(|c| c < ' ' || c == '"' || c == '\\')
    }
    attrs.iter().any(|(n, v)| must_escape(n) || inside(v))
}

/// Edits that keep a line JSON-like: cut a span, or put a JSON-significant text anywhere.
pub(super) fn mutated(line: &str, at: usize, len: usize, insert: &str) -> Option<String> {
    let bytes = line.as_bytes();
    let at = at % (bytes.len() + 1);
    let end = (at + len % 6).min(bytes.len());
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(insert.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    String::from_utf8(out).ok()
}
