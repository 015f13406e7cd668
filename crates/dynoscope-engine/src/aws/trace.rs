//! What the engine writes to the log: one line per page, and each request given up on. Kept
//! in `aws/` so that the log module never needs the engine's types.

use super::error::EngineError;
use super::read::Page;

/// One Query/Scan page: what the request log shows, as one line.
pub fn log_page(
    page: &Page,
    table: &str,
    total_segments: u32,
    cause: crate::model::engine::read_cause::ReadCause,
) {
    let indexes: Vec<String> = page
        .consumed
        .indexes
        .iter()
        .map(|(name, units)| format!("{name}={units}"))
        .collect();
    tracing::info!(
        target: "dynoscope::aws::read",
        request = page.request_id,
        operation = page.operation.as_str(),
        cause = cause.as_str(),
        table,
        index = page.index.as_deref().unwrap_or("-"),
        segment = page.segment,
        segments = total_segments,
        page = page.page,
        count = page.count,
        scanned_count = page.scanned_count,
        consumed_capacity = page.consumed.total,
        table_capacity = page.consumed.table,
        index_capacity = %indexes.join(","),
        latency_ms = page.latency.as_millis() as u64,
        attempts = page.attempts.attempts,
        throttles = page.attempts.throttles,
        throttle_reasons = %crate::model::traffic::throttle::ReasonCounts::of(&page.attempts.reasons),
        more = page.last_evaluated_key.is_some(),
        "page"
    );
}

/// A request that failed after the SDK's retries.
pub fn log_error(operation: &str, table: Option<&str>, error: &EngineError) {
    tracing::warn!(
        target: "dynoscope::aws",
        operation,
        table = table.unwrap_or("-"),
        class = ?error.class,
        error = %error.message,
        "request failed"
    );
}
