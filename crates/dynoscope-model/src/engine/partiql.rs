//! The read a translated PartiQL statement runs as. One that cannot be translated is sent as
//! ExecuteStatement by the read engine itself ([`ReadSpec::statement`]), under the same guard.

use super::{Operation, ReadSpec};
use crate::engine::read_cause::ReadCause;
use crate::query::partiql::{Plan, ReadKind};

/// The read a translated statement runs as, in the explorer and in `dynoscope partiql` alike:
/// several Queries are the shards of one read, merged as sharded reads are.
pub fn plan_read(plan: &Plan) -> ReadSpec {
    let operation = match plan.kind {
        ReadKind::Query => Operation::Query,
        ReadKind::Scan => Operation::Scan,
    };
    // The user ran the statement: its cause whether it runs as Query, Scan or as it is.
    let mut spec = ReadSpec::new(operation, &plan.table, ReadCause::Statement);
    spec.index = plan.index.clone();
    spec.key_condition = plan.key_condition.clone();
    spec.filter = plan.filter.clone();
    spec.projection = plan.projection.clone();
    spec.names = plan.names.clone();
    spec.values = plan.values.clone();
    spec.descending = plan.descending;
    if !plan.queries.is_empty() {
        spec.shards = plan.request_values();
        spec.limit_per_segment = true;
    }
    spec
}
