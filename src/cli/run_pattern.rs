//! `run PATTERN`: a named access pattern with its parameters bound, run as the `query` it
//! stands for (`--pk` and `--sk-eq` once per template on a multi-attribute GSI).

use std::collections::BTreeMap;

use super::args::{QueryArgs, ReadArgs, RunArgs, SortArgs};
use super::read_cmd::run_checked_query;
use super::CliError;
use crate::aws::Engine;
use crate::model::design::access_pattern::{self, AccessPattern};
use crate::model::design::schema::KeySchema;
use crate::model::query::key_condition::SortInput;

/// `run PATTERN`: binds the pattern's parameters and runs it as the equivalent `query`.
pub async fn run_pattern(
    engine: &Engine,
    patterns: &[AccessPattern],
    args: RunArgs,
) -> Result<(), CliError> {
    let pattern = access_pattern::find(patterns, &args.pattern)?;
    let mut params = BTreeMap::new();
    for pair in &args.params {
        let (name, value) = pair.split_once('=').ok_or_else(|| {
            CliError::bad_input(format!(
                "--param '{pair}' is not NAME=VALUE; write e.g. --param status=SHIPPED"
            ))
        })?;
        if let Some(earlier) = params.insert(name.to_string(), value.to_string()) {
            return Err(CliError::bad_input(format!(
                "--param '{name}' is given twice ('{earlier}' and '{value}'); pass it once"
            )));
        }
    }
    let bound = pattern.bind(&params)?;
    let names =
        (!bound.names.is_empty()).then(|| serde_json::to_string(&bound.names).unwrap_or_default());
    let (sort, pk_shards) = (
        sort_args(bound.sort_prefix.clone(), bound.sort.clone()),
        bound.shards.map(|(a, b)| format!("{a}..{b}")),
    );
    // A template per partition attribute and per sort-prefix attribute, as `query` takes
    // --pk and --sk-eq repeated; a pattern that does not fit the key of what it reads is
    // refused in its own terms (pk, sk_eq) before anything is sent.
    let shape = bound.clone();
    let check = move |keys: &KeySchema, target: &str| shape.check_keys(keys, target);
    let query = QueryArgs {
        table: args.table.unwrap_or(bound.table),
        pk: bound.pk,
        sort,
        desc: bound.descending,
        pk_shards,
        key_condition_expression: None,
        read: ReadArgs {
            index: bound.index,
            limit: args.limit.or(bound.limit),
            consistent: false,
            filter: bound.filter,
            projection: bound.projection,
            names,
            values: bound.values,
            expression_attribute_values: None,
            output: args.output,
            columns: args.columns,
            stats: args.stats,
            page_size: None,
            max_rcu: args.max_rcu,
            rcu_per_second: args.rcu_per_second,
        },
    };
    run_checked_query(engine, query, &check).await
}

/// The sort flags `query` takes for a sort prefix and a condition on the next attribute.
fn sort_args(prefix: Vec<String>, sort: Option<SortInput>) -> SortArgs {
    let mut args = SortArgs {
        sk_eq: prefix,
        ..SortArgs::default()
    };
    match sort {
        None => {}
        Some(SortInput::Eq(v)) => args.sk_eq.push(v),
        Some(SortInput::Lt(v)) => args.sk_lt = Some(v),
        Some(SortInput::Le(v)) => args.sk_le = Some(v),
        Some(SortInput::Gt(v)) => args.sk_gt = Some(v),
        Some(SortInput::Ge(v)) => args.sk_ge = Some(v),
        Some(SortInput::Between(a, b)) => args.sk_between = Some(vec![a, b]),
        Some(SortInput::BeginsWith(v)) => args.sk_begins = Some(v),
    }
    args
}
