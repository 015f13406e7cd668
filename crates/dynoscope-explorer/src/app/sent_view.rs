//! The "as sent" view of a request-log row: its lines wrapped to the popup's width, computed
//! here once so that `update` scrolls exactly as far as `ui` draws (a long BatchWriteItem body
//! is hundreds of rows).

use ratatui::layout::{Constraint, Rect};

use super::request_log::RequestRow;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wrap::row_starts;

/// Where the view is drawn in `area`.
pub fn sent_popup(area: Rect) -> Rect {
    area.centered(
        Constraint::Length(area.width.saturating_sub(8).max(area.width.min(30))),
        Constraint::Length(area.height.saturating_sub(4).max(area.height.min(5))),
    )
}

/// Rows of text inside the popup's border.
pub fn sent_rows(popup: Rect) -> usize {
    popup.height.saturating_sub(2) as usize
}

/// The request's text as display rows at `width` columns: the target line, a blank line and
/// the body pretty-printed (members in the order they were sent), sanitised; `None` marks the
/// dim lines (target, "not recorded").
pub fn sent_lines(row: &RequestRow, width: usize) -> Vec<(String, bool)> {
    let target = match row.write {
        Some(write) => format!("POST / · X-Amz-Target: DynamoDB_20120810.{write}"),
        None => format!(
            "POST / · X-Amz-Target: DynamoDB_20120810.{} · segment {} · page {}",
            row.operation.as_str(),
            row.segment,
            row.page
        ),
    };
    let mut lines = vec![(target, true), (String::new(), false)];
    if row.throttles > 0 {
        lines.push((
            format!(
                "throttled {} of {} attempts{}",
                row.throttles,
                row.attempts,
                if row.reasons.is_empty() {
                    "; the service gave no reason"
                } else {
                    ":"
                }
            ),
            false,
        ));
        for r in crate::model::traffic::throttle::ReasonCounts::of(&row.reasons).rows() {
            let reason = crate::model::traffic::throttle::ThrottleReason::new(
                r.reason.clone(),
                r.resource.clone(),
            );
            lines.push((
                sanitize(&format!(
                    "  {} ×{} ({}{})",
                    reason.wording(),
                    r.count,
                    r.reason,
                    r.resource.map(|a| format!(" on {a}")).unwrap_or_default()
                ))
                .into_owned(),
                false,
            ));
        }
        lines.push((String::new(), false));
    }
    match row.sent.as_deref() {
        Some(body) => {
            let text = serde_json::from_str::<serde_json::Value>(body)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| body.to_string());
            lines.extend(text.lines().map(|l| (sanitize(l).into_owned(), false)));
        }
        None => lines.push((
            "the request body was not recorded for this row".into(),
            true,
        )),
    }
    let mut rows = Vec::with_capacity(lines.len());
    for (line, dim) in lines {
        let starts = row_starts(&line, width);
        for (i, &start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(line.len());
            rows.push((line[start..end].to_string(), dim));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::traffic::throttle::ThrottleReason;

    #[test]
    fn a_throttled_request_says_why_above_its_body() {
        let arn = "arn:aws:dynamodb:us-east-1:1:table/T/index/GSI1";
        let attempts = crate::model::engine::attempts::AttemptStats {
            attempts: 3,
            throttles: 2,
            throttle_reason: None,
            reasons: vec![
                ThrottleReason::new(
                    "IndexWriteKeyRangeThroughputExceeded",
                    Some(arn.into())
                );
                2
            ],
        };
        let row = RequestRow::from_write(
            1,
            "PutItem",
            1,
            Default::default(),
            std::time::Duration::ZERO,
            &attempts,
            Some("{}".into()),
        );
        let text: Vec<String> = sent_lines(&row, 200).into_iter().map(|(l, _)| l).collect();
        assert_eq!(text[2], "throttled 2 of 3 attempts:");
        assert_eq!(
            text[3],
            format!(
                "  hot key range · index GSI1 ×2 (IndexWriteKeyRangeThroughputExceeded on {arn})"
            )
        );
    }
}
