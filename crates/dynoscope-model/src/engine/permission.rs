//! A call the credentials may not make costs only its feature: one line names the IAM
//! permission and what is skipped without it.

use serde::Serialize;

/// The error codes AWS answers a call the IAM policy does not allow with.
pub fn is_access_denied(code: &str) -> bool {
    matches!(
        code,
        "AccessDeniedException" | "AccessDenied" | "UnauthorizedOperation"
    )
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Denied {
    /// `cloudwatch:GetMetricData`.
    pub permission: &'static str,
    /// What is skipped without it: `metrics`.
    pub skipped: &'static str,
}

impl Denied {
    pub fn new(permission: &'static str, skipped: &'static str) -> Self {
        Denied {
            permission,
            skipped,
        }
    }

    /// `note: not allowed 'cloudwatch:GetMetricData': metrics are skipped; …`.
    pub fn line(&self) -> String {
        format!(
            "note: these credentials are not allowed '{}', so {} {} skipped; add it to the IAM policy to see them (the manual's docs/permissions.md lists the read-only policy)",
            self.permission,
            self.skipped,
            if self.skipped.ends_with('s') { "are" } else { "is" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_permission_and_what_is_skipped() {
        let d = Denied::new("cloudwatch:GetMetricData", "the metrics");
        assert_eq!(
            d.line(),
            "note: these credentials are not allowed 'cloudwatch:GetMetricData', so the metrics are skipped; add it to the IAM policy to see them (the manual's docs/permissions.md lists the read-only policy)"
        );
        assert!(
            Denied::new("dynamodb:DescribeTimeToLive", "the TTL attribute")
                .line()
                .contains("attribute is skipped")
        );
        assert!(is_access_denied("AccessDeniedException") && !is_access_denied("Throttling"));
    }
}
