//! Why DynamoDB throttled a request, in its own words: each `ThrottlingReason` of a
//! `ProvisionedThroughputExceededException`, `ThrottlingException` or `RequestLimitExceeded`
//! is a `reason` (`ResourceType` + `OperationType` + `LimitType`, e.g.
//! `IndexWriteKeyRangeThroughputExceeded`) and the ARN of the throttled table or index.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ThrottleReason {
    /// As the service sent it (`TableReadKeyRangeThroughputExceeded`); empty when absent.
    pub reason: String,
    /// The table's or index's ARN, when the service named it.
    pub resource: Option<String>,
}

/// Why the request was throttled: the `LimitType` part of a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Limit {
    /// Too much traffic on one partition key: a hot key, whatever the capacity.
    KeyRange,
    /// Over the table's or index's provisioned RCU/WCU.
    Provisioned,
    /// An on-demand table over the account's per-table quota.
    AccountLimit,
    /// An on-demand table over the maximum throughput configured on it.
    MaxOnDemand,
    /// A reason this version does not know.
    Other,
}

impl Limit {
    pub fn wording(self) -> &'static str {
        match self {
            Limit::KeyRange => "hot key range",
            Limit::Provisioned => "over provisioned capacity",
            Limit::AccountLimit => "account limit",
            Limit::MaxOnDemand => "max on-demand throughput",
            Limit::Other => "throttled",
        }
    }

    /// Short enough for a table cell: `hot key range`, `over capacity`.
    pub fn short(self) -> &'static str {
        match self {
            Limit::Provisioned => "over capacity",
            Limit::MaxOnDemand => "max on-demand",
            other => other.wording(),
        }
    }

    /// The limit is the account's or the table's setting, not a hot key.
    pub fn is_a_setting(self) -> bool {
        matches!(self, Limit::AccountLimit | Limit::MaxOnDemand)
    }
}

/// The table or index a reason's ARN names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resource {
    Table(String),
    Index { table: String, index: String },
}

impl Resource {
    /// From `arn:aws:dynamodb:REGION:ACCOUNT:table/T` or `…:table/T/index/I`.
    pub fn from_arn(arn: &str) -> Option<Resource> {
        let path = arn.split_once(":table/").map(|(_, p)| p)?;
        let mut parts = path.splitn(3, '/');
        let table = parts.next().filter(|t| !t.is_empty())?.to_string();
        match (parts.next(), parts.next()) {
            (Some("index"), Some(index)) if !index.is_empty() => Some(Resource::Index {
                table,
                index: index.to_string(),
            }),
            (None, _) => Some(Resource::Table(table)),
            _ => None,
        }
    }

    pub fn wording(&self) -> String {
        match self {
            Resource::Table(t) => format!("table {t}"),
            Resource::Index { index, .. } => format!("index {index}"),
        }
    }
}

impl ThrottleReason {
    pub fn new(reason: impl Into<String>, resource: Option<String>) -> Self {
        ThrottleReason {
            reason: reason.into(),
            resource,
        }
    }

    pub fn limit(&self) -> Limit {
        let r = self.reason.as_str();
        if r.ends_with("KeyRangeThroughputExceeded") {
            Limit::KeyRange
        } else if r.ends_with("ProvisionedThroughputExceeded") {
            Limit::Provisioned
        } else if r.ends_with("AccountLimitExceeded") {
            Limit::AccountLimit
        } else if r.ends_with("MaxOnDemandThroughputExceeded") {
            Limit::MaxOnDemand
        } else {
            Limit::Other
        }
    }

    pub fn on_index(&self) -> bool {
        self.reason.starts_with("Index")
    }

    pub fn is_write(&self) -> bool {
        self.reason.starts_with("TableWrite") || self.reason.starts_with("IndexWrite")
    }

    pub fn resource(&self) -> Option<Resource> {
        self.resource.as_deref().and_then(Resource::from_arn)
    }

    /// `hot key range · index GSI1`: the request log's and the notes' words for it.
    pub fn wording(&self) -> String {
        let what = match self.limit() {
            Limit::Other if !self.reason.is_empty() => self.reason.clone(),
            limit => limit.wording().to_string(),
        };
        match (self.resource(), self.resource.as_deref()) {
            (Some(r), _) => format!("{what} · {}", r.wording()),
            (None, Some(raw)) if !raw.is_empty() => format!("{what} · {raw}"),
            _ => what,
        }
    }
}

impl ThrottleReason {
    /// `hot key range · GSI1`, `over capacity · table`: the request log row's cell.
    pub fn short(&self) -> String {
        let what = match self.limit() {
            Limit::Other if !self.reason.is_empty() => self.reason.as_str(),
            limit => limit.short(),
        };
        match self.resource() {
            Some(Resource::Index { index, .. }) => format!("{what} · {index}"),
            Some(Resource::Table(_)) => format!("{what} · table"),
            None => what.to_string(),
        }
    }
}

/// Each distinct reason and resource, with how many throttled attempts gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReasonCounts(BTreeMap<ThrottleReason, u64>);

/// One row of [`ReasonCounts`] as `--stats` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReasonCount {
    pub reason: String,
    pub resource: Option<String>,
    pub count: u64,
}

impl std::fmt::Display for ReasonCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.wording())
    }
}

impl ReasonCounts {
    pub fn of(reasons: &[ThrottleReason]) -> Self {
        let mut counts = ReasonCounts::default();
        counts.add_all(reasons);
        counts
    }

    pub fn add(&mut self, reason: &ThrottleReason) {
        *self.0.entry(reason.clone()).or_insert(0) += 1;
    }

    pub fn add_all<'a>(&mut self, reasons: impl IntoIterator<Item = &'a ThrottleReason>) {
        for r in reasons {
            self.add(r);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Most frequent first; ties in reason order.
    pub fn rows(&self) -> Vec<ReasonCount> {
        let mut rows: Vec<ReasonCount> = self
            .0
            .iter()
            .map(|(r, n)| ReasonCount {
                reason: r.reason.clone(),
                resource: r.resource.clone(),
                count: *n,
            })
            .collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.count));
        rows
    }

    /// `hot key range · index GSI1 ×12, over provisioned capacity · table T ×1`.
    pub fn wording(&self) -> String {
        self.rows()
            .iter()
            .map(|r| {
                let reason = ThrottleReason::new(r.reason.clone(), r.resource.clone());
                format!("{} ×{}", reason.wording(), r.count)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl Serialize for ReasonCountsRows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.rows().serialize(s)
    }
}

/// [`ReasonCounts`] serialised as its rows: `[{"reason", "resource", "count"}]`.
pub struct ReasonCountsRows<'a>(pub &'a ReasonCounts);

/// Serialises [`ReasonCounts`] as its rows (for `#[serde(serialize_with)]`).
pub fn serialize_rows<S: serde::Serializer>(
    counts: &ReasonCounts,
    s: S,
) -> Result<S::Ok, S::Error> {
    ReasonCountsRows(counts).serialize(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GSI: &str = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders/index/GSI1";
    const TABLE: &str = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders";

    #[test]
    fn reasons_read_as_the_limit_and_the_resource() {
        let cases = [
            (
                "IndexReadKeyRangeThroughputExceeded",
                Some(GSI),
                Limit::KeyRange,
                "hot key range · index GSI1",
            ),
            (
                "TableWriteProvisionedThroughputExceeded",
                Some(TABLE),
                Limit::Provisioned,
                "over provisioned capacity · table Orders",
            ),
            (
                "TableReadAccountLimitExceeded",
                None,
                Limit::AccountLimit,
                "account limit",
            ),
            (
                "IndexWriteMaxOnDemandThroughputExceeded",
                Some("not-an-arn"),
                Limit::MaxOnDemand,
                "max on-demand throughput · not-an-arn",
            ),
            ("SomethingNew", None, Limit::Other, "SomethingNew"),
        ];
        for (reason, resource, limit, wording) in cases {
            let r = ThrottleReason::new(reason, resource.map(str::to_string));
            assert_eq!(r.limit(), limit, "{reason}");
            assert_eq!(r.wording(), wording, "{reason}");
        }
        let w = ThrottleReason::new("IndexWriteKeyRangeThroughputExceeded", None);
        assert!(w.is_write() && w.on_index());
        let hot = ThrottleReason::new("IndexReadKeyRangeThroughputExceeded", Some(GSI.into()));
        assert_eq!(hot.short(), "hot key range · GSI1");
        let over =
            ThrottleReason::new("TableReadProvisionedThroughputExceeded", Some(TABLE.into()));
        assert_eq!(over.short(), "over capacity · table");
        assert!(Limit::MaxOnDemand.is_a_setting() && !Limit::KeyRange.is_a_setting());
    }

    #[test]
    fn arns_name_tables_and_indexes() {
        assert_eq!(
            Resource::from_arn(GSI),
            Some(Resource::Index {
                table: "Orders".into(),
                index: "GSI1".into()
            })
        );
        assert_eq!(
            Resource::from_arn(TABLE),
            Some(Resource::Table("Orders".into()))
        );
        assert_eq!(
            Resource::from_arn("arn:aws:dynamodb:r:a:table/T/stream/x"),
            None
        );
        assert_eq!(Resource::from_arn("table"), None);
    }

    #[test]
    fn counts_list_the_most_frequent_first() {
        let hot = ThrottleReason::new("IndexReadKeyRangeThroughputExceeded", Some(GSI.into()));
        let over =
            ThrottleReason::new("TableReadProvisionedThroughputExceeded", Some(TABLE.into()));
        let mut counts = ReasonCounts::default();
        counts.add_all([&over, &hot, &hot]);
        assert_eq!(
            counts.wording(),
            "hot key range · index GSI1 ×2, over provisioned capacity · table Orders ×1"
        );
        let json = serde_json::to_string(&ReasonCountsRows(&counts)).unwrap();
        assert_eq!(
            json,
            format!(
                r#"[{{"reason":"IndexReadKeyRangeThroughputExceeded","resource":"{GSI}","count":2}},{{"reason":"TableReadProvisionedThroughputExceeded","resource":"{TABLE}","count":1}}]"#
            )
        );
    }
}
