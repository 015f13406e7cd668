//! Counts the HTTP attempts the SDK makes for one operation, and which of them were throttled.
//!
//! The SDK retries throttled and transient failures on its own; without this the user would
//! only ever see the final success and never learn that the table is being throttled.
//!
//! One interceptor, [`Attempts`], serves every operation, DynamoDB's and DynamoDB Streams':
//! it reports each attempt, the request body sent and the service error code of a failed
//! attempt to an [`AttemptSink`] (an [`AttemptRecorder`], or the stream read's counters),
//! which decides what counts as throttling.

use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeTransmitInterceptorContextRef, Error as ErasedError, FinalizerInterceptorContextRef,
};
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;

/// Error codes DynamoDB (and the SDK's retry classifier) treat as throttling.
pub const THROTTLING_CODES: &[&str] = &[
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "Throttling",
    "TooManyRequestsException",
];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttemptStats {
    pub attempts: u32,
    pub throttles: u32,
    /// The service's own words for the last throttle, e.g. which index or key was hot.
    pub throttle_reason: Option<String>,
}

/// Where [`Attempts`] reports what it sees of one operation's HTTP attempts.
pub trait AttemptSink: std::fmt::Debug + Send + Sync + 'static {
    /// The interceptor's name, as the SDK reports it.
    const NAME: &'static str;
    /// An attempt is about to be made.
    fn attempt(&self);
    /// The request body an attempt sends, exactly as it goes on the wire.
    fn sent(&self, _body: &[u8]) {}
    /// An attempt failed with this service error code and message.
    fn failed(&self, code: String, message: Option<String>);
}

/// The attempt interceptor: put `Attempts(sink)` on an operation's `customize()`.
#[derive(Debug, Clone)]
pub struct Attempts<S>(pub S);

#[derive(Debug, Clone, Default)]
pub struct AttemptRecorder {
    stats: Arc<Mutex<AttemptStats>>,
    /// The last attempt's request body, exactly as it went on the wire (signed JSON).
    sent: Arc<Mutex<Option<Arc<str>>>>,
}

impl AttemptRecorder {
    pub fn snapshot(&self) -> AttemptStats {
        self.stats.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The request body the last attempt sent, for the request log's "as sent" view.
    pub fn sent_body(&self) -> Option<Arc<str>> {
        self.sent.lock().ok().and_then(|s| s.clone())
    }

    /// Records a body sent without the SDK (the in-memory page source's rendering of it).
    pub fn record_body(&self, body: String) {
        if let Ok(mut sent) = self.sent.lock() {
            *sent = Some(body.into());
        }
    }

    /// Counts one attempt made without the SDK (the in-memory page source's).
    pub fn record_attempt(&self, throttled: bool) {
        if let Ok(mut stats) = self.stats.lock() {
            stats.attempts += 1;
            stats.throttles += u32::from(throttled);
        }
    }
}

impl AttemptSink for AttemptRecorder {
    const NAME: &'static str = "dynoscope::AttemptRecorder";

    fn attempt(&self) {
        if let Ok(mut stats) = self.stats.lock() {
            stats.attempts += 1;
        }
    }

    fn sent(&self, body: &[u8]) {
        if let Ok(mut sent) = self.sent.lock() {
            *sent = Some(String::from_utf8_lossy(body).into());
        }
    }

    fn failed(&self, code: String, message: Option<String>) {
        if THROTTLING_CODES.contains(&code.as_str()) {
            if let Ok(mut stats) = self.stats.lock() {
                stats.throttles += 1;
                stats.throttle_reason = Some(match message {
                    Some(m) => format!("{code}: {m}"),
                    None => code,
                });
            }
        }
    }
}

impl<S: AttemptSink> Intercept for Attempts<S> {
    fn name(&self) -> &'static str {
        S::NAME
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.0.attempt();
        Ok(())
    }

    fn read_before_transmit(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        // DynamoDB's JSON protocol sends the whole request as one small in-memory body.
        if let Some(bytes) = context.request().body().bytes() {
            self.0.sent(bytes);
        }
        Ok(())
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Some(Err(err)) = context.output_or_error() {
            if let Some((code, message)) = err.as_operation_error().and_then(error_code) {
                self.0.failed(code, message);
            }
        }
        Ok(())
    }
}

/// The service error code and message of a type-erased operation error, for the operations
/// whose attempts are counted (DynamoDB's reads and DynamoDB Streams').
pub fn error_code(err: &ErasedError) -> Option<(String, Option<String>)> {
    use aws_sdk_dynamodb::operation::{
        describe_table::DescribeTableError, list_tables::ListTablesError, query::QueryError,
        scan::ScanError,
    };
    use aws_sdk_dynamodbstreams::operation::{
        describe_stream::DescribeStreamError, get_records::GetRecordsError,
        get_shard_iterator::GetShardIteratorError,
    };
    fn meta(e: &dyn ProvideErrorMetadata) -> Option<(String, Option<String>)> {
        e.code()
            .map(|c| (c.to_string(), e.message().map(str::to_string)))
    }
    fn streams_meta(
        e: &dyn aws_sdk_dynamodbstreams::error::ProvideErrorMetadata,
    ) -> Option<(String, Option<String>)> {
        e.code()
            .map(|c| (c.to_string(), e.message().map(str::to_string)))
    }
    if let Some(e) = err.downcast_ref::<QueryError>() {
        return meta(e);
    }
    if let Some(e) = err.downcast_ref::<ScanError>() {
        return meta(e);
    }
    if let Some(e) = err.downcast_ref::<DescribeTableError>() {
        return meta(e);
    }
    if let Some(e) = err.downcast_ref::<ListTablesError>() {
        return meta(e);
    }
    if let Some(e) = err.downcast_ref::<GetRecordsError>() {
        return streams_meta(e);
    }
    if let Some(e) = err.downcast_ref::<GetShardIteratorError>() {
        return streams_meta(e);
    }
    if let Some(e) = err.downcast_ref::<DescribeStreamError>() {
        return streams_meta(e);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::error::ErrorMetadata;

    fn meta(code: &str) -> ErrorMetadata {
        ErrorMetadata::builder()
            .code(code)
            .message("hot key")
            .build()
    }

    #[test]
    fn one_error_code_reads_dynamodb_and_streams_errors_alike() {
        use aws_sdk_dynamodb::operation::query::QueryError;
        use aws_sdk_dynamodbstreams::operation::get_records::GetRecordsError;
        let query = ErasedError::erase(QueryError::generic(meta("ThrottlingException")));
        assert_eq!(
            error_code(&query),
            Some(("ThrottlingException".into(), Some("hot key".into())))
        );
        let records = ErasedError::erase(GetRecordsError::generic(meta("LimitExceededException")));
        assert_eq!(
            error_code(&records),
            Some(("LimitExceededException".into(), Some("hot key".into())))
        );
        let other = ErasedError::erase(std::io::Error::other("not an operation error"));
        assert_eq!(error_code(&other), None);
    }

    #[test]
    fn the_recorder_counts_only_dynamodb_throttling_codes() {
        let recorder = AttemptRecorder::default();
        recorder.attempt();
        recorder.failed("ThrottlingException".into(), Some("hot key".into()));
        recorder.attempt();
        recorder.failed("ValidationException".into(), None);
        recorder.sent(b"{}");
        let stats = recorder.snapshot();
        assert_eq!((stats.attempts, stats.throttles), (2, 1));
        assert_eq!(
            stats.throttle_reason.as_deref(),
            Some("ThrottlingException: hot key")
        );
        assert_eq!(recorder.sent_body().as_deref(), Some("{}"));
    }
}
