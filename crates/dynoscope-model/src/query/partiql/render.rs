//! A SELECT spelled back as PartiQL: the statement EXPLAIN shows, and the one it rewrites for
//! an index. Names are always double-quoted, so no keyword or odd character can misread.

use super::ast::{Direction, Expr, Operand, Path, Select, Step};
use crate::item::value::AttrValue;

fn name(out: &mut String, n: &str) {
    out.push('"');
    out.push_str(&n.replace('"', "\"\""));
    out.push('"');
}

pub fn path(p: &Path) -> String {
    let mut out = String::new();
    for (i, step) in p.0.iter().enumerate() {
        match step {
            Step::Attr(a) => {
                if i > 0 {
                    out.push('.');
                }
                name(&mut out, a);
            }
            Step::Index(n) => out.push_str(&format!("[{n}]")),
        }
    }
    out
}

/// A value as a PartiQL literal; binary has none, so it is left to a parameter.
pub fn literal(value: &AttrValue) -> String {
    let string = |s: &str| format!("'{}'", s.replace('\'', "''"));
    match value {
        AttrValue::S(s) => string(s),
        AttrValue::N(n) => n.clone(),
        AttrValue::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        AttrValue::Null => "NULL".into(),
        AttrValue::L(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        AttrValue::M(item) => format!(
            "{{{}}}",
            item.iter()
                .map(|(k, v)| format!("{}: {}", string(k), literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttrValue::Ss(items) => format!(
            "<<{}>>",
            items
                .iter()
                .map(|s| string(s))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        AttrValue::Ns(items) => format!("<<{}>>", items.join(", ")),
        AttrValue::B(_) | AttrValue::Bs(_) => "?".into(),
    }
}

fn operand(o: &Operand) -> String {
    match o {
        Operand::Path(p) => path(p),
        Operand::Value(v) => literal(v),
        Operand::Param(_) => "?".into(),
        Operand::Size(p) => format!("size({})", path(p)),
    }
}

pub fn expression(e: &Expr) -> String {
    let group = |inner: &Expr, in_and: bool| {
        let text = expression(inner);
        match inner {
            Expr::Or(..) if in_and => format!("({text})"),
            _ => text,
        }
    };
    match e {
        Expr::And(l, r) => format!("{} AND {}", group(l, true), group(r, true)),
        Expr::Or(l, r) => format!("{} OR {}", group(l, false), group(r, false)),
        Expr::Not(inner) => format!("NOT ({})", expression(inner)),
        Expr::Cmp(a, op, b) => format!("{} {} {}", operand(a), op.as_str(), operand(b)),
        Expr::Between(a, lo, hi) => {
            format!("{} BETWEEN {} AND {}", operand(a), operand(lo), operand(hi))
        }
        Expr::In(a, list) => format!(
            "{} IN [{}]",
            operand(a),
            list.iter().map(operand).collect::<Vec<_>>().join(", ")
        ),
        Expr::Missing(p, true) => format!("{} IS MISSING", path(p)),
        Expr::Missing(p, false) => format!("{} IS NOT MISSING", path(p)),
        Expr::Call(f, p, a) => format!("{}({}, {})", f.as_str(), path(p), operand(a)),
    }
}

pub fn statement(select: &Select) -> String {
    let mut out = String::from("SELECT ");
    match &select.projection {
        None => out.push('*'),
        Some(paths) => out.push_str(&paths.iter().map(path).collect::<Vec<_>>().join(", ")),
    }
    out.push_str(" FROM ");
    name(&mut out, &select.table);
    if let Some(index) = &select.index {
        out.push('.');
        name(&mut out, index);
    }
    if let Some(filter) = &select.filter {
        out.push_str(" WHERE ");
        out.push_str(&expression(filter));
    }
    if let Some((p, direction)) = &select.order_by {
        out.push_str(" ORDER BY ");
        out.push_str(&path(p));
        out.push_str(match direction {
            Direction::Asc => " ASC",
            Direction::Desc => " DESC",
        });
    }
    out
}
