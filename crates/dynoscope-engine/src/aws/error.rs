//! Engine errors, classified by what the user should do about them.

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::ConnectorError;

use super::response_cap::TOO_LARGE;

use crate::model::text::redact::redact_userinfo;
use crate::model::text::sanitize::sanitize;

pub use crate::model::engine::error::{EngineError, ErrorClass};

/// An [`EngineError`] from an SDK failure: a trait because the error type lives in the domain
/// crate, which has no SDK (`EngineError::from_sdk(…)` works with it in scope).
pub trait FromSdk {
    /// Turns an SDK failure of `operation` on `table` into one line naming the endpoint.
    fn from_sdk<E>(
        err: SdkError<E, HttpResponse>,
        operation: &str,
        table: Option<&str>,
        endpoint: &str,
    ) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static;
}

impl FromSdk for EngineError {
    fn from_sdk<E>(
        err: SdkError<E, HttpResponse>,
        operation: &str,
        table: Option<&str>,
        endpoint: &str,
    ) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + 'static,
    {
        let error = match &err {
            _ if past_cap(&err).is_some() => EngineError::service(format!(
                "{operation} failed at {endpoint}: {}",
                past_cap(&err).unwrap_or_default()
            )),
            SdkError::ServiceError(ctx) if ctx.err().code().is_none() && not_json(ctx.raw()) => {
                EngineError::service(format!(
                    "{operation} failed at {endpoint}: {}",
                    describe_not_json(ctx.raw())
                ))
            }
            SdkError::ServiceError(ctx) => {
                let e = ctx.err();
                // Whatever answered wrote these; they reach stderr and the screen.
                let code = sanitize(e.code().unwrap_or("UnknownError"));
                let msg = sanitize(e.message().unwrap_or("").trim());
                match (code.as_ref(), table) {
                    (code, _) if crate::model::engine::permission::is_access_denied(code) => {
                        EngineError::service(format!(
                            "these credentials are not allowed 'dynamodb:{operation}' at {endpoint} ({code}: {msg}); add it to the IAM policy (the manual's docs/permissions.md lists the read-only policy, feature by feature)"
                        ))
                    }
                    ("ResourceNotFoundException", Some(t)) => EngineError::bad_input(format!(
                        "table '{t}' not found at {endpoint}; run 'dynoscope tables' to list the tables there (check --region/--profile)"
                    )),
                    ("ValidationException", _) => EngineError::bad_input(format!(
                        "DynamoDB rejected the {operation}: {msg}"
                    )),
                    _ => EngineError::service(format!(
                        "{operation} failed at {endpoint}: {code}: {msg}"
                    )),
                }
            }
            SdkError::TimeoutError(_) => EngineError::service(format!(
                "{operation} timed out at {endpoint} (after the SDK's retries); check the network or raise --timeout"
            )),
            SdkError::DispatchFailure(d) => {
                let why = d
                    .as_connector_error()
                    .map(connector_reason)
                    .unwrap_or_else(|| chain(&err));
                let why = sanitize(&why);
                // "Cannot reach" only when no connection was made; a reset or a cut-off
                // response happened to a request that was sent.
                let unreachable = ["refused", "dns error", "failed to lookup", "No route"]
                    .iter()
                    .any(|w| why.contains(w));
                if unreachable {
                    EngineError::service(format!(
                        "{operation} failed: cannot reach DynamoDB at {endpoint}: {why}"
                    ))
                } else {
                    EngineError::service(format!("{operation} failed at {endpoint}: {why}"))
                }
            }
            _ => EngineError::service(format!(
                "{operation} failed at {endpoint}: {}",
                sanitize(&chain(&err))
            )),
        };
        super::trace::log_error(operation, table, &error);
        error
    }
}

/// Whether a response's body is something other than a JSON object (DynamoDB answers every
/// request, success or error, with one).
fn not_json(response: &HttpResponse) -> bool {
    let body = response.body().bytes().unwrap_or_default();
    serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(body).is_err()
}

fn describe_not_json(response: &HttpResponse) -> String {
    let body = response.body().bytes().unwrap_or_default();
    let text = String::from_utf8_lossy(body);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let content_type = response
        .headers()
        .get("content-type")
        .map(|t| format!(", Content-Type {}", sanitize(t)))
        .unwrap_or_default();
    format!(
        "the response (HTTP {}{content_type}) is not JSON, so it is not from DynamoDB; check --endpoint-url (it began: '{}')",
        response.status().as_u16(),
        sanitize(&crate::model::text::shorten::shorten_quoted(&text, 80))
    )
}

/// Why a call failed, in one short sanitised clause for any AWS service (CloudWatch,
/// Contributor Insights): `Code: message` from the service, the connection's root cause, or
/// the whole chain when neither applies.
pub fn short_reason<E>(err: &SdkError<E, HttpResponse>) -> String
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    if let Some(why) = past_cap(err) {
        return why;
    }
    let text = match err {
        SdkError::ServiceError(ctx) if ctx.err().code().is_some() => format!(
            "{}: {}",
            ctx.err().code().unwrap_or_default(),
            ctx.err().message().unwrap_or("").trim()
        ),
        SdkError::TimeoutError(_) => "timed out (after the SDK's retries)".to_string(),
        SdkError::DispatchFailure(d) => d
            .as_connector_error()
            .map(connector_reason)
            .unwrap_or_else(|| chain(err)),
        _ => chain(err),
    };
    sanitize(&text).into_owned()
}

/// An answer refused by the response cap ([`super::response_cap`]), in words: for every
/// client alike, so a 2 GB CloudWatch body reads like a 2 GB DynamoDB one.
fn past_cap(err: &dyn std::error::Error) -> Option<String> {
    let text = chain(err);
    if text.contains("length limit exceeded") {
        return Some(format!(
            "{TOO_LARGE}; it was cut off there (a DynamoDB page is at most about 1.4 MB)"
        ));
    }
    let from = text.find(TOO_LARGE)?;
    Some(sanitize(&text[from..]).into_owned())
}

fn connector_reason(err: &ConnectorError) -> String {
    let kind = if err.is_timeout() {
        "timed out"
    } else if err.is_io() {
        "connection failed"
    } else {
        "request failed"
    };
    format!("{kind}: {}", with_certificate_fix(root_cause(err)))
}

/// rustls names why it refused a server's certificate ("invalid peer certificate:
/// UnknownIssuer") but not what to do about it.
fn with_certificate_fix(reason: String) -> String {
    if reason.contains("invalid peer certificate") {
        format!(
            "{reason} (the endpoint's TLS certificate is checked against the system's trusted \
             roots: install ca-certificates, or set SSL_CERT_FILE to the CA that signed it)"
        )
    } else {
        reason
    }
}

/// The innermost error's text: hyper and the SDK wrap "Connection refused (os error 111)" in
/// four layers ("io error: client error (Connect): tcp connect error: …") that say nothing.
fn root_cause(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut current = err.source();
    while let Some(e) = current {
        let inner = e.to_string();
        if !inner.is_empty() {
            text = inner;
        }
        current = e.source();
    }
    redact_userinfo(&text.replace('\n', " ")).into_owned()
}

/// The error and its sources on one line, skipping repeats (the SDK nests the same message),
/// with credentials in any URL masked.
pub fn chain(err: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut current: Option<&dyn std::error::Error> = Some(err);
    while let Some(e) = current {
        let text = e.to_string();
        if !text.is_empty() && !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        current = e.source();
    }
    redact_userinfo(&parts.join(": ").replace('\n', " ")).into_owned()
}
