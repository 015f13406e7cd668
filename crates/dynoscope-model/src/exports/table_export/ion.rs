//! The `ION` format: each line is `$ion_1_0 ` and one Ion text struct, `{Item:{…}}` (or an
//! incremental export's `{Metadata:{…},Keys:{…},NewImage:{…},OldImage:{…}}`). Only what
//! DynamoDB writes is read: strings, bools, `null`, decimals (`103.`, `6d2`, `1.5`) and ints
//! for numbers, blobs `{{base64}}`, lists, structs, and lists annotated `$dynamodb_SS`,
//! `$dynamodb_NS` or `$dynamodb_BS` for sets. Anything else is refused by name rather than
//! guessed at.

use super::{line_excerpt, Change, ExportType, Record, TableExportError};
use crate::item::number::Decimal;
use crate::item::value::{AttrValue, Item};

/// DynamoDB nests at most 32 levels; this bound only keeps a hostile line off the stack.
const MAX_DEPTH: usize = 64;

pub fn parse_ion_line(line: &str, export_type: ExportType) -> Result<Record, TableExportError> {
    let bad = |why: String| {
        TableExportError::Line(format!(
            "not an Ion export line ({why}): '{}'",
            line_excerpt(line)
        ))
    };
    let mut p = Parser {
        s: line.as_bytes(),
        at: 0,
        depth: 0,
    };
    p.ws();
    if p.s[p.at..].starts_with(b"$ion_1_0") {
        p.at += "$ion_1_0".len();
    }
    let top = p.value().map_err(&bad)?;
    p.ws();
    if p.at != p.s.len() {
        return Err(bad(format!("text after the record at byte {}", p.at + 1)));
    }
    let AttrValue::M(record) = top else {
        return Err(bad("the record is not a struct".into()));
    };
    let image = |name: &str| match record.get(name) {
        None | Some(AttrValue::Null) => Ok(None),
        Some(AttrValue::M(item)) => Ok(Some(item.clone())),
        Some(_) => Err(bad(format!("'{name}' is not a struct"))),
    };
    match export_type {
        ExportType::Full => image("Item")?
            .map(Record::Item)
            .ok_or_else(|| bad("it has no 'Item'".into())),
        ExportType::Incremental => {
            let micros = match record.get("Metadata") {
                Some(AttrValue::M(meta)) => match meta.get("WriteTimestampMicros") {
                    Some(AttrValue::N(n)) => n.parse::<u64>().ok(),
                    Some(AttrValue::M(typed)) => match typed.get("N") {
                        Some(AttrValue::S(n) | AttrValue::N(n)) => n.parse::<u64>().ok(),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            }
            .ok_or_else(|| bad("it has no Metadata.WriteTimestampMicros".into()))?;
            Ok(Record::Change(Change {
                write_micros: micros,
                keys: image("Keys")?.ok_or_else(|| bad("it has no 'Keys'".into()))?,
                new_image: image("NewImage")?,
                old_image: image("OldImage")?,
            }))
        }
    }
}

/// The plain decimal text DynamoDB returns for a number: no exponent, no leading or trailing
/// zeros ("6d2" → "600", "1.50" → "1.5", "-0." → "0").
pub(crate) fn plain_number(d: &Decimal) -> String {
    if d.digits.is_empty() {
        return "0".to_string();
    }
    let digits = std::str::from_utf8(&d.digits).expect("ASCII digits");
    let mut out = String::with_capacity(digits.len() + 4);
    if d.negative {
        out.push('-');
    }
    let point = d.exponent;
    let len = digits.len() as i64;
    if point >= len {
        out.push_str(digits);
        out.extend(std::iter::repeat_n('0', (point - len) as usize));
    } else if point > 0 {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-point) as usize));
        out.push_str(digits);
    }
    out
}

use super::ion_text::{is_ident, is_ident_start, Parser, Step};

impl Parser<'_> {
    pub(super) fn value(&mut self) -> Step<AttrValue> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        let mut annotations = Vec::new();
        let value = loop {
            self.ws();
            let start = self.at;
            match self.peek() {
                None => return Err("the line ends where a value should be".into()),
                Some(b) if is_ident_start(b) || (b == b'\'' && !self.rest_starts(b"'''")) => {
                    let symbol = self.symbol()?;
                    self.ws();
                    if self.rest_starts(b"::") {
                        self.at += 2;
                        annotations.push(symbol);
                        continue;
                    }
                    break self.keyword(&symbol, start)?;
                }
                Some(b'"') | Some(b'\'') => break AttrValue::S(self.string()?),
                Some(b'{') if self.rest_starts(b"{{") => break AttrValue::B(self.blob()?),
                Some(b'{') => break AttrValue::M(self.structure()?),
                Some(b'[') => break self.list(&annotations)?,
                Some(b) if b == b'-' || b == b'+' || b.is_ascii_digit() => {
                    break AttrValue::N(self.number()?)
                }
                Some(b) => {
                    return Err(format!(
                        "'{}' at byte {} does not start an Ion value",
                        b as char,
                        self.at + 1
                    ))
                }
            }
        };
        self.depth -= 1;
        match (annotations.first().map(String::as_str), &value) {
            (None, _) | (Some(_), AttrValue::Ss(_) | AttrValue::Ns(_) | AttrValue::Bs(_)) => {
                Ok(value)
            }
            (Some(other), _) => Err(format!(
                "annotation '{other}' on a value that is not a list of a set"
            )),
        }
    }

    /// `true`, `false`, `null` and typed nulls (`null.string`): the symbols a value may be.
    pub(super) fn keyword(&mut self, symbol: &str, start: usize) -> Step<AttrValue> {
        match symbol {
            "true" => Ok(AttrValue::Bool(true)),
            "false" => Ok(AttrValue::Bool(false)),
            "null" => {
                if self.peek() == Some(b'.') {
                    self.at += 1;
                    while self.peek().is_some_and(is_ident) {
                        self.at += 1;
                    }
                }
                Ok(AttrValue::Null)
            }
            other => Err(format!(
                "symbol '{other}' at byte {} is not a DynamoDB value",
                start + 1
            )),
        }
    }

    pub(super) fn structure(&mut self) -> Step<Item> {
        self.at += 1;
        let mut attrs = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                Some(b'}') => {
                    self.at += 1;
                    break;
                }
                Some(b'"') | Some(b'\'') => {
                    let name = if self.rest_starts(b"'''") {
                        self.string()?
                    } else {
                        self.quoted(self.peek().expect("peeked"))?
                    };
                    attrs.push((name, self.field_value()?));
                }
                Some(b) if is_ident_start(b) => {
                    let name = self.symbol()?;
                    attrs.push((name, self.field_value()?));
                }
                _ => return Err(format!("expected a field name at byte {}", self.at + 1)),
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {}
                _ => return Err(format!("expected ',' or '}}' at byte {}", self.at + 1)),
            }
        }
        Ok(Item::from_attrs(attrs))
    }

    pub(super) fn field_value(&mut self) -> Step<AttrValue> {
        self.expect(b':', "':' after a field name")?;
        self.value()
    }

    pub(super) fn list(&mut self, annotations: &[String]) -> Step<AttrValue> {
        self.at += 1;
        let mut values = Vec::new();
        loop {
            self.ws();
            if self.peek() == Some(b']') {
                self.at += 1;
                break;
            }
            values.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {}
                _ => return Err(format!("expected ',' or ']' at byte {}", self.at + 1)),
            }
        }
        let set = annotations
            .iter()
            .find(|a| a.starts_with("$dynamodb_"))
            .map(String::as_str);
        let wrong = |kind: &str| format!("a {kind} set holds a value of another type");
        if let Some(kind) = set.filter(|_| values.is_empty()) {
            return Err(format!(
                "'{kind}::[]' is an empty set, which DynamoDB cannot hold"
            ));
        }
        Ok(match set {
            None => AttrValue::L(values),
            Some("$dynamodb_SS") => AttrValue::Ss(
                values
                    .into_iter()
                    .map(|v| match v {
                        AttrValue::S(s) => Ok(s),
                        _ => Err(wrong("string")),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some("$dynamodb_NS") => AttrValue::Ns(
                values
                    .into_iter()
                    .map(|v| match v {
                        AttrValue::N(n) => Ok(n),
                        _ => Err(wrong("number")),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some("$dynamodb_BS") => AttrValue::Bs(
                values
                    .into_iter()
                    .map(|v| match v {
                        AttrValue::B(b) => Ok(b),
                        _ => Err(wrong("binary")),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Some(other) => return Err(format!("annotation '{other}' is not a DynamoDB set")),
        })
    }
}

#[cfg(test)]
#[path = "ion_exact_tests.rs"]
mod exact_tests;
