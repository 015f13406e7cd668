//! The fast GetRecords reader against the SDK's own, on the same bodies.

use std::sync::Arc;

use aws_sdk_dynamodbstreams::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use proptest::prelude::*;

use crate::model::item::value::{AttrValue, Item};

use super::*;
use crate::aws::stream::convert::change_from_sdk;
use crate::model::formats::json::append_dynamo_json;

/// Answers every request with one status and body.
#[derive(Debug, Clone)]
pub(crate) struct Canned(pub u16, pub Arc<Vec<u8>>);

impl HttpConnector for Canned {
    fn call(&self, _request: HttpRequest) -> HttpConnectorFuture {
        let response = HttpResponse::new(
            self.0.try_into().expect("status"),
            SdkBody::from(self.1.as_slice().to_vec()),
        );
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _settings: &HttpConnectorSettings,
        _components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

pub(crate) fn canned_client(body: Vec<u8>) -> aws_sdk_dynamodbstreams::Client {
    canned_status(200, body)
}

pub(crate) fn canned_status(status: u16, body: Vec<u8>) -> aws_sdk_dynamodbstreams::Client {
    let config = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("t", "t", None, None, "t"))
        .endpoint_url("http://127.0.0.1:9")
        .http_client(Canned(status, Arc::new(body)))
        .retry_config(aws_smithy_types::retry::RetryConfig::disabled())
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(config)
}

/// What the SDK alone makes of `body`.
fn through_sdk(body: &[u8], view: Option<ViewType>) -> (Vec<Change>, Option<String>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let out = rt
        .block_on(
            canned_client(body.to_vec())
                .get_records()
                .shard_iterator("i")
                .send(),
        )
        .expect("the SDK reads the body");
    let changes = out
        .records
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| change_from_sdk(r, view))
        .collect();
    (changes, out.next_shard_iterator)
}

fn value() -> impl Strategy<Value = AttrValue> {
    let text = "[ -~]{0,8}|\\PC{0,4}|[\"\\\\/\u{1b}\n]{1,3}";
    let number = "-?[0-9]{1,38}(\\.[0-9]{1,5})?(E[+-]?[0-9]{1,2})?";
    let leaf = prop_oneof![
        text.prop_map(AttrValue::S),
        number.prop_map(AttrValue::N),
        proptest::collection::vec(any::<u8>(), 0..12).prop_map(AttrValue::B),
        proptest::collection::vec(text, 1..3).prop_map(AttrValue::Ss),
        proptest::collection::vec(number, 1..3).prop_map(AttrValue::Ns),
        proptest::collection::vec(proptest::collection::vec(any::<u8>(), 1..5), 1..3)
            .prop_map(AttrValue::Bs),
        Just(AttrValue::Null),
        any::<bool>().prop_map(AttrValue::Bool),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttrValue::L),
            proptest::collection::vec(("[a-z#]{1,4}", inner), 0..4)
                .prop_map(|attrs| AttrValue::M(Item::from_attrs(attrs))),
        ]
    })
}

fn item() -> impl Strategy<Value = Item> {
    proptest::collection::vec(("[A-Za-z]{1,6}|PK|SK", value()), 0..6).prop_map(Item::from_attrs)
}

#[derive(Debug, Clone)]
struct WireRecord {
    event: &'static str,
    keys: Item,
    old: Option<Item>,
    new: Option<Item>,
    millis: Option<u64>,
    size: i64,
    view: Option<&'static str>,
    ttl: bool,
}

fn record() -> impl Strategy<Value = WireRecord> {
    (
        prop_oneof![Just("INSERT"), Just("MODIFY"), Just("REMOVE")],
        item(),
        proptest::option::of(item()),
        proptest::option::of(item()),
        proptest::option::of(1_000_000_000_000u64..2_000_000_000_000),
        0i64..500_000,
        proptest::option::of(prop_oneof![Just("KEYS_ONLY"), Just("NEW_AND_OLD_IMAGES")]),
        any::<bool>(),
    )
        .prop_map(
            |(event, keys, old, new, millis, size, view, ttl)| WireRecord {
                event,
                keys,
                old,
                new,
                millis,
                size,
                view,
                ttl,
            },
        )
}

/// A GetRecords body as DynamoDB Streams writes it.
fn body(records: &[WireRecord], next: Option<&str>) -> Vec<u8> {
    let mut out = String::from("{");
    if let Some(next) = next {
        out.push_str(&format!("\"NextShardIterator\":\"{next}\","));
    }
    out.push_str("\"Records\":[");
    for (i, r) in records.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{{\"awsRegion\":\"ddblocal\",\"eventID\":\"e{i}\",\"eventName\":\"{}\",\"eventSource\":\"aws:dynamodb\",\"eventVersion\":\"1.1\",",
            r.event
        ));
        if r.ttl {
            out.push_str(
                "\"userIdentity\":{\"PrincipalId\":\"dynamodb.amazonaws.com\",\"Type\":\"Service\"},",
            );
        }
        out.push_str("\"dynamodb\":{");
        if let Some(ms) = r.millis {
            // Seconds with a fraction, as Jackson writes a double.
            out.push_str(&format!(
                "\"ApproximateCreationDateTime\":{}.{:03},",
                ms / 1000,
                ms % 1000
            ));
        }
        out.push_str("\"Keys\":");
        append_dynamo_json(&mut out, &r.keys);
        for (name, image) in [("NewImage", &r.new), ("OldImage", &r.old)] {
            if let Some(image) = image {
                out.push_str(&format!(",\"{name}\":"));
                append_dynamo_json(&mut out, image);
            }
        }
        out.push_str(&format!(
            ",\"SequenceNumber\":\"{:021}\",\"SizeBytes\":{}",
            i + 1,
            r.size
        ));
        if let Some(view) = r.view {
            out.push_str(&format!(",\"StreamViewType\":\"{view}\""));
        }
        out.push_str("}}");
    }
    out.push_str("]}");
    out.into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::model::fixtures::proptest_cases(64)))]

    #[test]
    fn reads_every_body_as_the_sdk_does(
        records in proptest::collection::vec(record(), 0..6),
        next in proptest::option::of("[a-zA-Z0-9|=]{1,20}"),
    ) {
        let body = body(&records, next.as_deref());
        let fast = parse_get_records(&body, Some(ViewType::NewImage)).expect("reads the body");
        let (sdk, sdk_next) = through_sdk(&body, Some(ViewType::NewImage));
        prop_assert_eq!(fast.changes, sdk);
        prop_assert_eq!(fast.next_iterator, sdk_next);
        prop_assert_eq!(fast.unreadable, 0);
    }
}

#[test]
fn what_dynamodb_local_sends_reads_the_same() {
    // A record as DynamoDB Local 3.3.1 sent it (times as whole seconds in exponent form).
    let body = br#"{"NextShardIterator":"arn:x|001|abc","Records":[{"eventID":"3b02","eventName":"MODIFY","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"ddblocal","dynamodb":{"ApproximateCreationDateTime":1.79606628E9,"Keys":{"PK":{"S":"k0"}},"NewImage":{"PK":{"S":"k0"},"v":{"N":"2"}},"OldImage":{"v":{"N":"1"},"PK":{"S":"k0"}},"SequenceNumber":"000000000000000000004","SizeBytes":18,"StreamViewType":"NEW_AND_OLD_IMAGES"}},{"eventName":"LATER","dynamodb":{"SequenceNumber":"5"}}]}"#;
    let fast = parse_get_records(body, None).unwrap();
    let (sdk, next) = through_sdk(body, None);
    assert_eq!(fast.changes, sdk);
    assert_eq!(fast.changes[0].created_at_ms, Some(1_796_066_280_000));
    assert_eq!(
        fast.unreadable, 1,
        "an event name DynamoDB does not document"
    );
    assert_eq!(fast.next_iterator, next);
    assert!(parse_get_records(br#"{"Records":[{"dynamodb":{"Keys":{"a":{}}}}]}"#, None).is_err());
}

#[test]
fn the_sdk_client_reads_records_the_fast_way_and_errors_the_sdk_way() {
    use std::sync::Mutex;

    use crate::aws::stream::sdk::FastRecords;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let records = [WireRecord {
        event: "INSERT",
        keys: Item::from_attrs(vec![("PK".into(), AttrValue::S("a".into()))]),
        old: None,
        new: Some(Item::from_attrs(vec![(
            "PK".into(),
            AttrValue::S("a".into()),
        )])),
        millis: Some(1_800_000_000_000),
        size: 5,
        view: Some("NEW_IMAGE"),
        ttl: false,
    }];
    let call = |client: aws_sdk_dynamodbstreams::Client| {
        let read = Arc::new(Mutex::new(None));
        let out = rt.block_on(
            client
                .get_records()
                .shard_iterator("i")
                .customize()
                .interceptor(FastRecords {
                    view_type: None,
                    read: read.clone(),
                })
                .send(),
        );
        let page = read.lock().unwrap().take();
        (out, page)
    };
    let (out, page) = call(canned_client(body(&records, Some("next"))));
    let out = out.unwrap();
    let page = page.expect("read by the fast reader");
    assert!(out.records.is_none(), "the SDK did not read them too");
    assert_eq!(out.next_shard_iterator.as_deref(), Some("next"));
    assert_eq!(
        page.changes[0].keys.get("PK"),
        Some(&AttrValue::S("a".into()))
    );

    let expired = br#"{"__type":"com.amazonaws.dynamodb.v20120810#ExpiredIteratorException","message":"Iterator expired"}"#;
    let (out, page) = call(canned_status(400, expired.to_vec()));
    assert!(page.is_none());
    let err = out.unwrap_err();
    assert!(
        err.as_service_error()
            .is_some_and(|e| e.is_expired_iterator_exception()),
        "{err:?}"
    );
}

#[test]
fn creation_times_round_as_the_sdk_rounds_them() {
    // 1153407843.711 is 1153407843.71099996… as a double: the SDK truncates to .710.
    for (seconds, millis) in [
        (1_153_407_843.711, 1_153_407_843_710),
        (1_796_066_280.0, 1_796_066_280_000),
        (-1.5, -1_500),
        (0.0, 0),
    ] {
        assert_eq!(epoch_millis(seconds), millis, "{seconds}");
        let sdk = aws_smithy_types::DateTime::from_secs_f64(seconds)
            .to_millis()
            .unwrap();
        assert_eq!(epoch_millis(seconds), sdk, "{seconds}");
    }
}
