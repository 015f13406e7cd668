//! Stream records from DynamoDB Streams: DescribeStream, GetShardIterator and GetRecords through
//! the SDK, errors sorted into what the engine does about them, every HTTP attempt counted.

use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock};

use aws_sdk_dynamodbstreams::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodbstreams::types::{ShardIteratorType, StreamStatus as SdkStatus};
use aws_sdk_dynamodbstreams::Client;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeSerializationInterceptorContextRef, Error as ErasedError, Output,
};
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::orchestrator::OrchestratorError;
use aws_smithy_runtime_api::client::ser_de::{DeserializeResponse, SharedResponseDeserializer};
use aws_smithy_types::config_bag::{ConfigBag, FrozenLayer, Layer};

use super::convert::{change_from_sdk, view_from_sdk};
use super::source::{
    IteratorPosition, RecordsPage, ShardInfo, ShardListing, StreamError, StreamErrorKind,
    StreamSource, StreamStatus,
};
use super::wire::{parse_get_records, WirePage};
use super::StreamCounters;
use crate::aws::attempts::{AttemptSink, Attempts, THROTTLING_CODES};
use crate::aws::error::EngineError;
use crate::aws::error::FromSdk;
use crate::model::stream::ViewType;

/// DynamoDB Streams' own throttling code, besides DynamoDB's.
const STREAMS_THROTTLING_CODE: &str = "LimitExceededException";

#[derive(Clone)]
pub struct SdkStreamSource {
    client: Client,
    /// As shown in error messages.
    endpoint: String,
    /// The stream's view type, for records that do not carry their own.
    view_type: Option<ViewType>,
    counters: Arc<StreamCounters>,
}

impl SdkStreamSource {
    pub fn new(
        client: Client,
        endpoint: impl Into<String>,
        view_type: Option<ViewType>,
        counters: Arc<StreamCounters>,
    ) -> Self {
        SdkStreamSource {
            client,
            endpoint: endpoint.into(),
            view_type,
            counters,
        }
    }
}

fn is_throttle(code: &str) -> bool {
    code == STREAMS_THROTTLING_CODE || THROTTLING_CODES.contains(&code)
}

/// Sorts an SDK failure by what the engine does about it (see [`StreamErrorKind`]).
fn classify<E>(err: SdkError<E, HttpResponse>, operation: &str, endpoint: &str) -> StreamError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    let kind = match &err {
        SdkError::ServiceError(ctx) => match ctx.err().code().unwrap_or("") {
            "ExpiredIteratorException" => StreamErrorKind::ExpiredIterator,
            "TrimmedDataAccessException" => StreamErrorKind::TrimmedData,
            "ResourceNotFoundException" => StreamErrorKind::NotFound,
            code if is_throttle(code) => StreamErrorKind::Throttled,
            _ if ctx.raw().status().is_server_error() => StreamErrorKind::Transient,
            _ => StreamErrorKind::Fatal,
        },
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => {
            StreamErrorKind::Transient
        }
        _ => StreamErrorKind::Fatal,
    };
    StreamError::new(kind, EngineError::from_sdk(err, operation, None, endpoint))
}

impl StreamSource for SdkStreamSource {
    fn describe(
        &self,
        stream_arn: String,
        exclusive_start_shard_id: Option<String>,
    ) -> impl Future<Output = Result<ShardListing, StreamError>> + Send + 'static {
        let this = self.clone();
        async move {
            let out = this
                .client
                .describe_stream()
                .stream_arn(stream_arn)
                .set_exclusive_start_shard_id(exclusive_start_shard_id)
                .customize()
                .interceptor(Attempts(StreamAttempts(this.counters.clone())))
                .send()
                .await
                .map_err(|e| classify(e, "DescribeStream", &this.endpoint))?;
            let desc = out.stream_description.ok_or_else(|| {
                StreamError::new(
                    StreamErrorKind::Transient,
                    EngineError::service("DescribeStream returned no stream description"),
                )
            })?;
            let status = match desc.stream_status {
                Some(SdkStatus::Disabled) => StreamStatus::Disabled,
                Some(SdkStatus::Disabling) => StreamStatus::Disabling,
                Some(SdkStatus::Enabling) => StreamStatus::Enabling,
                _ => StreamStatus::Enabled,
            };
            Ok(ShardListing {
                shards: desc
                    .shards
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|s| {
                        Some(ShardInfo {
                            shard_id: s.shard_id?,
                            parent_shard_id: s.parent_shard_id,
                            ending_sequence_number: s
                                .sequence_number_range
                                .and_then(|r| r.ending_sequence_number),
                        })
                    })
                    .collect(),
                last_evaluated_shard_id: desc.last_evaluated_shard_id,
                status,
                view_type: desc.stream_view_type.as_ref().and_then(view_from_sdk),
            })
        }
    }

    fn shard_iterator(
        &self,
        stream_arn: String,
        shard_id: String,
        position: IteratorPosition,
    ) -> impl Future<Output = Result<String, StreamError>> + Send + 'static {
        let this = self.clone();
        async move {
            let (kind, sequence) = match position {
                IteratorPosition::Latest => (ShardIteratorType::Latest, None),
                IteratorPosition::TrimHorizon => (ShardIteratorType::TrimHorizon, None),
                IteratorPosition::AfterSequenceNumber(s) => {
                    (ShardIteratorType::AfterSequenceNumber, Some(s))
                }
            };
            let out = this
                .client
                .get_shard_iterator()
                .stream_arn(stream_arn)
                .shard_id(shard_id)
                .shard_iterator_type(kind)
                .set_sequence_number(sequence)
                .customize()
                .interceptor(Attempts(StreamAttempts(this.counters.clone())))
                .send()
                .await
                .map_err(|e| classify(e, "GetShardIterator", &this.endpoint))?;
            // Without an iterator the shard has nothing more to give, like a closed one.
            out.shard_iterator.ok_or_else(|| {
                StreamError::new(
                    StreamErrorKind::NotFound,
                    EngineError::service("GetShardIterator returned no iterator"),
                )
            })
        }
    }

    fn records(
        &self,
        iterator: String,
        limit: i32,
    ) -> impl Future<Output = Result<RecordsPage, StreamError>> + Send + 'static {
        let this = self.clone();
        async move {
            let read = Arc::new(Mutex::new(None));
            let out = this
                .client
                .get_records()
                .shard_iterator(iterator)
                .limit(limit)
                .customize()
                .interceptor(Attempts(StreamAttempts(this.counters.clone())))
                .interceptor(FastRecords {
                    view_type: this.view_type,
                    read: read.clone(),
                })
                .send()
                .await
                .map_err(|e| classify(e, "GetRecords", &this.endpoint))?;
            let fast = read.lock().ok().and_then(|mut slot| slot.take());
            if let Some(page) = fast {
                return Ok(RecordsPage {
                    changes: page.changes,
                    unreadable: page.unreadable,
                    next_iterator: out.next_shard_iterator,
                });
            }
            let records = out.records.unwrap_or_default();
            let total = records.len();
            let changes: Vec<_> = records
                .into_iter()
                .filter_map(|r| change_from_sdk(r, this.view_type))
                .collect();
            Ok(RecordsPage {
                unreadable: (total - changes.len()) as u64,
                changes,
                next_iterator: out.next_shard_iterator,
            })
        }
    }
}

/// Counts every HTTP attempt of a Streams call, and the throttled ones: the SDK retries
/// throttling on its own, and the user should still learn of it.
#[derive(Debug)]
struct StreamAttempts(Arc<StreamCounters>);

impl AttemptSink for StreamAttempts {
    const NAME: &'static str = "dynoscope::stream::AttemptCounter";

    fn attempt(&self) {
        StreamCounters::bump(&self.0.attempts);
    }

    fn failed(&self, error: crate::aws::attempts::AttemptError) {
        if is_throttle(&error.code) {
            StreamCounters::bump(&self.0.throttled_attempts);
        }
    }
}

/// Puts [`FastDeserializer`] in front of the SDK's GetRecords deserializer for one call.
#[derive(Debug)]
pub(super) struct FastRecords {
    pub view_type: Option<ViewType>,
    pub read: Arc<Mutex<Option<WirePage>>>,
}

impl Intercept for FastRecords {
    fn name(&self) -> &'static str {
        "dynoscope::stream::FastRecords"
    }

    fn read_before_execution(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        // The interceptor layer is read before the operation's, so ours answers.
        cfg.interceptor_state()
            .store_put(SharedResponseDeserializer::new(FastDeserializer {
                sdk: sdk_records_layer().clone(),
                view_type: self.view_type,
                read: self.read.clone(),
            }));
        Ok(())
    }
}

/// Reads a successful GetRecords body with [`super::wire`] (into the shared slot, leaving the
/// SDK's output without records); errors, and any body it cannot read, go to the SDK's.
#[derive(Debug)]
struct FastDeserializer {
    /// The GetRecords operation's own configuration, holding the SDK's deserializer.
    sdk: FrozenLayer,
    view_type: Option<ViewType>,
    read: Arc<Mutex<Option<WirePage>>>,
}

impl DeserializeResponse for FastDeserializer {
    fn deserialize_nonstreaming_with_config(
        &self,
        response: &HttpResponse,
        cfg: &ConfigBag,
    ) -> Result<Output, OrchestratorError<ErasedError>> {
        if response.status().is_success() {
            let page = response
                .body()
                .bytes()
                .and_then(|body| parse_get_records(body, self.view_type).ok());
            if let (Some(page), Ok(mut slot)) = (page, self.read.lock()) {
                let output =
                    aws_sdk_dynamodbstreams::operation::get_records::GetRecordsOutput::builder()
                        .set_next_shard_iterator(page.next_iterator.clone())
                        .build();
                *slot = Some(page);
                return Ok(Output::erase(output));
            }
        }
        match self.sdk.load::<SharedResponseDeserializer>() {
            Some(sdk) => sdk.deserialize_nonstreaming_with_config(response, cfg),
            None => Err(OrchestratorError::other(
                "the SDK's GetRecords deserializer is missing",
            )),
        }
    }
}

/// The configuration layer the SDK's GetRecords operation sets up, built once: it holds the
/// SDK's response deserializer, which [`FastDeserializer`] hands what it does not read.
fn sdk_records_layer() -> &'static FrozenLayer {
    static LAYER: OnceLock<FrozenLayer> = OnceLock::new();
    LAYER.get_or_init(|| {
        use aws_smithy_runtime_api::client::runtime_plugin::RuntimePlugin;
        aws_sdk_dynamodbstreams::operation::get_records::GetRecords::new()
            .config()
            .unwrap_or_else(|| Layer::new("GetRecords").freeze())
    })
}
