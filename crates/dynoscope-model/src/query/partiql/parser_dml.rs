//! UPDATE and DELETE: the table (or `"table"."index"` to read through), the change, and a WHERE
//! parsed by the SELECT's grammar, so they match exactly the items the same SELECT reads.

use super::Parser;
use crate::query::partiql::ast::{Operand, Path, Select};
use crate::query::partiql::dml::{Change, WriteStatement};
use crate::query::partiql::error::PartiqlError;
use crate::query::partiql::lexer::Tok;

/// SET and REMOVE clauses in one statement, at most: DynamoDB's UpdateExpression has its own
/// limits, and this keeps a hostile statement small.
const MAX_CHANGES: usize = 100;

impl Parser {
    pub(super) fn update(&mut self) -> Result<WriteStatement, PartiqlError> {
        let (table, index) = self.target()?;
        let (mut set, mut remove): (Vec<(String, Operand)>, Vec<String>) = (Vec::new(), Vec::new());
        loop {
            if self.eat_word("SET") {
                loop {
                    let name = self.top_level("the attribute to SET, as in SET status = 'done'")?;
                    if !self.eat(&Tok::Op("=")) {
                        return Err(self.error("= after the attribute SET"));
                    }
                    let value = match self.operand()? {
                        v @ (Operand::Value(_) | Operand::Param(_)) => v,
                        _ => {
                            return Err(PartiqlError::unsupported(format!(
                                "SET {name} takes a value or ?, not another attribute or size(); write the new value"
                            )))
                        }
                    };
                    if let Some(Tok::Op(op)) = self.peek() {
                        return Err(PartiqlError::unsupported(format!(
                            "the operator '{op}' in SET is not supported: each item is written conditionally with the value it will have; write the value"
                        )));
                    }
                    if set.iter().any(|(n, _)| n == &name) {
                        return Err(PartiqlError::syntax(format!(
                            "'{name}' is SET twice; set each attribute once"
                        )));
                    }
                    set.push((name, value));
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            } else if self.eat_word("REMOVE") {
                loop {
                    remove.push(self.top_level("the attribute to REMOVE")?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            } else {
                break;
            }
            if set.len() + remove.len() > MAX_CHANGES {
                return Err(PartiqlError::syntax(format!(
                    "the statement changes more than {MAX_CHANGES} attributes; split it"
                )));
            }
        }
        if set.is_empty() && remove.is_empty() {
            return Err(self.error("SET or REMOVE"));
        }
        if let Some(name) = remove.iter().find(|r| set.iter().any(|(n, _)| n == *r)) {
            return Err(PartiqlError::syntax(format!(
                "'{name}' is both SET and REMOVEd; keep one"
            )));
        }
        let select = self.where_clause(table, index)?;
        Ok(WriteStatement {
            select,
            change: Change::Update { set, remove },
        })
    }

    pub(super) fn delete(&mut self) -> Result<WriteStatement, PartiqlError> {
        self.expect_word("FROM")?;
        let (table, index) = self.target()?;
        let select = self.where_clause(table, index)?;
        Ok(WriteStatement {
            select,
            change: Change::Delete,
        })
    }

    fn target(&mut self) -> Result<(String, Option<String>), PartiqlError> {
        let table = self.name("the table name, as in UPDATE \"orders\"")?;
        let index = if self.eat(&Tok::Dot) {
            Some(self.name("the index to read through, as in \"orders\".\"GSI1\"")?)
        } else {
            None
        };
        Ok((table, index))
    }

    /// One top-level attribute: a nested path would change part of a document, which the
    /// per-item diff and condition do not cover yet.
    fn top_level(&mut self, expected: &str) -> Result<String, PartiqlError> {
        let path: Path = self.path(expected)?;
        match path.single() {
            Some(name) => Ok(name.to_string()),
            None => Err(PartiqlError::unsupported(format!(
                "the nested path {} is not supported in a bulk write; SET the whole attribute '{}'",
                crate::query::partiql::render::path(&path),
                path.root()
            ))),
        }
    }

    fn where_clause(
        &mut self,
        table: String,
        index: Option<String>,
    ) -> Result<Select, PartiqlError> {
        let filter = if self.eat_word("WHERE") {
            Some(self.or()?)
        } else {
            None
        };
        self.eat(&Tok::Semicolon);
        if self.peek().is_some() {
            return Err(self.error("WHERE or the end of the statement"));
        }
        Ok(Select {
            projection: None,
            table,
            index,
            filter,
            order_by: None,
            parameters: self.parameters,
        })
    }
}
