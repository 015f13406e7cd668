//! A WHERE clause (what the key condition did not take) spelled as a DynamoDB expression:
//! every attribute behind a `#name`, every value behind a `:vN`.

use super::ast::{Expr, Operand, Path, Step};
use super::error::PartiqlError;
use crate::design::collection::dynamo_cmp;
use crate::item::value::AttrValue;

#[derive(Debug, Default)]
pub struct Spelling {
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
}

fn plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Spelling {
    /// Starts beside the key condition's placeholders, which it must not redefine.
    pub fn beside(names: Vec<(String, String)>, values: Vec<(String, AttrValue)>) -> Self {
        Spelling { names, values }
    }

    pub fn name(&mut self, attr: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, a)| a == attr) {
            return placeholder.clone();
        }
        let taken = |p: &str, names: &[(String, String)]| names.iter().any(|(n, _)| n == p);
        let mut placeholder = if plain_name(attr) {
            format!("#{attr}")
        } else {
            format!("#a{}", self.names.len())
        };
        let mut n = 2;
        while taken(&placeholder, &self.names) {
            placeholder = format!("#a{}_{n}", self.names.len());
            n += 1;
        }
        self.names.push((placeholder.clone(), attr.to_string()));
        placeholder
    }

    pub fn value(&mut self, value: &AttrValue) -> String {
        let taken = |p: &str, values: &[(String, AttrValue)]| values.iter().any(|(n, _)| n == p);
        let mut n = self
            .values
            .iter()
            .filter(|(k, _)| k.starts_with(":v"))
            .count()
            + 1;
        while taken(&format!(":v{n}"), &self.values) {
            n += 1;
        }
        let placeholder = format!(":v{n}");
        self.values.push((placeholder.clone(), value.clone()));
        placeholder
    }

    pub fn path(&mut self, path: &Path) -> String {
        let mut out = String::new();
        for step in &path.0 {
            match step {
                Step::Attr(a) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(&self.name(a));
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }

    fn operand(&mut self, operand: &Operand) -> Result<String, PartiqlError> {
        Ok(match operand {
            Operand::Path(p) => self.path(p),
            Operand::Size(p) => format!("size({})", self.path(p)),
            Operand::Value(v) => self.value(v),
            Operand::Param(i) => {
                return Err(PartiqlError::bad_input(format!(
                    "parameter {} has no value; pass it in --parameters",
                    i + 1
                )))
            }
        })
    }

    pub fn expression(&mut self, expr: &Expr) -> Result<String, PartiqlError> {
        Ok(match expr {
            Expr::And(l, r) => format!("{} AND {}", self.grouped(l, true)?, self.grouped(r, true)?),
            Expr::Or(l, r) => format!("{} OR {}", self.grouped(l, false)?, self.grouped(r, false)?),
            Expr::Not(inner) => format!("NOT ({})", self.expression(inner)?),
            Expr::Cmp(a, op, b) => {
                format!("{} {} {}", self.operand(a)?, op.as_str(), self.operand(b)?)
            }
            Expr::Between(_, Operand::Value(lo), Operand::Value(hi))
                if lo.type_name() == hi.type_name()
                    && matches!(lo, AttrValue::S(_) | AttrValue::N(_) | AttrValue::B(_))
                    && dynamo_cmp(lo, hi) == std::cmp::Ordering::Greater =>
            {
                return Err(PartiqlError::bad_input(format!(
                    "BETWEEN {} AND {} has its bounds the wrong way round (DynamoDB refuses it); write the lower bound first",
                    super::render::literal(lo),
                    super::render::literal(hi)
                )))
            }
            Expr::Between(a, lo, hi) => format!(
                "{} BETWEEN {} AND {}",
                self.operand(a)?,
                self.operand(lo)?,
                self.operand(hi)?
            ),
            Expr::In(a, list) => {
                let left = self.operand(a)?;
                let items = list
                    .iter()
                    .map(|o| self.operand(o))
                    .collect::<Result<Vec<_>, _>>()?;
                format!("{left} IN ({})", items.join(", "))
            }
            Expr::Missing(p, true) => format!("attribute_not_exists({})", self.path(p)),
            Expr::Missing(p, false) => format!("attribute_exists({})", self.path(p)),
            Expr::Call(func, p, arg) => {
                let path = self.path(p);
                format!("{}({path}, {})", func.as_str(), self.operand(arg)?)
            }
        })
    }

    /// AND binds tighter than OR: an OR inside an AND keeps its brackets.
    fn grouped(&mut self, expr: &Expr, in_and: bool) -> Result<String, PartiqlError> {
        let text = self.expression(expr)?;
        Ok(match expr {
            Expr::Or(..) if in_and => format!("({text})"),
            _ => text,
        })
    }
}

fn add_root(out: &mut Vec<String>, p: &Path) {
    let root = p.root().to_string();
    if !out.contains(&root) {
        out.push(root);
    }
}

fn add_operand(out: &mut Vec<String>, o: &Operand) {
    if let Operand::Path(p) | Operand::Size(p) = o {
        add_root(out, p);
    }
}

/// The top-level attributes an expression names.
pub fn attributes(expr: &Expr, out: &mut Vec<String>) {
    match expr {
        Expr::And(l, r) | Expr::Or(l, r) => {
            attributes(l, out);
            attributes(r, out);
        }
        Expr::Not(inner) => attributes(inner, out),
        Expr::Cmp(a, _, b) => {
            add_operand(out, a);
            add_operand(out, b);
        }
        Expr::Between(a, lo, hi) => {
            for o in [a, lo, hi] {
                add_operand(out, o);
            }
        }
        Expr::In(a, list) => {
            add_operand(out, a);
            for o in list {
                add_operand(out, o);
            }
        }
        Expr::Missing(p, _) => add_root(out, p),
        Expr::Call(_, p, arg) => {
            add_root(out, p);
            add_operand(out, arg);
        }
    }
}
