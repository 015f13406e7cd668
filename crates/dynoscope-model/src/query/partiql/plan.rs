//! What a translated SELECT sends: one Query, several Queries merged in sort-key order, or a
//! Scan, spelled with the same expressions and placeholders `query` and `scan` send.

use crate::design::collection::merge_sorted;
use crate::design::schema::KeySchema;
use crate::item::value::{AttrValue, Item};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadKind {
    Query,
    Scan,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub kind: ReadKind,
    pub table: String,
    pub index: Option<String>,
    /// The keys of the table or index read.
    pub keys: KeySchema,
    pub key_condition: Option<String>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: Vec<(String, String)>,
    /// Every value, with the first Query's key values.
    pub values: Vec<(String, AttrValue)>,
    /// Several Queries (an `IN` of partition keys): each one's key values, replacing those of
    /// the same names. Empty for one Query or a Scan.
    pub queries: Vec<Vec<(String, AttrValue)>>,
    pub descending: bool,
    /// The statement has ORDER BY: the merged result keeps sort-key order.
    pub ordered: bool,
    /// Scan-shaped statements: the top-level `attribute = value` conditions, for the index
    /// that would serve them.
    pub equalities: Vec<(String, AttrValue)>,
    /// The top-level range conditions' attributes (for a suggested index's sort key).
    pub ranges: Vec<String>,
    /// Every top-level attribute the statement names (projection, filter), for a suggested
    /// index's projection.
    pub attributes: Vec<String>,
    /// The projection asks for every attribute.
    pub all_attributes: bool,
    /// Where DynamoDB's own PartiQL reads the statement differently: why a statement that
    /// pins the partition key is still a Scan, or that an OR of partition keys is Queries here.
    pub note: Option<String>,
    /// DynamoDB's own ExecuteStatement reads the whole table or index for this statement:
    /// every Scan, and the Queries of an OR of partition keys.
    pub dynamodb_scans: bool,
}

impl Plan {
    /// How many requests' worth of reads: one per Query, one for a Scan.
    pub fn query_count(&self) -> usize {
        self.queries.len().max(1)
    }

    /// The values each request sends, in order.
    pub fn request_values(&self) -> Vec<Vec<(String, AttrValue)>> {
        if self.queries.is_empty() {
            return vec![self.values.clone()];
        }
        self.queries
            .iter()
            .map(|keys| {
                self.values
                    .iter()
                    .map(|(name, value)| {
                        let replaced = keys.iter().find(|(k, _)| k == name).map(|(_, v)| v);
                        (name.clone(), replaced.unwrap_or(value).clone())
                    })
                    .collect()
            })
            .collect()
    }

    /// The items of several Queries merged as a sharded read's are: in sort-key order
    /// (descending with `ORDER BY … DESC`), ties in request order. DynamoDB's own PartiQL
    /// returns them partition by partition instead; ORDER BY names the sort key, so the merged
    /// order is the one it asks for.
    pub fn merge(&self, per_query: Vec<Vec<Item>>) -> Vec<Item> {
        let sort: Vec<&str> = self.keys.sort().iter().map(|k| k.name.as_str()).collect();
        merge_sorted(per_query, &sort, self.descending)
    }
}
