//! The DynamoDB Streams SDK's records as [`Change`]s. The Streams SDK has its own
//! `AttributeValue` (the same shape as DynamoDB's, another type); numbers stay exact text and
//! strings are moved, not copied.

use aws_sdk_dynamodbstreams::types::{OperationType, Record, StreamViewType};

use crate::model::stream::change::is_ttl_identity;
use crate::model::stream::{Change, ChangeEvent, ViewType};

// Records' images, and the reverse for tests and benchmarks that build records.
crate::aws::convert::attribute_conversions!(
    aws_sdk_dynamodbstreams,
    item_from_stream,
    value_from_stream,
    item_to_stream,
    value_to_stream
);

pub fn view_from_sdk(view: &StreamViewType) -> Option<ViewType> {
    ViewType::parse(view.as_str())
}

/// A record as a change; `None` when it lacks what every record has (an event name DynamoDB
/// documents, a sequence number). `fallback_view` is the stream's, for records that do not say.
pub fn change_from_sdk(record: Record, fallback_view: Option<ViewType>) -> Option<Change> {
    let event = match record.event_name? {
        OperationType::Insert => ChangeEvent::Insert,
        OperationType::Modify => ChangeEvent::Modify,
        OperationType::Remove => ChangeEvent::Remove,
        _ => return None,
    };
    let ttl_delete = record
        .user_identity
        .as_ref()
        .is_some_and(|id| is_ttl_identity(id.r#type.as_deref(), id.principal_id.as_deref()));
    let data = record.dynamodb?;
    Some(Change {
        event,
        sequence_number: data.sequence_number?,
        keys: item_from_stream(data.keys.unwrap_or_default()),
        old_image: data.old_image.map(item_from_stream),
        new_image: data.new_image.map(item_from_stream),
        created_at_ms: data
            .approximate_creation_date_time
            .and_then(|t| t.to_millis().ok()),
        size_bytes: data.size_bytes.unwrap_or(0).max(0) as u64,
        view: data
            .stream_view_type
            .as_ref()
            .and_then(view_from_sdk)
            .or(fallback_view),
        ttl_delete,
    })
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodbstreams::primitives::DateTime;
    use aws_sdk_dynamodbstreams::types::{Identity, StreamRecord};

    use super::*;
    use crate::model::item::value::{AttrValue, Item};

    fn record(event: OperationType, identity: Option<Identity>) -> Record {
        let keys = Item::from_attrs(vec![("PK".into(), AttrValue::S("USER#1".into()))]);
        let image = Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("USER#1".into())),
            (
                "n".into(),
                AttrValue::N("-1.000000000000000000000000000000000001".into()),
            ),
            ("b".into(), AttrValue::Bs(vec![vec![0, 255]])),
            (
                "m".into(),
                AttrValue::M(Item::from_attrs(vec![(
                    "l".into(),
                    AttrValue::L(vec![AttrValue::Null, AttrValue::Bool(true)]),
                )])),
            ),
        ]);
        Record::builder()
            .event_name(event)
            .dynamodb(
                StreamRecord::builder()
                    .set_keys(Some(item_to_stream(&keys)))
                    .set_old_image(Some(item_to_stream(&image)))
                    .sequence_number("000000000000000000042")
                    .size_bytes(77)
                    .approximate_creation_date_time(DateTime::from_secs(1_796_066_280))
                    .build(),
            )
            .set_user_identity(identity)
            .build()
    }

    #[test]
    fn a_record_keeps_every_type_and_its_metadata() {
        let c = change_from_sdk(
            record(OperationType::Remove, None),
            Some(ViewType::OldImage),
        )
        .unwrap();
        assert_eq!(c.event, ChangeEvent::Remove);
        assert_eq!(c.sequence_number, "000000000000000000042");
        assert_eq!(c.created_at_ms, Some(1_796_066_280_000));
        assert_eq!(c.size_bytes, 77);
        assert_eq!(
            c.view,
            Some(ViewType::OldImage),
            "the stream's, as the record has none"
        );
        assert!(c.new_image.is_none());
        let old = c.old_image.unwrap();
        assert_eq!(
            old.get("n"),
            Some(&AttrValue::N(
                "-1.000000000000000000000000000000000001".into()
            ))
        );
        assert_eq!(item_from_stream(item_to_stream(&old)), old);
        assert!(!c.ttl_delete);
    }

    #[test]
    fn the_ttl_service_identity_marks_a_ttl_delete() {
        let ttl = Identity::builder()
            .r#type("Service")
            .principal_id("dynamodb.amazonaws.com")
            .build();
        let c = change_from_sdk(record(OperationType::Remove, Some(ttl)), None).unwrap();
        assert!(c.ttl_delete);
        let user = Identity::builder().r#type("User").principal_id("x").build();
        assert!(
            !change_from_sdk(record(OperationType::Remove, Some(user)), None)
                .unwrap()
                .ttl_delete
        );
    }

    #[test]
    fn a_record_without_a_sequence_number_is_unreadable() {
        let r = Record::builder()
            .event_name(OperationType::Insert)
            .dynamodb(StreamRecord::builder().build())
            .build();
        assert!(change_from_sdk(r, None).is_none());
    }
}
