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

use crate::aws::read::attempt_charge::AttemptCharge;
use crate::model::traffic::throttle::{ReasonCounts, ThrottleReason};

/// Error codes DynamoDB (and the SDK's retry classifier) treat as throttling.
pub const THROTTLING_CODES: &[&str] = &[
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "Throttling",
    "TooManyRequestsException",
];

// What the attempts cost is plain data the explorer reads too: it lives in the domain crate.
pub use crate::model::engine::attempts::{AttemptError, AttemptStats};

/// Where [`Attempts`] reports what it sees of one operation's HTTP attempts.
pub trait AttemptSink: std::fmt::Debug + Send + Sync + 'static {
    /// The interceptor's name, as the SDK reports it.
    const NAME: &'static str;
    /// An attempt is about to be made.
    fn attempt(&self);
    /// The request body an attempt sends, exactly as it goes on the wire.
    fn sent(&self, _body: &[u8]) {}
    /// An attempt failed with this service error.
    fn failed(&self, error: AttemptError);
    /// May the next attempt be made? `Err` refuses it, failing the operation with that error
    /// (a read's retry its budget cannot cover).
    fn admit(&self) -> Result<(), String> {
        Ok(())
    }
    /// An attempt ended; `answered`: the service's answer came back whole.
    fn ended(&self, _answered: bool) {}
}

/// The attempt interceptor: put `Attempts(sink)` on an operation's `customize()`.
#[derive(Debug, Clone)]
pub struct Attempts<S>(pub S);

#[derive(Debug, Clone, Default)]
pub struct AttemptRecorder {
    stats: Arc<Mutex<AttemptStats>>,
    /// The last attempt's request body, exactly as it went on the wire (signed JSON).
    sent: Arc<Mutex<Option<Arc<str>>>>,
    /// A read request's reservation: every attempt is admitted and charged against it.
    charge: Option<AttemptCharge>,
}

impl AttemptRecorder {
    pub fn snapshot(&self) -> AttemptStats {
        self.stats.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The request body the last attempt sent, for the request log's "as sent" view.
    pub fn sent_body(&self) -> Option<Arc<str>> {
        self.sent.lock().ok().and_then(|s| s.clone())
    }

    /// The recorder of a read request: its attempts are admitted and charged against
    /// `charge`.
    pub fn charged(mut self, charge: AttemptCharge) -> Self {
        self.charge = Some(charge);
        self
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

    fn admit(&self) -> Result<(), String> {
        self.charge.as_ref().map_or(Ok(()), AttemptCharge::admit)
    }

    fn ended(&self, answered: bool) {
        if let Some(charge) = &self.charge {
            charge.ended(answered);
        }
    }

    fn sent(&self, body: &[u8]) {
        if let Ok(mut sent) = self.sent.lock() {
            *sent = Some(String::from_utf8_lossy(body).into());
        }
    }

    fn failed(&self, error: AttemptError) {
        if THROTTLING_CODES.contains(&error.code.as_str()) {
            let why = ReasonCounts::of(&error.reasons);
            // The log file keeps every throttled attempt, the write's as the read's.
            tracing::warn!(
                target: "dynoscope::aws",
                code = %error.code,
                reasons = %why,
                message = error.message.as_deref().unwrap_or(""),
                "throttled attempt"
            );
            if let Ok(mut stats) = self.stats.lock() {
                stats.throttles += 1;
                let named: Vec<String> =
                    error.reasons.iter().map(ThrottleReason::wording).collect();
                let words = match (why.is_empty(), error.message) {
                    (false, _) => format!("{}: {}", error.code, named.join(", ")),
                    (true, Some(m)) => format!("{}: {m}", error.code),
                    (true, None) => error.code,
                };
                stats.throttle_reason = Some(words);
                stats.reasons.extend(error.reasons);
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
        self.0.admit().map_err(BoxError::from)
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
        // Answered: a response came back and was read, the service's output or its error.
        // Without one (a timeout, a reset), or with a success whose body did not parse (cut
        // short), the service may have served the attempt without saying what it cost.
        let answered = match (context.response(), context.output_or_error()) {
            (Some(_), Some(Ok(_))) => true,
            (Some(response), Some(Err(_))) => !response.status().is_success(),
            _ => false,
        };
        self.0.ended(answered);
        if let Some(Err(err)) = context.output_or_error() {
            if let Some(error) = err.as_operation_error().and_then(error_code) {
                self.0.failed(error);
            }
        }
        Ok(())
    }
}

/// The service error of a type-erased operation error, with its throttling reasons, for the
/// operations whose attempts are counted: DynamoDB's reads, writes and descriptions, and
/// DynamoDB Streams'.
pub fn error_code(err: &ErasedError) -> Option<AttemptError> {
    use aws_sdk_dynamodb::operation::{
        batch_get_item::BatchGetItemError, batch_write_item::BatchWriteItemError,
        delete_item::DeleteItemError,
        describe_contributor_insights::DescribeContributorInsightsError,
        describe_table::DescribeTableError, describe_time_to_live::DescribeTimeToLiveError,
        get_item::GetItemError, list_tables::ListTablesError, put_item::PutItemError,
        query::QueryError, scan::ScanError, transact_write_items::TransactWriteItemsError,
        update_item::UpdateItemError,
    };
    use aws_sdk_dynamodbstreams::operation::{
        describe_stream::DescribeStreamError, get_records::GetRecordsError,
        get_shard_iterator::GetShardIteratorError,
    };
    fn meta(e: &dyn ProvideErrorMetadata, reasons: Vec<ThrottleReason>) -> Option<AttemptError> {
        e.code().map(|c| AttemptError {
            code: c.to_string(),
            message: e.message().map(str::to_string),
            reasons,
        })
    }
    fn streams_meta(
        e: &dyn aws_sdk_dynamodbstreams::error::ProvideErrorMetadata,
    ) -> Option<AttemptError> {
        e.code().map(|c| AttemptError {
            code: c.to_string(),
            message: e.message().map(str::to_string),
            reasons: Vec::new(),
        })
    }
    fn reasons(list: &[aws_sdk_dynamodb::types::ThrottlingReason]) -> Vec<ThrottleReason> {
        list.iter()
            .map(|r| {
                ThrottleReason::new(
                    r.reason().unwrap_or_default(),
                    r.resource().map(str::to_string),
                )
            })
            .collect()
    }
    // The operations whose errors carry `ThrottlingReasons` (their three throttling errors).
    macro_rules! throttled {
        ($($ty:ident),*) => {$(
            if let Some(e) = err.downcast_ref::<$ty>() {
                let list = match e {
                    $ty::ProvisionedThroughputExceededException(t) => reasons(t.throttling_reasons()),
                    $ty::ThrottlingException(t) => reasons(t.throttling_reasons()),
                    $ty::RequestLimitExceeded(t) => reasons(t.throttling_reasons()),
                    _ => Vec::new(),
                };
                return meta(e, list);
            }
        )*};
    }
    throttled!(
        QueryError,
        ScanError,
        GetItemError,
        BatchGetItemError,
        PutItemError,
        UpdateItemError,
        DeleteItemError,
        TransactWriteItemsError,
        BatchWriteItemError
    );
    macro_rules! plain {
        ($($ty:ident),*) => {$(
            if let Some(e) = err.downcast_ref::<$ty>() {
                return meta(e, Vec::new());
            }
        )*};
    }
    plain!(
        DescribeTableError,
        ListTablesError,
        DescribeTimeToLiveError,
        DescribeContributorInsightsError
    );
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
        let code = |e: &ErasedError| error_code(e).map(|e| (e.code, e.message));
        assert_eq!(
            code(&query),
            Some(("ThrottlingException".into(), Some("hot key".into())))
        );
        let records = ErasedError::erase(GetRecordsError::generic(meta("LimitExceededException")));
        assert_eq!(
            code(&records),
            Some(("LimitExceededException".into(), Some("hot key".into())))
        );
        let other = ErasedError::erase(std::io::Error::other("not an operation error"));
        assert_eq!(error_code(&other), None);
    }

    /// A write's throttle is read like a read's, with the reasons it carries.
    #[test]
    fn a_throttled_write_gives_its_reasons() {
        use aws_sdk_dynamodb::operation::put_item::PutItemError;
        use aws_sdk_dynamodb::types::error::ProvisionedThroughputExceededException;
        use aws_sdk_dynamodb::types::ThrottlingReason;
        let arn = "arn:aws:dynamodb:us-east-1:1:table/T/index/GSI1";
        let e = PutItemError::ProvisionedThroughputExceededException(
            ProvisionedThroughputExceededException::builder()
                .message("slow down")
                .throttling_reasons(
                    ThrottlingReason::builder()
                        .reason("IndexWriteKeyRangeThroughputExceeded")
                        .resource(arn)
                        .build(),
                )
                .meta(meta("ProvisionedThroughputExceededException"))
                .build(),
        );
        let error = error_code(&ErasedError::erase(e)).unwrap();
        assert_eq!(error.code, "ProvisionedThroughputExceededException");
        assert_eq!(
            error.reasons,
            [ThrottleReason::new(
                "IndexWriteKeyRangeThroughputExceeded",
                Some(arn.into())
            )]
        );
        let recorder = AttemptRecorder::default();
        recorder.attempt();
        recorder.failed(error);
        let stats = recorder.snapshot();
        assert_eq!(stats.throttles, 1);
        assert_eq!(
            stats.throttle_reason.as_deref(),
            Some("ProvisionedThroughputExceededException: hot key range · index GSI1")
        );
        assert_eq!(stats.reasons.len(), 1);
    }

    #[test]
    fn the_recorder_counts_only_dynamodb_throttling_codes() {
        let recorder = AttemptRecorder::default();
        recorder.attempt();
        recorder.failed(AttemptError {
            code: "ThrottlingException".into(),
            message: Some("hot key".into()),
            reasons: Vec::new(),
        });
        recorder.attempt();
        recorder.failed(AttemptError {
            code: "ValidationException".into(),
            ..AttemptError::default()
        });
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
