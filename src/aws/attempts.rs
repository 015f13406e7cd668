//! Counts the HTTP attempts the SDK makes for one operation, and which of them were throttled.
//!
//! The SDK retries throttled and transient failures on its own; without this the user would
//! only ever see the final success and never learn that the table is being throttled.

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

impl Intercept for AttemptRecorder {
    fn name(&self) -> &'static str {
        "dynoscope::AttemptRecorder"
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Ok(mut stats) = self.stats.lock() {
            stats.attempts += 1;
        }
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
            if let Ok(mut sent) = self.sent.lock() {
                *sent = Some(String::from_utf8_lossy(bytes).into());
            }
        }
        Ok(())
    }

    fn read_after_attempt(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(Err(err)) = context.output_or_error() else {
            return Ok(());
        };
        let Some((code, message)) = err.as_operation_error().and_then(error_code) else {
            return Ok(());
        };
        if THROTTLING_CODES.contains(&code.as_str()) {
            if let Ok(mut stats) = self.stats.lock() {
                stats.throttles += 1;
                stats.throttle_reason = Some(match message {
                    Some(m) => format!("{code}: {m}"),
                    None => code,
                });
            }
        }
        Ok(())
    }
}

/// The service error code and message of a type-erased operation error, for the operations
/// dynoscope sends.
fn error_code(err: &ErasedError) -> Option<(String, Option<String>)> {
    use aws_sdk_dynamodb::operation::{
        describe_table::DescribeTableError, list_tables::ListTablesError, query::QueryError,
        scan::ScanError,
    };
    fn meta(e: &dyn ProvideErrorMetadata) -> Option<(String, Option<String>)> {
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
    None
}
