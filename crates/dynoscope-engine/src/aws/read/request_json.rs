//! A read's request as [`super::SdkSource`] sends it, as JSON, without sending it: the body of
//! the Query, Scan or ExecuteStatement call (awsJson 1.0, DynamoDB JSON values), field for
//! field what `sdk.rs` sets on the SDK's builder. `explain` shows it; a test compares it with
//! the body a proxy sees for the same read.

use serde_json::{Map, Value};

use super::sdk::NEXT_TOKEN;
use super::Operation;
use crate::model::engine::keyed_projection::keyed_projection;
use crate::model::engine::ReadSpec;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::{AttrValue, Item};

fn dynamo(item: &Item) -> Value {
    let mut text = String::new();
    append_dynamo_json(&mut text, item);
    serde_json::from_str(&text).expect("append_dynamo_json writes JSON")
}

/// The request body of `segment` of `spec`, asking for `limit` items (the `Limit` the guards
/// admit may be lower), continuing after `start` (an ExecuteStatement's `NextToken`).
pub fn request_json(
    spec: &ReadSpec,
    segment: u32,
    limit: Option<i32>,
    start: Option<&Item>,
) -> Value {
    let mut r = Map::new();
    let mut put = |field: &str, value: Value| {
        r.insert(field.to_string(), value);
    };
    if spec.operation == Operation::Statement {
        let statement = spec.statement.as_ref();
        let text = statement.map(|s| s.text.as_str()).unwrap_or_default();
        put("Statement", text.into());
        let parameters = statement.map_or(&[][..], |s| s.parameters.as_slice());
        if !parameters.is_empty() {
            let item = Item::from_attrs(
                parameters
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v.clone()))
                    .collect(),
            );
            let values = dynamo(&item);
            let list = (0..parameters.len())
                .map(|i| values[i.to_string()].clone())
                .collect();
            put("Parameters", Value::Array(list));
        }
        put("ConsistentRead", spec.consistent.into());
        if let Some(l) = limit {
            put("Limit", l.into());
        }
        if let Some(AttrValue::S(token)) = start.and_then(|k| k.get(NEXT_TOKEN)) {
            put("NextToken", token.clone().into());
        }
        put("ReturnConsumedCapacity", "INDEXES".into());
        return Value::Object(r);
    }
    put("TableName", spec.table.clone().into());
    if let Some(i) = &spec.index {
        put("IndexName", i.clone().into());
    }
    if spec.operation == Operation::Query {
        if let Some(k) = &spec.key_condition {
            put("KeyConditionExpression", k.clone().into());
        }
    }
    if let Some(f) = &spec.filter {
        put("FilterExpression", f.clone().into());
    }
    // The projection as sent: with the key attributes it leaves out (see `sdk.rs`).
    let keyed = keyed_projection(spec);
    let (projection, names) = match &keyed {
        Some(k) => (Some(&k.expression), &k.names),
        None => (spec.projection.as_ref(), &spec.names),
    };
    if let Some(p) = projection {
        put("ProjectionExpression", p.clone().into());
    }
    if !names.is_empty() {
        let names = names
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        put("ExpressionAttributeNames", Value::Object(names));
    }
    let values = spec.values_for(segment);
    if !values.is_empty() {
        put(
            "ExpressionAttributeValues",
            dynamo(&Item::from_attrs(values)),
        );
    }
    if spec.operation == Operation::Query {
        put("ScanIndexForward", (!spec.descending).into());
    }
    put("ConsistentRead", spec.consistent.into());
    if let Some(l) = limit {
        put("Limit", l.into());
    }
    if spec.delivery.is_count() {
        put("Select", "COUNT".into());
    }
    let total = spec.segment_count();
    if spec.operation == Operation::Scan && total > 1 {
        put("Segment", segment.into());
        put("TotalSegments", total.into());
    }
    if let Some(key) = start {
        put("ExclusiveStartKey", dynamo(key));
    }
    put("ReturnConsumedCapacity", "INDEXES".into());
    Value::Object(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::engine::read_cause::ReadCause;

    #[test]
    fn a_query_says_every_field_the_sdk_call_sets() {
        let mut spec = ReadSpec::new(Operation::Query, "app", ReadCause::AgentCall);
        spec.index = Some("GSI1".into());
        spec.key_condition = Some("#pk = :pk".into());
        spec.names = vec![("#pk".into(), "GSI1PK".into())];
        spec.values = vec![(
            ":pk".into(),
            AttrValue::N("12345678901234567890123456789012345678".into()),
        )];
        spec.descending = true;
        let start = Item::from_attrs(vec![("PK".into(), AttrValue::S("A".into()))]);
        let body = request_json(&spec, 0, Some(50), Some(&start));
        assert_eq!(
            body,
            serde_json::json!({
                "TableName": "app",
                "IndexName": "GSI1",
                "KeyConditionExpression": "#pk = :pk",
                "ExpressionAttributeNames": {"#pk": "GSI1PK"},
                "ExpressionAttributeValues": {":pk": {"N": "12345678901234567890123456789012345678"}},
                "ScanIndexForward": false,
                "ConsistentRead": false,
                "Limit": 50,
                "ExclusiveStartKey": {"PK": {"S": "A"}},
                "ReturnConsumedCapacity": "INDEXES"
            })
        );
    }

    #[test]
    fn a_statement_carries_its_parameters_in_order_and_its_next_token() {
        let spec = ReadSpec::statement(
            "app",
            "SELECT * FROM app WHERE a = ? AND b = ?",
            vec![AttrValue::S("x".into()), AttrValue::Bool(true)],
            ReadCause::AgentCall,
        )
        .unwrap();
        let start = Item::from_attrs(vec![(NEXT_TOKEN.into(), AttrValue::S("tok".into()))]);
        let body = request_json(&spec, 0, None, Some(&start));
        assert_eq!(
            body["Parameters"],
            serde_json::json!([{"S": "x"}, {"BOOL": true}])
        );
        assert_eq!(body["NextToken"], "tok");
        assert!(body.get("Limit").is_none());
    }
}
