//! What a read of an export does with its spec: a Query becomes a Scan with its key condition
//! as a filter, and the filter and projection are compiled to run here, as DynamoDB would run
//! them on the server.

use crate::aws::error::EngineError;
use crate::aws::read::{Operation, ReadSpec};
use crate::model::query::expression::{ItemFilter, ItemProjection};

/// A Query of an export (the explorer's collections, `p`, relations): the files have no key
/// order to seek in, so it reads them all, keeping the items its key condition matches.
pub(super) fn query_as_scan(mut spec: ReadSpec) -> Result<ReadSpec, EngineError> {
    if spec.operation != Operation::Query {
        return Ok(spec);
    }
    if !spec.shards.is_empty() {
        return Err(EngineError::bad_input(
            "a write-sharded key is not read from an export; filter its shards with / instead",
        ));
    }
    spec.filter = match (spec.key_condition.take(), spec.filter.take()) {
        (Some(key), Some(filter)) => Some(format!("({key}) AND ({filter})")),
        (key, filter) => key.or(filter),
    };
    spec.operation = Operation::Scan;
    Ok(spec)
}

pub(super) fn compile(
    spec: &ReadSpec,
) -> Result<(Option<ItemFilter>, Option<ItemProjection>), EngineError> {
    let filter = spec
        .filter
        .as_deref()
        .map(|f| ItemFilter::compile(f, &spec.names, &spec.values))
        .transpose()
        .map_err(EngineError::bad_input)?;
    let projection = spec
        .projection
        .as_deref()
        .map(|p| ItemProjection::compile(p, &spec.names))
        .transpose()
        .map_err(EngineError::bad_input)?;
    Ok((filter, projection))
}
