//! What a pattern sends, read from the pattern and DescribeTable alone: GetItem, one Query on
//! the table or an index, one Query per write shard, or a Scan when the index it names does
//! not exist; and whether the index's projection fits the attributes the pattern needs.

use serde::Serialize;

use crate::design::access_pattern::{AccessPattern, SortTemplate};
use crate::design::schema::{IndexKind, TableInfo};

/// A GSI at least this big makes an ALL projection a cost finding, not a remark: every write
/// to the table copies the whole item into it.
pub const BIG_GSI_BYTES: i64 = 1 << 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ReadShape {
    /// Both keys of the table fixed: one item.
    GetItem,
    Query {
        index: Option<String>,
    },
    ShardedQueries {
        index: Option<String>,
        shards: u32,
    },
    /// The pattern names an index the table does not have: only a Scan can answer it.
    Scan {
        missing_index: String,
    },
}

impl ReadShape {
    pub fn describe(&self) -> String {
        match self {
            ReadShape::GetItem => "GetItem".into(),
            ReadShape::Query { index: None } => "Query on the table".into(),
            ReadShape::Query { index: Some(i) } => format!("Query on {i}"),
            ReadShape::ShardedQueries { index, shards } => format!(
                "{shards} Queries (write shards) on {}",
                index.as_deref().unwrap_or("the table")
            ),
            ReadShape::Scan { missing_index } => {
                format!("Scan (no index '{missing_index}' on the table)")
            }
        }
    }
}

/// How the index's projection fits what the pattern reads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "fit", rename_all = "kebab-case")]
pub enum ProjectionFit {
    /// The projection holds what the pattern needs, and no more than a narrower one would.
    Fits,
    /// KEYS_ONLY or INCLUDE without these attributes: each item is fetched back from the table.
    NeedsFetch { missing: Vec<String> },
    /// ALL where this narrower projection would do.
    Wider { would_do: String, big: bool },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PatternPlan {
    pub shape: ReadShape,
    /// `ALL`, `KEYS_ONLY` or `INCLUDE` of the index read; `None` for the table.
    pub projection: Option<String>,
    pub fit: Option<ProjectionFit>,
    /// The key attributes the pattern's templates spell, in key-schema order: the index's
    /// (several on a multi-attribute GSI), or those the pattern declares for a missing one.
    /// Empty when a missing index's keys are not known.
    pub pk_attributes: Vec<String>,
    pub sk_attributes: Vec<String>,
    /// The read's partition key is a GSI's (its cardinality is a risk to check).
    pub reads_gsi: bool,
}

/// Top-level attribute names an expression list names: `#n, a.b, c[0]` → `name, a, c`.
pub fn named_attributes(pattern: &AccessPattern, expression: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in expression.split(',') {
        let head = part
            .trim()
            .split(['.', '['])
            .next()
            .unwrap_or_default()
            .trim();
        let name = match head.strip_prefix('#') {
            Some(_) => pattern.names.get(head).cloned(),
            None => (!head.is_empty()).then(|| head.to_string()),
        };
        if let Some(name) = name.filter(|n| !out.contains(n)) {
            out.push(name);
        }
    }
    out
}

pub fn plan(pattern: &AccessPattern, info: &TableInfo) -> PatternPlan {
    let index = pattern.index.as_deref();
    let Some(keys) = info.keys_for(index) else {
        return PatternPlan {
            shape: ReadShape::Scan {
                missing_index: index.unwrap_or_default().to_string(),
            },
            projection: None,
            fit: None,
            pk_attributes: pattern.index_pk.clone(),
            sk_attributes: pattern.index_sk.clone(),
            reads_gsi: false,
        };
    };
    // An equality on every key attribute of the table is one item.
    let sort_equalities =
        pattern.sk_eq.len() + usize::from(matches!(pattern.sk, Some(SortTemplate::Eq(_))));
    let whole_key = pattern.pk.len() == keys.partition().len()
        && sort_equalities == keys.sort().len()
        && (pattern.sk.is_none() || matches!(pattern.sk, Some(SortTemplate::Eq(_))));
    let shape = match (&pattern.shards, index) {
        (Some(range), _) => ReadShape::ShardedQueries {
            index: index.map(str::to_string),
            shards: crate::design::access_pattern::parse_shards(range)
                .map(|(a, b)| b - a + 1)
                .unwrap_or(1),
        },
        (None, None) if whole_key => ReadShape::GetItem,
        _ => ReadShape::Query {
            index: index.map(str::to_string),
        },
    };
    let read_index = index.and_then(|name| info.index(name));
    let fit = read_index.map(|ix| {
        let mut covered = info.keys.names();
        covered.extend(ix.keys.names());
        covered.extend(ix.projection.non_key_attributes.iter().cloned());
        let needed = pattern
            .projection
            .as_deref()
            .map(|p| named_attributes(pattern, p));
        match (ix.projection.projection_type.as_str(), needed) {
            ("ALL", Some(needed)) => {
                let extra: Vec<String> = needed
                    .into_iter()
                    .filter(|n| !covered.contains(n))
                    .collect();
                let would_do = if extra.is_empty() {
                    "KEYS_ONLY".to_string()
                } else {
                    format!("INCLUDE ({})", extra.join(", "))
                };
                ProjectionFit::Wider {
                    would_do,
                    big: ix.kind == IndexKind::Gsi
                        && ix.size_bytes.is_some_and(|b| b >= BIG_GSI_BYTES),
                }
            }
            ("ALL", None) => ProjectionFit::Fits,
            (_, None) => ProjectionFit::NeedsFetch {
                missing: vec!["every attribute (the pattern projects nothing)".into()],
            },
            (_, Some(needed)) => {
                let missing: Vec<String> = needed
                    .into_iter()
                    .filter(|n| !covered.contains(n))
                    .collect();
                if missing.is_empty() {
                    ProjectionFit::Fits
                } else {
                    ProjectionFit::NeedsFetch { missing }
                }
            }
        }
    });
    PatternPlan {
        shape,
        projection: read_index.map(|ix| ix.projection.projection_type.clone()),
        fit,
        pk_attributes: keys.partition().iter().map(|k| k.name.clone()).collect(),
        sk_attributes: keys.sort().iter().map(|k| k.name.clone()).collect(),
        reads_gsi: read_index.is_some_and(|ix| ix.kind == IndexKind::Gsi),
    }
}
