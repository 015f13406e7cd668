//! A change as one JSON object (one line of `tail` output), through the project's JSON writers:
//! keys and images in plain JSON (exact numbers) or DynamoDB JSON, every string escaped so no
//! control character reaches a terminal raw.
//!
//! `{"event":"MODIFY","keys":{…},"old_image":{…},"new_image":{…},"sequence_number":"…",
//! "time":"2026-11-30T19:18:00Z","size_bytes":18,"wcu":1,"wcu_estimated":false,
//! "ttl_delete":false,"view_type":"NEW_AND_OLD_IMAGES"}`; an image the record does not carry
//! is left out, and `time` is `null` when the record has none.

use std::fmt::Write as _;

use super::change::Change;
use crate::formats::json::{
    append_dynamo_json, append_json_string, append_plain_json, JsonSpelling,
};
use crate::input::calendar::civil_from_days;
use crate::item::value::Item;

fn write_item(out: &mut String, item: &Item, spelling: JsonSpelling) {
    match spelling {
        JsonSpelling::Plain => append_plain_json(out, item),
        JsonSpelling::Dynamo => append_dynamo_json(out, item),
    }
}

/// Appends `change` as one JSON object (no newline).
pub fn write_change(out: &mut String, change: &Change, spelling: JsonSpelling) {
    out.push_str("{\"event\":\"");
    out.push_str(change.event.as_str());
    out.push_str("\",\"keys\":");
    write_item(out, &change.keys, spelling);
    if let Some(old) = &change.old_image {
        out.push_str(",\"old_image\":");
        write_item(out, old, spelling);
    }
    if let Some(new) = &change.new_image {
        out.push_str(",\"new_image\":");
        write_item(out, new, spelling);
    }
    out.push_str(",\"sequence_number\":");
    append_json_string(out, &change.sequence_number);
    out.push_str(",\"time\":");
    match change.created_at_ms {
        Some(ms) => {
            out.push('"');
            push_rfc3339(out, ms);
            out.push('"');
        }
        None => out.push_str("null"),
    }
    let units = change.write_units();
    let _ = write!(
        out,
        ",\"size_bytes\":{},\"wcu\":{},\"wcu_estimated\":{},\"ttl_delete\":{}",
        change.size_bytes, units.units, units.estimated, change.ttl_delete
    );
    if let Some(view) = change.view {
        out.push_str(",\"view_type\":\"");
        out.push_str(view.as_str());
        out.push('"');
    }
    out.push('}');
}

/// Appends milliseconds since the epoch as RFC 3339 UTC: `2026-11-30T19:18:00Z`, with
/// `.123` when the milliseconds are not zero.
pub fn push_rfc3339(out: &mut String, ms: i64) {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    let rem = secs.rem_euclid(86_400);
    let _ = write!(
        out,
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if millis != 0 {
        let _ = write!(out, ".{millis:03}");
    }
    out.push('Z');
}

pub fn rfc3339(ms: i64) -> String {
    let mut s = String::new();
    push_rfc3339(&mut s, ms);
    s
}

#[cfg(test)]
mod tests {
    use super::super::change::fixtures::change;
    use super::super::change::{ChangeEvent, ViewType};
    use super::*;
    use crate::item::value::AttrValue;

    #[test]
    fn times_are_rfc3339_utc() {
        let cases = [
            (0, "1970-01-01T00:00:00Z"),
            (951_782_400_000, "2000-02-29T00:00:00Z"),
            (1_796_066_280_000, "2026-11-30T19:18:00Z"),
            (1_796_066_280_123, "2026-11-30T19:18:00.123Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (4_107_542_399_000, "2100-02-28T23:59:59Z"),
        ];
        for (ms, want) in cases {
            assert_eq!(rfc3339(ms), want, "{ms}");
        }
    }

    #[test]
    fn a_modify_in_both_spellings() {
        let mut c = change(
            ChangeEvent::Modify,
            "USER#1",
            Some(&[("status", "PENDING")]),
            Some(&[("status", "SHIPPED\u{1b}]52;")]),
        );
        c.new_image.as_mut().unwrap().insert(
            "n",
            AttrValue::N("12345678901234567890123456789012345678".into()),
        );
        c.created_at_ms = Some(1_796_066_280_000);
        let mut plain = String::new();
        write_change(&mut plain, &c, JsonSpelling::Plain);
        assert_eq!(
            plain,
            r#"{"event":"MODIFY","keys":{"PK":"USER#1","SK":"S"},"old_image":{"PK":"USER#1","SK":"S","status":"PENDING"},"new_image":{"PK":"USER#1","SK":"S","n":12345678901234567890123456789012345678,"status":"SHIPPED\u001b]52;"},"sequence_number":"1","time":"2026-11-30T19:18:00Z","size_bytes":10,"wcu":1,"wcu_estimated":false,"ttl_delete":false,"view_type":"NEW_AND_OLD_IMAGES"}"#
        );
        let parsed: serde_json::Value = serde_json::from_str(&plain).unwrap();
        assert_eq!(parsed["new_image"]["status"], "SHIPPED\u{1b}]52;");

        let mut dynamo = String::new();
        c.old_image = None;
        c.view = Some(ViewType::NewImage);
        c.created_at_ms = None;
        write_change(&mut dynamo, &c, JsonSpelling::Dynamo);
        assert!(
            dynamo.contains(r#""keys":{"PK":{"S":"USER#1"},"SK":{"S":"S"}}"#),
            "{dynamo}"
        );
        assert!(!dynamo.contains("old_image"), "{dynamo}");
        assert!(dynamo.contains(r#""time":null"#), "{dynamo}");
        assert!(dynamo.contains(r#""wcu_estimated":true"#), "{dynamo}");
        serde_json::from_str::<serde_json::Value>(&dynamo).unwrap();
    }
}
