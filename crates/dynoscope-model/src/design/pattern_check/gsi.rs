//! A pattern whose index the table does not have, said as the PartiQL SELECT it stands for, so
//! that PartiQL's planner gives its read (a Scan) and its advice gives the GSI that would serve
//! it, with the `update-table` that adds it.

use std::collections::BTreeMap;

use super::plan::{named_attributes, PatternPlan};
use crate::design::access_pattern::{AccessPattern, SortTemplate};
use crate::design::schema::TableInfo;
use crate::item::value::AttrValue;
use crate::query::partiql::{translate, CmpOp, Expr, Func, Operand, Path, Plan, Select, Step};

fn fill(template: &str, params: &BTreeMap<String, String>) -> String {
    let mut out = template.to_string();
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

fn attr(name: &str) -> Operand {
    Operand::Path(Path(vec![Step::Attr(name.to_string())]))
}

fn text(template: &str, params: &BTreeMap<String, String>) -> Operand {
    Operand::Value(AttrValue::S(fill(template, params)))
}

/// The SELECT a pattern on a missing index stands for (its keys' conditions on the
/// attributes the pattern declares, `params` filled in; a parameter not given stays
/// `{name}`), and PartiQL's plan of it. `None` when the pattern does not say its keys.
pub fn missing_index_read(
    pattern: &AccessPattern,
    plan: &PatternPlan,
    info: &TableInfo,
    params: &BTreeMap<String, String>,
) -> Option<(Select, Plan)> {
    // An equality per partition attribute and per sort-prefix attribute, in key-schema order
    // (a multi-attribute key's several), then the condition on the next sort attribute.
    if plan.pk_attributes.is_empty() || plan.pk_attributes.len() != pattern.pk.len() {
        return None;
    }
    let equalities = plan
        .pk_attributes
        .iter()
        .zip(&pattern.pk)
        .chain(plan.sk_attributes.iter().zip(&pattern.sk_eq))
        .map(|(name, template)| Expr::Cmp(attr(name), CmpOp::Eq, text(template, params)));
    let sort = match (plan.sk_attributes.get(pattern.sk_eq.len()), &pattern.sk) {
        (Some(sk), Some(sort)) => Some(match sort {
            SortTemplate::Eq(v) => Expr::Cmp(attr(sk), CmpOp::Eq, text(v, params)),
            SortTemplate::Lt(v) => Expr::Cmp(attr(sk), CmpOp::Lt, text(v, params)),
            SortTemplate::Le(v) => Expr::Cmp(attr(sk), CmpOp::Le, text(v, params)),
            SortTemplate::Gt(v) => Expr::Cmp(attr(sk), CmpOp::Gt, text(v, params)),
            SortTemplate::Ge(v) => Expr::Cmp(attr(sk), CmpOp::Ge, text(v, params)),
            SortTemplate::Between([a, b]) => {
                Expr::Between(attr(sk), text(a, params), text(b, params))
            }
            SortTemplate::BeginsWith(v) => Expr::Call(
                Func::BeginsWith,
                Path(vec![Step::Attr(sk.to_string())]),
                text(v, params),
            ),
        }),
        _ => None,
    };
    let filter = equalities
        .chain(sort)
        .reduce(|all, next| Expr::And(Box::new(all), Box::new(next)))?;
    let projection = pattern.projection.as_deref().map(|p| {
        named_attributes(pattern, p)
            .into_iter()
            .map(|a| Path(vec![Step::Attr(a)]))
            .collect()
    });
    let select = Select {
        projection,
        table: info.name.clone(),
        index: None,
        filter: Some(filter),
        order_by: None,
        parameters: 0,
    };
    let read = translate(&select, &[], info).ok()?;
    Some((select, read))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::partiql::{advise, Advice, ReadKind};

    #[test]
    fn a_missing_index_is_a_scan_and_the_gsi_that_would_serve_it() {
        let info = crate::fixtures::demo_info();
        let table: toml::Table = toml::from_str(
            "table='app'\nname='by-city'\nindex='ByCity'\nindex_pk='city'\npk='{city}'\nprojection='name, city'",
        )
        .unwrap();
        let pattern = AccessPattern::from_toml(table, 0).unwrap();
        let plan = super::super::plan(&pattern, &info);
        let params = BTreeMap::from([("city".to_string(), "Oslo".to_string())]);
        let (select, read) = missing_index_read(&pattern, &plan, &info, &params).unwrap();
        assert_eq!(read.kind, ReadKind::Scan);
        let Advice::Create(new) = advise(&select, &read, &info, &[]) else {
            panic!("no GSI proposed");
        };
        assert!(
            new.command.starts_with("aws dynamodb update-table"),
            "{}",
            new.command
        );
        assert!(
            new.command.contains("\"AttributeName\":\"city\""),
            "{}",
            new.command
        );
    }
}
