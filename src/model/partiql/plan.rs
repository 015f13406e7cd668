//! What a translated SELECT sends: one Query, several Queries merged in sort-key order, or a
//! Scan, spelled with the same expressions and placeholders `query` and `scan` send.

use std::cmp::Ordering;

use crate::model::collection::dynamo_cmp;
use crate::model::schema::KeySchema;
use crate::model::value::{AttrValue, Item};

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
    /// Why a statement that pins the partition key is still a Scan.
    pub note: Option<String>,
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

    /// The items of several Queries in the order DynamoDB's PartiQL returns them: by partition
    /// key, then by sort key (descending with `ORDER BY … DESC`), ties in request order.
    pub fn merge(&self, per_query: Vec<Vec<Item>>) -> Vec<Item> {
        let mut all: Vec<Item> = per_query.into_iter().flatten().collect();
        let by = |name: &str, a: &Item, b: &Item| match (a.get(name), b.get(name)) {
            (Some(x), Some(y)) => dynamo_cmp(x, y),
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        let pk = self.keys.partition_key.name.clone();
        let sk = self.keys.sort_key.as_ref().map(|k| k.name.clone());
        all.sort_by(|a, b| {
            by(&pk, a, b).then_with(|| {
                let within = sk.as_deref().map_or(Ordering::Equal, |sk| by(sk, a, b));
                if self.descending {
                    within.reverse()
                } else {
                    within
                }
            })
        });
        all
    }
}
