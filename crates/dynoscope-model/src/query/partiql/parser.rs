//! A recursive-descent parser for the SELECTs dynoscope translates. Anything else PartiQL has
//! (arithmetic, other functions, `IS NULL`, joins…) is `Unsupported`, not a syntax error: it
//! may be valid for DynamoDB, which can still run it as ExecuteStatement.

use super::ast::{CmpOp, Direction, Expr, Func, Operand, Path, Select, Statement, Step};
use super::error::PartiqlError;
use super::lexer::{tokenize, Tok, Token};
use super::reserved::is_reserved;

const WRITE_VERBS: &[&str] = &["INSERT", "UPDATE", "DELETE", "REPLACE", "UPSERT", "REMOVE"];
const TRANSACTION_VERBS: &[&str] = &["BEGIN", "COMMIT", "ROLLBACK", "START", "EXISTS"];
/// Words that end or join clauses: never an attribute name unless double-quoted.
const KEYWORDS: &[&str] = &[
    "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS", "ORDER", "BY", "ASC",
    "DESC", "LIMIT",
];
pub fn parse(text: &str) -> Result<Statement, PartiqlError> {
    let tokens = tokenize(text)?;
    let first = match tokens.first() {
        None => {
            return Err(PartiqlError::syntax(
                "the statement is empty; write e.g. SELECT * FROM \"table\" WHERE PK = 'a'",
            ))
        }
        Some(t) => t,
    };
    if let Tok::Word(w) = &first.tok {
        let upper = w.to_ascii_uppercase();
        if WRITE_VERBS.contains(&upper.as_str()) || TRANSACTION_VERBS.contains(&upper.as_str()) {
            return Ok(Statement::Write(upper));
        }
    }
    let mut p = Parser {
        tokens,
        at: 0,
        parameters: 0,
        depth: 0,
        logical: 0,
    };
    p.expect_word("SELECT")?;
    let select = p.select()?;
    Ok(Statement::Select(select))
}

/// An UPDATE or DELETE for the bulk writer (see [`super::dml`]); any other statement is an
/// error naming what it is.
pub fn parse_write(text: &str) -> Result<super::dml::WriteStatement, PartiqlError> {
    let tokens = tokenize(text)?;
    let mut p = Parser {
        tokens,
        at: 0,
        parameters: 0,
        depth: 0,
        logical: 0,
    };
    if p.eat_word("UPDATE") {
        return p.update();
    }
    if p.eat_word("DELETE") {
        return p.delete();
    }
    Err(p.error("UPDATE or DELETE"))
}

/// Whether DynamoDB reads `text` as a SELECT (the read-only client lets only those through).
pub fn is_select(text: &str) -> bool {
    matches!(tokenize(text).as_deref(), Ok([Token { tok: Tok::Word(w), .. }, ..]) if w.eq_ignore_ascii_case("SELECT"))
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    parameters: usize,
    /// Open parentheses, NOTs and literals around the token at `at`.
    depth: usize,
    /// AND, OR and NOT read so far.
    logical: usize,
}

impl Parser {
    fn select(&mut self) -> Result<Select, PartiqlError> {
        let projection = if self.eat(&Tok::Star) {
            None
        } else {
            let mut paths = vec![self.path("an attribute name or *")?];
            while self.eat(&Tok::Comma) {
                paths.push(self.path("an attribute name")?);
            }
            Some(paths)
        };
        self.expect_word("FROM")?;
        let table = self.name("the table name, as in FROM \"orders\"")?;
        let index = if self.eat(&Tok::Dot) {
            Some(self.name("the index name, as in FROM \"orders\".\"GSI1\"")?)
        } else {
            None
        };
        let filter = if self.eat_word("WHERE") {
            Some(self.or()?)
        } else {
            None
        };
        let order_by = if self.eat_word("ORDER") {
            self.expect_word("BY")?;
            let path = self.path("the sort key to order by")?;
            let direction = if self.eat_word("DESC") {
                Direction::Desc
            } else {
                self.eat_word("ASC");
                Direction::Asc
            };
            if self.eat(&Tok::Comma) {
                return Err(PartiqlError::unsupported(
                    "ORDER BY more than one attribute is not translated; a Query orders by its sort key only",
                ));
            }
            Some((path, direction))
        } else {
            None
        };
        self.eat(&Tok::Semicolon);
        if self.peek().is_some() {
            if self.is_word("LIMIT") {
                return Err(PartiqlError::syntax(format!(
                    "DynamoDB's PartiQL has no LIMIT clause ({}); use --limit",
                    self.found()
                )));
            }
            return Err(self.error("the end of the statement"));
        }
        Ok(Select {
            projection,
            table,
            index,
            filter,
            order_by,
            parameters: self.parameters,
        })
    }

    /// A table, index or attribute name: double-quoted, or a bare word that is not a keyword.
    fn name(&mut self, expected: &str) -> Result<String, PartiqlError> {
        match self.peek() {
            Some(Tok::Quoted(q)) => {
                let q = q.clone();
                self.at += 1;
                Ok(q)
            }
            Some(Tok::Word(w)) if KEYWORDS.contains(&w.to_ascii_uppercase().as_str()) => {
                Err(PartiqlError::syntax(format!(
                    "expected {expected}, {}; a name spelled like a keyword is double-quoted, as in \"{w}\"",
                    self.found()
                )))
            }
            Some(Tok::Word(w)) if is_reserved(w) => Err(PartiqlError::syntax(format!(
                "'{w}' at column {} is a reserved word in PartiQL; double-quote the name: \"{w}\"",
                self.tokens[self.at].col
            ))),
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.at += 1;
                Ok(w)
            }
            _ => Err(self.error(expected)),
        }
    }

    fn path(&mut self, expected: &str) -> Result<Path, PartiqlError> {
        let mut steps = vec![Step::Attr(self.name(expected)?)];
        loop {
            if self.eat(&Tok::Dot) {
                steps.push(Step::Attr(self.name("an attribute name after '.'")?));
            } else if self.peek() == Some(&Tok::LBracket) {
                self.at += 1;
                match self.next() {
                    Some(Tok::Num(n)) if n.parse::<u32>().is_ok() => {
                        steps.push(Step::Index(n.parse().expect("checked")))
                    }
                    _ => {
                        self.at -= 1;
                        return Err(self.error("a list index such as [0]"));
                    }
                }
                self.expect(&Tok::RBracket)?;
            } else {
                return Ok(Path(steps));
            }
        }
    }

    fn or(&mut self) -> Result<Expr, PartiqlError> {
        self.nested(|p| {
            let mut left = p.and()?;
            while p.eat_word("OR") {
                p.logical_operator()?;
                left = Expr::Or(Box::new(left), Box::new(p.and()?));
            }
            Ok(left)
        })
    }

    fn and(&mut self) -> Result<Expr, PartiqlError> {
        let mut left = self.not()?;
        while self.eat_word("AND") {
            self.logical_operator()?;
            left = Expr::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Result<Expr, PartiqlError> {
        if self.eat_word("NOT") {
            self.logical_operator()?;
            return self.nested(|p| Ok(Expr::Not(Box::new(p.not()?))));
        }
        self.predicate()
    }

    fn function(&self) -> Option<String> {
        match (self.peek(), self.peek_at(1)) {
            (Some(Tok::Word(w)), Some(Tok::LParen)) => Some(w.to_ascii_lowercase()),
            _ => None,
        }
    }

    fn predicate(&mut self) -> Result<Expr, PartiqlError> {
        if self.eat(&Tok::LParen) {
            let inner = self.or()?;
            self.expect(&Tok::RParen)?;
            return Ok(inner);
        }
        let call = match self.function().as_deref() {
            Some("begins_with") => Some(Func::BeginsWith),
            Some("contains") => Some(Func::Contains),
            Some("attribute_type") => Some(Func::AttributeType),
            _ => None,
        };
        if let Some(func) = call {
            self.at += 2;
            let path = self.path(&format!(
                "an attribute as {}'s first argument",
                func.as_str()
            ))?;
            self.expect(&Tok::Comma)?;
            let operand = self.operand()?;
            self.expect(&Tok::RParen)?;
            return Ok(Expr::Call(func, path, operand));
        }
        let left = self.operand()?;
        if let Some(Tok::Op(op)) = self.peek() {
            let op = match *op {
                "=" => CmpOp::Eq,
                "<>" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                ">=" => CmpOp::Ge,
                other => {
                    return Err(PartiqlError::unsupported(format!(
                        "the operator '{other}' is not translated; Query and Scan expressions have no arithmetic or concatenation"
                    )))
                }
            };
            self.at += 1;
            let right = self.operand()?;
            return Ok(Expr::Cmp(left, op, right));
        }
        let negated = self.eat_word("NOT");
        let expr = if self.eat_word("BETWEEN") {
            let low = self.operand()?;
            self.expect_word("AND")?;
            let high = self.operand()?;
            Expr::Between(left, low, high)
        } else if self.eat_word("IN") {
            Expr::In(left, self.in_list()?)
        } else if !negated && self.eat_word("IS") {
            let not = self.eat_word("NOT");
            if self.eat_word("MISSING") {
                let Operand::Path(path) = left else {
                    return Err(PartiqlError::syntax(
                        "IS MISSING takes an attribute, as in discount IS MISSING",
                    ));
                };
                return Ok(Expr::Missing(path, !not));
            }
            if self.is_word("NULL") {
                return Err(PartiqlError::unsupported(
                    "IS NULL is not translated (PartiQL counts a missing attribute as NULL); write attribute_type(a, 'NULL') or a IS MISSING",
                ));
            }
            return Err(self.error("MISSING or NOT MISSING after IS"));
        } else {
            return Err(self.error("a comparison (=, <>, <, <=, >, >=), BETWEEN, IN or IS MISSING"));
        };
        Ok(if negated {
            Expr::Not(Box::new(expr))
        } else {
            expr
        })
    }

    fn in_list(&mut self) -> Result<Vec<Operand>, PartiqlError> {
        let close = if self.eat(&Tok::LBracket) {
            Tok::RBracket
        } else if self.eat(&Tok::LParen) {
            Tok::RParen
        } else {
            return Err(self.error("a list after IN, as in IN ['a', 'b']"));
        };
        let mut items = vec![self.operand()?];
        while self.eat(&Tok::Comma) {
            items.push(self.operand()?);
        }
        self.expect(&close)?;
        Ok(items)
    }

    fn operand(&mut self) -> Result<Operand, PartiqlError> {
        if self.eat(&Tok::Param) {
            self.parameters += 1;
            return Ok(Operand::Param(self.parameters - 1));
        }
        match self.function().as_deref() {
            Some("size") => {
                self.at += 2;
                let path = self.path("an attribute inside size()")?;
                self.expect(&Tok::RParen)?;
                return Ok(Operand::Size(path));
            }
            Some(other) if !KEYWORDS.contains(&other.to_ascii_uppercase().as_str()) => {
                return Err(PartiqlError::unsupported(format!(
                    "the function '{other}' is not translated; Query and Scan expressions know begins_with, contains, attribute_type and size"
                )))
            }
            _ => {}
        }
        if let Some(Tok::Word(w)) = self.peek() {
            let upper = w.to_ascii_uppercase();
            if upper == "MISSING" {
                return Err(PartiqlError::unsupported(
                    "a comparison with MISSING is not translated; write a IS MISSING",
                ));
            }
            if ["TRUE", "FALSE", "NULL"].contains(&upper.as_str()) {
                return Ok(Operand::Value(self.literal()?));
            }
        }
        if matches!(self.peek(), Some(Tok::Word(_) | Tok::Quoted(_))) {
            return Ok(Operand::Path(self.path("an attribute name")?));
        }
        Ok(Operand::Value(self.literal()?))
    }
}

#[path = "literals.rs"]
mod literals;

#[path = "parser_dml.rs"]
mod dml;

#[path = "parser_cursor.rs"]
mod cursor;

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
