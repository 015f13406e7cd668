//! A cap on what is read per response. A DynamoDB Query or Scan page holds at most 1 MB of
//! items (about 1.4 MB as JSON, with the names and type tags), a BatchGetItem 16 MB of items,
//! a GetRecords page about 1 MB of records, so [`MAX_RESPONSE_BYTES`] leaves a wide margin.
//! Without it a server answering `Content-Length: 2000000000` made `tables` hold 2 GB before
//! failing with an empty message. A `Content-Length` past the cap is refused before any of the
//! body is read; a body without one (chunked, or read to the end of the connection) is cut
//! when it passes the cap.
//!
//! Every SDK client dynoscope builds (DynamoDB, DynamoDB Streams, CloudWatch, S3) takes its
//! cap from [`interceptor`] at construction, so no client reads an answer without bound.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeDeserializationInterceptorContextMut;
use aws_smithy_runtime_api::client::interceptors::{Intercept, SharedInterceptor};
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::ConfigBag;

/// 16 MiB: the largest DynamoDB response (a 16 MB BatchGetItem) plus its JSON overhead fits
/// only just, so that one operation is the exception dynoscope does not send in bulk; every
/// read it sends (pages of at most 1 MB) is more than ten times under it.
pub const MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

/// Words every refusal starts with, so [`super::error`] can name the problem.
pub const TOO_LARGE: &str = "response larger than the 16 MiB cap";

/// The cap for a client, to push onto its config builder. `streamed`: operations whose body is
/// a stream the caller reads and bounds itself (S3 `GetObject` of an export's data file, which
/// may be gigabytes); every other answer of the client is capped.
pub fn interceptor(streamed: &'static [&'static str]) -> SharedInterceptor {
    SharedInterceptor::new(ResponseCap { streamed })
}

#[derive(Debug)]
pub struct ResponseCap {
    streamed: &'static [&'static str],
}

impl Intercept for ResponseCap {
    fn name(&self) -> &'static str {
        "dynoscope-response-cap"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let operation = cfg.load::<Metadata>().map(Metadata::name);
        if operation.is_some_and(|op| self.streamed.contains(&op)) {
            return Ok(());
        }
        let response = context.response_mut();
        let declared = response
            .headers()
            .get("content-length")
            .and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(length) = declared.filter(|&n| n > MAX_RESPONSE_BYTES as u64) {
            return Err(
                format!("{TOO_LARGE} (Content-Length {length}); nothing of it was read").into(),
            );
        }
        let body = std::mem::replace(response.body_mut(), SdkBody::taken());
        *response.body_mut() =
            SdkBody::from_body_1_x(http_body_util::Limited::new(body, MAX_RESPONSE_BYTES));
        Ok(())
    }
}
