//! From the read flags to a checked `ReadSpec`: names and values parsed, expressions checked,
//! every placeholder used, the guards' ranges, and the key columns a `table` output puts first.

use super::args::ReadArgs;
use super::CliError;
use crate::aws::ReadCause;
use crate::aws::{Operation, ReadSpec};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::{parse_dynamo_values, parse_names, parse_plain_values};
use crate::model::input::limits;
use crate::model::item::value::AttrValue;
use crate::model::query::expression::check_expression;

pub(super) fn index_keys(
    info: &TableInfo,
    index: Option<&str>,
) -> Result<crate::model::design::schema::KeySchema, CliError> {
    info.keys_for(index).cloned().ok_or_else(|| {
        let choices = info.index_names();
        let list = if choices.is_empty() {
            "it has no indexes".to_string()
        } else {
            format!("its indexes are: {}", choices.join(", "))
        };
        CliError::bad_input(format!(
            "index '{}' not found on table '{}'; {list}",
            index.unwrap_or_default(),
            info.name
        ))
    })
}

type Names = Vec<(String, String)>;
type Values = Vec<(String, AttrValue)>;

pub(super) fn user_names_values(read: &ReadArgs) -> Result<(Names, Values), CliError> {
    let names = match &read.names {
        Some(text) => parse_names("--names", text)?,
        None => Vec::new(),
    };
    let values = match (&read.values, &read.expression_attribute_values) {
        (Some(text), _) => parse_plain_values(text)?,
        (None, Some(text)) => parse_dynamo_values(text)?,
        (None, None) => Vec::new(),
    };
    for (name, _) in &names {
        if !name.starts_with('#') {
            return Err(CliError::bad_input(format!(
                "attribute name placeholder '{name}' must start with '#', e.g. '#status'"
            )));
        }
    }
    for (name, _) in &values {
        if !name.starts_with(':') {
            return Err(CliError::bad_input(format!(
                "value placeholder '{name}' must start with ':', e.g. ':status'"
            )));
        }
    }
    Ok((names, values))
}

/// Adds the key condition's own placeholders; a user placeholder of the same name would be
/// ambiguous, so it is refused rather than silently replaced.
pub(super) fn merge<V>(
    into: &mut Vec<(String, V)>,
    add: Vec<(String, V)>,
    flag: &str,
) -> Result<(), CliError> {
    for (name, value) in add {
        if into.iter().any(|(n, _)| *n == name) {
            return Err(CliError::bad_input(format!(
                "placeholder '{name}' in {flag} is reserved for the key condition built from --pk/--sk-*; rename yours"
            )));
        }
        into.push((name, value));
    }
    Ok(())
}

pub(super) fn read_spec(
    operation: Operation,
    table: &str,
    read: &ReadArgs,
    names: Names,
    values: Values,
) -> Result<ReadSpec, CliError> {
    // clap checks the flags; `run` also takes its limit from the pattern.
    let counts = [
        ("--limit", read.limit.map(|n| n as u64), limits::LIMIT),
        (
            "--page-size",
            read.page_size.map(|n| u64::try_from(n).unwrap_or(0)),
            limits::PAGE_SIZE,
        ),
    ];
    for (flag, value, range) in counts {
        if let Some(v) = value.filter(|v| !range.contains(*v)) {
            return Err(CliError::bad_input(format!(
                "{flag} '{v}' is out of range; use {}",
                range.describe()
            )));
        }
    }
    if let Some(filter) = &read.filter {
        check_expression("filter", filter, &names, &values)?;
    }
    if let Some(projection) = &read.projection {
        check_expression("projection", projection, &names, &values)?;
    }
    check_guard_flags(read.max_rcu, read.rcu_per_second)?;
    if read.columns.is_some() && read.output != super::output::OutputFormat::Csv {
        return Err(CliError::bad_input(
            "--columns chooses the columns of --output csv; add --output csv or drop --columns",
        ));
    }
    let mut spec = ReadSpec::new(
        operation,
        table,
        match operation {
            Operation::Query => ReadCause::Query,
            _ => ReadCause::Scan,
        },
    );
    spec.budget.max_rcu = read.max_rcu;
    spec.budget.rcu_per_second = read.rcu_per_second;
    spec.index = read.index.clone();
    spec.filter = read.filter.clone();
    spec.projection = read.projection.clone();
    spec.consistent = read.consistent;
    spec.limit = read.limit;
    spec.page_size = read.page_size;
    spec.names = names;
    spec.values = values;
    Ok(spec)
}

/// `--max-rcu` and `--rcu-per-second` as `ReadArgs` hold them: clap checked the flags'
/// ranges, but a pattern or a caller building the arguments may not have.
pub(super) fn check_guard_flags(
    max_rcu: Option<f64>,
    rcu_per_second: Option<f64>,
) -> Result<(), CliError> {
    for (flag, value, range) in [
        ("--max-rcu", max_rcu, limits::MAX_RCU),
        ("--rcu-per-second", rcu_per_second, limits::RCU_PER_SECOND),
    ] {
        if let Some(v) = value.filter(|v| !range.contains(*v)) {
            return Err(CliError::bad_input(format!(
                "{flag} '{v}' is out of range; use {}",
                range.describe()
            )));
        }
    }
    Ok(())
}

/// DynamoDB rejects placeholders that no expression uses; say which one before sending.
pub(super) fn check_all_used(spec: &ReadSpec) -> Result<(), CliError> {
    let expressions: Vec<&str> = [&spec.key_condition, &spec.filter, &spec.projection]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let used = |placeholder: &str| {
        expressions.iter().any(|e| {
            e.match_indices(placeholder).any(|(at, _)| {
                let next = e[at + placeholder.len()..].chars().next();
                !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
    };
    for name in spec
        .names
        .iter()
        .map(|(n, _)| n)
        .chain(spec.values.iter().map(|(v, _)| v))
    {
        if !used(name) {
            return Err(CliError::bad_input(format!(
                "placeholder '{name}' is defined but no expression uses it; remove it or use it"
            )));
        }
    }
    Ok(())
}

/// The key attributes a `table` output shows first: the table's keys, then the index's.
pub(super) fn key_columns(info: &TableInfo, index: Option<&str>) -> Vec<String> {
    let keys = info
        .keys_for(index)
        .cloned()
        .unwrap_or_else(|| info.keys.clone());
    let mut key_names = info.keys.names();
    for name in keys.names() {
        if !key_names.contains(&name) {
            key_names.push(name);
        }
    }
    key_names
}
