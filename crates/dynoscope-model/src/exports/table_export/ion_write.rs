//! Items written in the `ION` format as DynamoDB writes it (the test suite's exports, and the
//! round-trip tests of the reader): `$ion_1_0 {Item:{…}}`, numbers as decimals (`103.`,
//! `6d2`, `1.5`), blobs `{{…}}`, sets as annotated lists.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::Change;
use crate::item::number::parse as parse_number;
use crate::item::value::{AttrValue, Item};

/// Appends a full export's line for `item` (no newline).
pub fn write_ion_line(out: &mut String, item: &Item) {
    out.push_str("$ion_1_0 {Item:");
    write_struct(out, item);
    out.push('}');
}

/// Appends an incremental export's line for `change` (no newline).
pub fn write_ion_change(out: &mut String, change: &Change) {
    out.push_str("$ion_1_0 {Metadata:{WriteTimestampMicros:");
    out.push_str(&change.write_micros.to_string());
    out.push_str("},Keys:");
    write_struct(out, &change.keys);
    if let Some(new) = &change.new_image {
        out.push_str(",NewImage:");
        write_struct(out, new);
    }
    if let Some(old) = &change.old_image {
        out.push_str(",OldImage:");
        write_struct(out, old);
    }
    out.push('}');
}

fn write_struct(out: &mut String, item: &Item) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_field_name(out, name);
        out.push(':');
        write_value(out, value);
    }
    out.push('}');
}

/// Bare when Ion allows it (DynamoDB writes `Item:`), else a quoted symbol.
fn write_field_name(out: &mut String, name: &str) {
    let bare = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !matches!(name, "null" | "true" | "false" | "nan");
    if bare {
        out.push_str(name);
    } else {
        write_quoted(out, name, '\'');
    }
}

fn write_quoted(out: &mut String, text: &str, quote: char) {
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

fn write_blob(out: &mut String, bytes: &[u8]) {
    out.push_str("{{");
    out.push_str(&BASE64.encode(bytes));
    out.push_str("}}");
}

fn write_list<T>(out: &mut String, values: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, v);
    }
    out.push(']');
}

fn write_value(out: &mut String, value: &AttrValue) {
    match value {
        AttrValue::S(s) => write_quoted(out, s, '"'),
        AttrValue::N(n) => out.push_str(&ion_number(n)),
        AttrValue::B(b) => write_blob(out, b),
        AttrValue::Ss(v) => {
            out.push_str("$dynamodb_SS::");
            write_list(out, v, |out, s| write_quoted(out, s, '"'));
        }
        AttrValue::Ns(v) => {
            out.push_str("$dynamodb_NS::");
            write_list(out, v, |out, n| out.push_str(&ion_number(n)));
        }
        AttrValue::Bs(v) => {
            out.push_str("$dynamodb_BS::");
            write_list(out, v, |out, b| write_blob(out, b));
        }
        AttrValue::M(m) => write_struct(out, m),
        AttrValue::L(v) => write_list(out, v, write_value),
        AttrValue::Null => out.push_str("null"),
        AttrValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
}

/// DynamoDB number text as an Ion decimal: integers `103.` or `6d2`, fractions `1.5`, and an
/// exponent where the plain form would be long (`1d-120`). Text that is not a number is
/// written as it is (it cannot come from DynamoDB).
pub fn ion_number(n: &str) -> String {
    let Some(d) = parse_number(n) else {
        return n.to_string();
    };
    if d.digits.is_empty() {
        return "0.".to_string();
    }
    let digits = std::str::from_utf8(&d.digits).expect("ASCII digits");
    let sign = if d.negative { "-" } else { "" };
    let len = digits.len() as i64;
    let point = d.exponent;
    if point == len {
        format!("{sign}{digits}.")
    } else if point > len {
        format!("{sign}{digits}d{}", point - len)
    } else if point > 0 {
        format!(
            "{sign}{}.{}",
            &digits[..point as usize],
            &digits[point as usize..]
        )
    } else if point > -6 {
        format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        format!("{sign}{digits}d{}", point - len)
    }
}
