//! A parsed UPDATE or DELETE: the items its WHERE matches, read as the SELECT with the same
//! WHERE would read them, and the change made to each one.

use super::ast::{Operand, Select};
use crate::item::value::AttrValue;

/// What an UPDATE or DELETE does to each matching item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `SET a = v, … REMOVE b, …`: top-level attributes only.
    Update {
        set: Vec<(String, Operand)>,
        remove: Vec<String>,
    },
    Delete,
}

/// `UPDATE "t" SET … WHERE …` or `DELETE FROM "t" WHERE …`. `select` is the SELECT * with the
/// same table, index and WHERE: what is read to find the items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteStatement {
    pub select: Select,
    pub change: Change,
}

impl WriteStatement {
    pub fn verb(&self) -> &'static str {
        match self.change {
            Change::Update { .. } => "UPDATE",
            Change::Delete => "DELETE",
        }
    }

    /// The SET values with every `?` bound from `--parameters` (checked in number by
    /// `translate`, which runs first).
    pub fn bound_set(&self, parameters: &[AttrValue]) -> Vec<(String, AttrValue)> {
        let Change::Update { set, .. } = &self.change else {
            return Vec::new();
        };
        set.iter()
            .filter_map(|(name, operand)| {
                let value = match operand {
                    Operand::Value(v) => v.clone(),
                    Operand::Param(i) => parameters.get(*i)?.clone(),
                    _ => return None,
                };
                Some((name.clone(), value))
            })
            .collect()
    }
}

/// The first word of an UPDATE or DELETE, for routing the statement to the bulk writer.
pub fn is_bulk_write(text: &str) -> bool {
    matches!(
        super::lexer::tokenize(text).as_deref(),
        Ok([super::lexer::Token { tok: super::lexer::Tok::Word(w), .. }, ..])
            if w.eq_ignore_ascii_case("UPDATE") || w.eq_ignore_ascii_case("DELETE")
    )
}
