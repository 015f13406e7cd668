//! GetRecords' response body straight into [`Change`]s.
//!
//! The SDK would build a `HashMap<String, AttributeValue>` per key set and image, which
//! [`super::convert`] then turns into `Item`s: two passes and a hash map per image, and the
//! most expensive part of `tail` (measured in benches/tail.rs: the SDK alone decodes about
//! 180,000 demo records a second on one core). This reads the JSON once, building each
//! `Item` directly. It reads the same wire format the SDK does (DynamoDB JSON values, `B` as
//! base64, `ApproximateCreationDateTime` as epoch seconds); `sdk.rs` uses it for successful
//! responses and falls back to the SDK for anything it does not read, and a property test
//! checks that both give the same changes.

use serde::Deserialize;

use crate::model::formats::json::direct::DirectItem;
use crate::model::stream::change::is_ttl_identity;
use crate::model::stream::{Change, ChangeEvent, ViewType};

/// A GetRecords page as read from its body.
#[derive(Debug, Default)]
pub struct WirePage {
    pub changes: Vec<Change>,
    /// Records without an event name DynamoDB documents or a sequence number.
    pub unreadable: u64,
    pub next_iterator: Option<String>,
}

/// Reads a successful GetRecords body; `fallback_view` as in [`super::convert::change_from_sdk`].
pub fn parse_get_records(
    body: &[u8],
    fallback_view: Option<ViewType>,
) -> serde_json::Result<WirePage> {
    // UTF-8 checked once for the whole body: reading from bytes, serde_json checks each
    // string on its own (a tenth of the reading time, measured with callgrind).
    let text = std::str::from_utf8(body).map_err(|e| {
        <serde_json::Error as serde::de::Error>::custom(format!("the body is not UTF-8: {e}"))
    })?;
    let out: Body = serde_json::from_str(text)?;
    let mut page = WirePage {
        next_iterator: out.next_shard_iterator,
        ..WirePage::default()
    };
    for record in out.records.unwrap_or_default() {
        match record.into_change(fallback_view) {
            Some(c) => page.changes.push(c),
            None => page.unreadable += 1,
        }
    }
    Ok(page)
}

#[derive(Deserialize)]
struct Body {
    #[serde(rename = "NextShardIterator")]
    next_shard_iterator: Option<String>,
    #[serde(rename = "Records")]
    records: Option<Vec<Record>>,
}

#[derive(Deserialize)]
struct Record {
    #[serde(rename = "eventName")]
    event_name: Option<String>,
    dynamodb: Option<StreamRecord>,
    #[serde(rename = "userIdentity")]
    user_identity: Option<Identity>,
}

/// The API spells these capitalised (the Lambda event format does not).
#[derive(Deserialize)]
struct Identity {
    #[serde(rename = "Type")]
    kind: Option<String>,
    #[serde(rename = "PrincipalId")]
    principal_id: Option<String>,
}

#[derive(Deserialize)]
struct StreamRecord {
    #[serde(rename = "ApproximateCreationDateTime")]
    created: Option<f64>,
    #[serde(rename = "Keys")]
    keys: Option<WireItem>,
    #[serde(rename = "NewImage")]
    new_image: Option<WireItem>,
    #[serde(rename = "OldImage")]
    old_image: Option<WireItem>,
    #[serde(rename = "SequenceNumber")]
    sequence_number: Option<String>,
    #[serde(rename = "SizeBytes")]
    size_bytes: Option<i64>,
    #[serde(rename = "StreamViewType")]
    view_type: Option<String>,
}

impl Record {
    fn into_change(self, fallback_view: Option<ViewType>) -> Option<Change> {
        let event = match self.event_name.as_deref()? {
            "INSERT" => ChangeEvent::Insert,
            "MODIFY" => ChangeEvent::Modify,
            "REMOVE" => ChangeEvent::Remove,
            _ => return None,
        };
        let ttl_delete = self
            .user_identity
            .as_ref()
            .is_some_and(|id| is_ttl_identity(id.kind.as_deref(), id.principal_id.as_deref()));
        let data = self.dynamodb?;
        Some(Change {
            event,
            sequence_number: data.sequence_number?,
            keys: data.keys.map(|i| i.0).unwrap_or_default(),
            old_image: data.old_image.map(|i| i.0),
            new_image: data.new_image.map(|i| i.0),
            created_at_ms: data.created.filter(|s| s.is_finite()).map(epoch_millis),
            size_bytes: data.size_bytes.unwrap_or(0).max(0) as u64,
            view: data
                .view_type
                .as_deref()
                .and_then(ViewType::parse)
                .or(fallback_view),
            ttl_delete,
        })
    }
}

/// Epoch seconds as milliseconds exactly as the SDK reads them (`DateTime::from_secs_f64`,
/// then `to_millis`): whole seconds, then the fraction's nanoseconds truncated.
fn epoch_millis(seconds: f64) -> i64 {
    let mut whole = seconds.floor() as i64;
    let mut nanos = ((seconds - seconds.floor()) * 1_000_000_000_f64) as u32;
    if nanos == 1_000_000_000 {
        whole += 1;
        nanos = 0;
    }
    let millis = i64::from(nanos / 1_000_000);
    if whole < 0 {
        (whole + 1) * 1000 - (1000 - millis)
    } else {
        whole * 1000 + millis
    }
}

/// Items read as the SDK reads them: an unknown type is NULL, a value's members after its
/// first are skipped, numbers are taken as sent.
type WireItem = DirectItem<true>;

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
