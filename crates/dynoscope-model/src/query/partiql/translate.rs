//! From a parsed SELECT to the Query or Scan DynamoDB would run for it: the partition key
//! pinned with `=` (or an `IN`/`OR` of equalities, several Queries) makes a Query; anything
//! else reads the whole table or index. A multi-attribute key's Query is `multi_key`'s.

use super::ast::{CmpOp, Direction, Expr, Func, Operand, Select};
use super::error::PartiqlError;
use super::filter::{attributes, Spelling};
use super::multi_key::{self, MultiKey};
use super::plan::{Plan, ReadKind};
use crate::design::schema::{KeyAttr, TableInfo};
use crate::item::value::{same_value, AttrValue};
use crate::query::key_condition::{KeyCondition, KeyValue, SortCondition};

/// DynamoDB's own cap on the partition-key values of a PartiQL `IN`.
pub const MAX_QUERIES: usize = 50;

pub fn translate(
    select: &Select,
    parameters: &[AttrValue],
    info: &TableInfo,
) -> Result<Plan, PartiqlError> {
    if parameters.len() != select.parameters {
        return Err(PartiqlError::bad_input(format!(
            "the statement has {} ? {} but --parameters gives {}; pass one value per ?",
            select.parameters,
            if select.parameters == 1 {
                "parameter"
            } else {
                "parameters"
            },
            parameters.len()
        )));
    }
    if select.table != info.name {
        return Err(PartiqlError::bad_input(format!(
            "the statement reads '{}' but the table described is '{}'",
            select.table, info.name
        )));
    }
    let keys = info
        .keys_for(select.index.as_deref())
        .cloned()
        .ok_or_else(|| {
            let names = info.index_names();
            let list = if names.is_empty() {
                "it has no indexes".to_string()
            } else {
                format!("its indexes are: {}", names.join(", "))
            };
            PartiqlError::bad_input(format!(
                "index '{}' not found on table '{}'; {list}",
                select.index.as_deref().unwrap_or_default(),
                info.name
            ))
        })?;
    let filter = select.filter.as_ref().map(|f| bind(f, parameters));
    let mut conjuncts = Vec::new();
    if let Some(f) = filter {
        flatten(f, &mut conjuncts);
    }
    let mut plan = Plan {
        kind: ReadKind::Scan,
        table: select.table.clone(),
        index: select.index.clone(),
        keys: keys.clone(),
        key_condition: None,
        filter: None,
        projection: None,
        names: Vec::new(),
        values: Vec::new(),
        queries: Vec::new(),
        descending: false,
        ordered: false,
        equalities: Vec::new(),
        ranges: Vec::new(),
        attributes: Vec::new(),
        all_attributes: select.projection.is_none(),
        note: None,
        dynamodb_scans: false,
    };
    for c in &conjuncts {
        attributes(c, &mut plan.attributes);
    }
    let mut spelling = Spelling::default();
    let pk_name = keys.partition_key().name.clone();
    // A multi-attribute key is read by `multi_key`; the one-attribute partition key here.
    let pk_at = match keys.is_multi_attribute() {
        true => None,
        false => conjuncts
            .iter()
            .position(|c| partition_values(c, &pk_name).is_some()),
    };
    let multi = match keys.is_multi_attribute() {
        true => multi_key::take(&mut conjuncts, &keys)?,
        false => MultiKey::Scan,
    };
    if let MultiKey::Beyond(key) = &multi {
        plan.note = Some(beyond_note(key));
    }
    let mut query = None;
    if let Some(at) = pk_at {
        let mut rest = conjuncts.clone();
        let pinned = rest.remove(at);
        let pk_values = partition_values(&pinned, &pk_name).expect("found above");
        let sort = take_sort(&mut rest, &keys)?;
        let beyond = rest.iter().find_map(|c| {
            let mut named = Vec::new();
            attributes(c, &mut named);
            named.into_iter().find(|a| keys.names().contains(a))
        });
        match beyond {
            Some(key) => plan.note = Some(beyond_note(&key)),
            None => {
                if matches!(pinned, Expr::Or(..)) {
                    // DynamoDB's PartiQL queries an IN but scans the same keys written as an OR
                    // (DynamoDB Local shows it: tests/integration/partiql_oracle.rs); both are one Query
                    // per value here.
                    plan.dynamodb_scans = true;
                    plan.note = Some(format!(
                        "DynamoDB's own ExecuteStatement would scan {} for an OR of partition keys; dynoscope runs one Query per value, as for {pk_name} IN [...]",
                        whole(select)
                    ));
                }
                conjuncts = rest;
                query = Some((pk_values, sort));
            }
        }
    }
    if let MultiKey::Query(condition) = multi {
        if select.order_by.is_some() {
            return Err(PartiqlError::bad_input(format!(
                "ORDER BY on {}, keyed by {}, is not translated; drop it: a Query returns items in the order of all its sort attributes",
                target(select),
                keys.display()
            )));
        }
        let parts = condition.to_expression();
        plan.kind = ReadKind::Query;
        plan.key_condition = Some(parts.key_condition);
        spelling = Spelling::beside(parts.names, parts.values);
    } else if let Some((pk_values, sort)) = query {
        let pk_typed = dedup(pk_values)
            .iter()
            .map(|v| KeyValue::from_attr(v, keys.partition_key()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PartiqlError::bad_input(e.to_string()))?;
        if pk_typed.len() > MAX_QUERIES {
            return Err(PartiqlError::bad_input(format!(
                "the statement asks for {} Queries (one per partition key value); DynamoDB takes at most {MAX_QUERIES} in an IN",
                pk_typed.len()
            )));
        }
        let condition = KeyCondition::from_typed(&keys, pk_typed[0].clone(), sort)
            .map_err(|e| PartiqlError::bad_input(e.to_string()))?;
        let parts = condition.to_expression();
        if pk_typed.len() > 1 {
            for pk in &pk_typed {
                plan.queries.push(vec![(":pk".into(), pk.to_attr())]);
            }
        }
        plan.kind = ReadKind::Query;
        plan.key_condition = Some(parts.key_condition);
        spelling = Spelling::beside(parts.names, parts.values);
        if let Some((path, direction)) = &select.order_by {
            let sk = keys.sort_key().map(|k| k.name.as_str());
            if path.single() != sk {
                return Err(PartiqlError::bad_input(format!(
                    "ORDER BY '{}' is not the sort key of {}; order by {}",
                    path.root(),
                    target(select),
                    sk.map_or("nothing: it has no sort key".to_string(), |k| format!(
                        "'{k}'"
                    ))
                )));
            }
            plan.ordered = true;
            plan.descending = *direction == Direction::Desc;
        }
    } else {
        if select.order_by.is_some() {
            return Err(PartiqlError::bad_input(format!(
                "ORDER BY needs the partition key '{}' pinned with = or IN; a Scan of {} has no order",
                keys.names()[..keys.partition().len()].join("', '"),
                target(select)
            )));
        }
        for c in &conjuncts {
            match c {
                Expr::Cmp(Operand::Path(p), CmpOp::Eq, Operand::Value(v))
                | Expr::Cmp(Operand::Value(v), CmpOp::Eq, Operand::Path(p)) => {
                    if let Some(name) = p.single() {
                        plan.equalities.push((name.to_string(), v.clone()));
                    }
                }
                Expr::Cmp(Operand::Path(p), _, Operand::Value(_))
                | Expr::Between(Operand::Path(p), ..)
                | Expr::Call(Func::BeginsWith, p, _) => {
                    if let Some(name) = p.single() {
                        plan.ranges.push(name.to_string());
                    }
                }
                _ => {}
            }
        }
    }
    let rest = conjuncts
        .into_iter()
        .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)));
    if let Some(rest) = &rest {
        plan.filter = Some(spelling.expression(rest)?);
    }
    if let Some(paths) = &select.projection {
        if let Some(nested) = paths.iter().find(|p| p.single().is_none()) {
            return Err(PartiqlError::unsupported(format!(
                "the nested path {} in the projection is not translated: PartiQL returns it as a top-level attribute, a ProjectionExpression inside its document; select '{}' instead",
                super::render::path(nested),
                nested.root()
            )));
        }
        let spelled: Vec<String> = paths.iter().map(|p| spelling.path(p)).collect();
        plan.projection = Some(spelled.join(", "));
        for p in paths {
            if !plan.attributes.contains(&p.root().to_string()) {
                plan.attributes.push(p.root().to_string());
            }
        }
    }
    plan.names = spelling.names;
    plan.values = spelling.values;
    plan.dynamodb_scans |= plan.kind == ReadKind::Scan;
    Ok(plan)
}

fn beyond_note(key: &str) -> String {
    format!(
        "DynamoDB's PartiQL reads this as a full Scan: the condition on key attribute '{key}' goes beyond one sort-key condition (=, <, <=, >, >=, BETWEEN or begins_with; not <>, IN or a second range); fold it into one"
    )
}

fn target(select: &Select) -> String {
    match &select.index {
        Some(index) => format!("index '{index}'"),
        None => format!("table '{}'", select.table),
    }
}

fn whole(select: &Select) -> String {
    match &select.index {
        Some(index) => format!("the whole index {index}"),
        None => "the whole table".to_string(),
    }
}

fn dedup(values: Vec<AttrValue>) -> Vec<AttrValue> {
    let mut out: Vec<AttrValue> = Vec::new();
    for v in values {
        if !out.iter().any(|o| same_value(o, &v)) {
            out.push(v);
        }
    }
    out
}

fn flatten(expr: Expr, out: &mut Vec<Expr>) {
    match expr {
        Expr::And(l, r) => {
            flatten(*l, out);
            flatten(*r, out);
        }
        other => out.push(other),
    }
}

pub(super) fn is_attr(operand: &Operand, name: &str) -> bool {
    matches!(operand, Operand::Path(p) if p.single() == Some(name))
}

/// `pk = v`, `pk IN [v, w]` or an OR of those: the values the partition key takes.
fn partition_values(expr: &Expr, pk: &str) -> Option<Vec<AttrValue>> {
    match expr {
        Expr::Or(l, r) => {
            let mut values = partition_values(l, pk)?;
            values.extend(partition_values(r, pk)?);
            Some(values)
        }
        Expr::Cmp(a, CmpOp::Eq, Operand::Value(v)) if is_attr(a, pk) => Some(vec![v.clone()]),
        Expr::Cmp(Operand::Value(v), CmpOp::Eq, b) if is_attr(b, pk) => Some(vec![v.clone()]),
        Expr::In(a, list) if is_attr(a, pk) => list
            .iter()
            .map(|o| match o {
                Operand::Value(v) => Some(v.clone()),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// Takes the first sort-key condition a Query can use.
fn take_sort(
    conjuncts: &mut Vec<Expr>,
    keys: &crate::design::schema::KeySchema,
) -> Result<Option<SortCondition>, PartiqlError> {
    let Some(sk) = keys.sort_key() else {
        return Ok(None);
    };
    for (i, c) in conjuncts.iter().enumerate() {
        if let Some(found) = sort_condition(c, sk)? {
            conjuncts.remove(i);
            return Ok(Some(found));
        }
    }
    Ok(None)
}

pub(super) fn sort_condition(
    expr: &Expr,
    sk: &KeyAttr,
) -> Result<Option<SortCondition>, PartiqlError> {
    let typed = |v: &AttrValue| {
        KeyValue::from_attr(v, sk).map_err(|e| PartiqlError::bad_input(e.to_string()))
    };
    let name = sk.name.as_str();
    Ok(match expr {
        Expr::Cmp(a, op, Operand::Value(v)) if is_attr(a, name) && *op != CmpOp::Ne => {
            Some(compare(*op, typed(v)?))
        }
        Expr::Cmp(Operand::Value(v), op, b) if is_attr(b, name) && *op != CmpOp::Ne => {
            Some(compare(op.flipped(), typed(v)?))
        }
        Expr::Between(a, Operand::Value(lo), Operand::Value(hi)) if is_attr(a, name) => {
            Some(SortCondition::Between(typed(lo)?, typed(hi)?))
        }
        Expr::Call(Func::BeginsWith, p, Operand::Value(v)) if p.single() == Some(name) => {
            Some(SortCondition::BeginsWith(typed(v)?))
        }
        _ => None,
    })
}

fn compare(op: CmpOp, v: KeyValue) -> SortCondition {
    match op {
        CmpOp::Eq => SortCondition::Eq(v),
        CmpOp::Lt => SortCondition::Lt(v),
        CmpOp::Le => SortCondition::Le(v),
        CmpOp::Gt => SortCondition::Gt(v),
        CmpOp::Ge | CmpOp::Ne => SortCondition::Ge(v),
    }
}

/// Replaces every `?` with its value from `--parameters`.
fn bind(expr: &Expr, parameters: &[AttrValue]) -> Expr {
    let op = |o: &Operand| match o {
        Operand::Param(i) => Operand::Value(parameters[*i].clone()),
        other => other.clone(),
    };
    match expr {
        Expr::And(l, r) => Expr::And(Box::new(bind(l, parameters)), Box::new(bind(r, parameters))),
        Expr::Or(l, r) => Expr::Or(Box::new(bind(l, parameters)), Box::new(bind(r, parameters))),
        Expr::Not(e) => Expr::Not(Box::new(bind(e, parameters))),
        Expr::Cmp(a, c, b) => Expr::Cmp(op(a), *c, op(b)),
        Expr::Between(a, lo, hi) => Expr::Between(op(a), op(lo), op(hi)),
        Expr::In(a, list) => Expr::In(op(a), list.iter().map(op).collect()),
        Expr::Missing(p, m) => Expr::Missing(p.clone(), *m),
        Expr::Call(f, p, a) => Expr::Call(*f, p.clone(), op(a)),
    }
}

#[cfg(test)]
#[path = "translate_tests.rs"]
mod tests;
