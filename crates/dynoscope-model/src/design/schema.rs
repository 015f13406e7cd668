//! What DescribeTable tells us about a table, in terms the rest of dynoscope uses.

use serde::Serialize;

pub use super::key_schema::{
    attribute_names, KeyAttr, KeySchema, KeySchemaError, KeyType, MAX_KEY_ATTRIBUTES,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum IndexKind {
    Gsi,
    Lsi,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Projection {
    /// `ALL`, `KEYS_ONLY` or `INCLUDE`.
    #[serde(rename = "type")]
    pub projection_type: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub non_key_attributes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexInfo {
    pub name: String,
    pub kind: IndexKind,
    pub keys: KeySchema,
    pub projection: Projection,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned: Option<Throughput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item_count: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<i64>,
}

impl IndexInfo {
    /// A GSI keyed by `keys` that projects every attribute, with no throughput or counts of
    /// its own: what an index named without DescribeTable is taken to be (an export's
    /// `--index`), and the shape the demo and the tests describe.
    pub fn gsi_projecting_all(name: impl Into<String>, keys: KeySchema) -> IndexInfo {
        IndexInfo {
            name: name.into(),
            kind: IndexKind::Gsi,
            keys,
            projection: Projection {
                projection_type: "ALL".into(),
                non_key_attributes: Vec::new(),
            },
            provisioned: None,
            item_count: None,
            size_bytes: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Throughput {
    pub read_capacity_units: i64,
    pub write_capacity_units: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableInfo {
    pub name: String,
    pub status: String,
    pub keys: KeySchema,
    pub indexes: Vec<IndexInfo>,
    /// `PAY_PER_REQUEST` or `PROVISIONED`.
    pub billing_mode: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisioned: Option<Throughput>,
    pub item_count: i64,
    pub size_bytes: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl_attribute: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
    /// An on-demand table's maximum throughput (`OnDemandThroughput`), where one is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_demand_max: Option<OnDemandMax>,
}

/// The most request units per second an on-demand table may serve; past it requests throttle
/// with the `MaxOnDemandThroughputExceeded` reason. `None` on a side: no maximum set there.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OnDemandMax {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_request_units: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_request_units: Option<i64>,
}

impl OnDemandMax {
    /// DescribeTable's two numbers, where -1 (or nothing) means no maximum; `None` when
    /// neither side has one.
    pub fn of(read: Option<i64>, write: Option<i64>) -> Option<OnDemandMax> {
        let set = |n: Option<i64>| n.filter(|n| *n > 0);
        let max = OnDemandMax {
            read_request_units: set(read),
            write_request_units: set(write),
        };
        (max.read_request_units.is_some() || max.write_request_units.is_some()).then_some(max)
    }
}

impl TableInfo {
    /// Key schema of the table itself (`None`) or of a named index.
    pub fn keys_for(&self, index: Option<&str>) -> Option<&KeySchema> {
        match index {
            None => Some(&self.keys),
            Some(name) => self.index(name).map(|i| &i.keys),
        }
    }

    pub fn index(&self, name: &str) -> Option<&IndexInfo> {
        self.indexes.iter().find(|i| i.name == name)
    }

    /// Position of a read target among the choices "table, then each index": 0 for the table
    /// (or an index the table no longer has), n for its n-th index. The builder and the scan
    /// launcher cycle through targets in this order.
    pub fn target_position(&self, index: Option<&str>) -> usize {
        index
            .and_then(|name| self.indexes.iter().position(|i| i.name == name))
            .map_or(0, |p| p + 1)
    }

    /// Names of all indexes, for error messages that list the choices.
    pub fn index_names(&self) -> Vec<&str> {
        self.indexes.iter().map(|i| i.name.as_str()).collect()
    }

    /// The GSIs' names, in the table's order: what CloudWatch and Contributor Insights are
    /// asked about beside the table (an LSI shares the table's metrics).
    pub fn gsi_names(&self) -> Vec<String> {
        self.indexes
            .iter()
            .filter(|i| i.kind == IndexKind::Gsi)
            .map(|i| i.name.clone())
            .collect()
    }

    pub fn is_provisioned(&self) -> bool {
        self.billing_mode == "PROVISIONED"
    }

    /// What a one-page sample of `items` items of the table or an index should cost, priced
    /// before it is sent from DescribeTable's average item size (size ÷ count). A projection
    /// does not lower it: DynamoDB charges for the items it reads.
    /// The average item size DescribeTable gives for the table or `index` (its size over its
    /// item count, rounded up); `None` while it counts no item (figures lag up to six hours).
    pub fn average_item_bytes(&self, index: Option<&str>) -> Option<u64> {
        let (count, size) = index
            .and_then(|name| self.index(name))
            .and_then(|i| Some((i.item_count?, i.size_bytes?)))
            .unwrap_or((self.item_count, self.size_bytes));
        (count > 0 && size > 0).then(|| (size as u64).div_ceil(count as u64))
    }

    pub fn sample_units(&self, index: Option<&str>, items: u64) -> f64 {
        let (count, size) = index
            .and_then(|name| self.index(name))
            .and_then(|i| Some((i.item_count?, i.size_bytes?)))
            .unwrap_or((self.item_count, self.size_bytes));
        crate::traffic::capacity::first_page_units(
            count.max(0) as u64,
            size.max(0) as u64,
            items,
            false,
        )
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn target_positions_put_the_table_first() {
        let info = crate::fixtures::demo_info();
        assert_eq!(info.target_position(None), 0);
        assert_eq!(info.target_position(Some("GSI1")), 1);
        assert_eq!(info.target_position(Some("gone")), 0);
    }

    #[test]
    fn a_sample_is_priced_at_its_targets_average_item_size() {
        let mut info = crate::fixtures::demo_info();
        // 1,000 items of 4 KB: 100 of them are 100 blocks, 50 units eventually consistent.
        info.item_count = 1_000;
        info.size_bytes = 4_096_000;
        assert_eq!(info.sample_units(None, 100), 50.0);
        // An index with its own size is priced at its own average (400 B: 40,000 B, 10 blocks)…
        info.indexes[0].item_count = Some(1_000);
        info.indexes[0].size_bytes = Some(400_000);
        let gsi = info.indexes[0].name.clone();
        assert_eq!(info.sample_units(Some(&gsi), 100), 5.0);
        // …one without falls back to the table's; 400 KB items stop at the 1 MB page.
        info.indexes[0].size_bytes = None;
        assert_eq!(info.sample_units(Some(&gsi), 100), 50.0);
        info.size_bytes = 409_600_000;
        assert_eq!(info.sample_units(None, 100), 128.0);
    }
}
