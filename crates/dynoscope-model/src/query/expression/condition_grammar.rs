//! The grammar of condition and filter expressions, as DynamoDB's documentation gives it:
//!
//! ```text
//! condition  := or
//! or         := and (OR and)*
//! and        := not (AND not)*
//! not        := NOT not | '(' or ')' | function | comparison
//! function   := attribute_exists(path) | attribute_not_exists(path)
//!             | attribute_type(path, operand) | begins_with(path, operand)
//!             | contains(path, operand)
//! comparison := operand (cmp operand | BETWEEN operand AND operand
//!                        | IN '(' operand (',' operand)* ')')
//! operand    := path | :value | size(path)
//! path       := name ('.' name | '[' digits ']')*      name := word | #name
//! ```
//!
//! The builder checks what it compiled against it, so it never shows as sendable a filter
//! DynamoDB would refuse (`total = = 5`).

use super::check::is_function;
use super::error::ExpressionError;
use super::tokenizer::{tokenize, Keyword, Tok, Token};

/// Checks `expr` against the grammar. `show` turns a token's text into what the user wrote
/// (a placeholder back into its attribute or value) for the message.
pub fn check_condition_grammar(
    kind: &str,
    expr: &str,
    show: &dyn Fn(&str) -> String,
) -> Result<(), ExpressionError> {
    let tokens = tokenize(kind, expr)?;
    let mut p = Parser {
        tokens: &tokens,
        at: 0,
    };
    let result = p.or().and_then(|()| match p.peek() {
        None => Ok(()),
        Some(_) => Err("AND, OR or the end of the condition"),
    });
    result.map_err(|expected| {
        let shown: Vec<String> = tokens[..p.at].iter().map(|t| show(&t.text)).collect();
        let after = shown[shown.len().saturating_sub(3)..].join(" ");
        ExpressionError::Grammar {
            kind: kind.to_string(),
            expected: expected.to_string(),
            after: (!after.is_empty()).then_some(after),
            found: match tokens.get(p.at) {
                Some(t) => format!("'{}'", show(&t.text)),
                None => "the end".to_string(),
            },
        }
    })
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
}

type Step = Result<(), &'static str>;

const OPERAND: &str = "an attribute or a value";

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        let found = self.peek() == Some(tok);
        if found {
            self.at += 1;
        }
        found
    }

    fn expect(&mut self, tok: &Tok, what: &'static str) -> Step {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(what)
        }
    }

    fn or(&mut self) -> Step {
        self.and()?;
        while self.eat(&Tok::Keyword(Keyword::Or)) {
            self.and()?;
        }
        Ok(())
    }

    fn and(&mut self) -> Step {
        self.not()?;
        while self.eat(&Tok::Keyword(Keyword::And)) {
            self.not()?;
        }
        Ok(())
    }

    fn not(&mut self) -> Step {
        if self.eat(&Tok::Keyword(Keyword::Not)) {
            return self.not();
        }
        if self.eat(&Tok::LParen) {
            self.or()?;
            return self.expect(&Tok::RParen, "')' or AND, OR");
        }
        if let Some(Tok::Name(word)) = self.peek() {
            let word = word.to_ascii_lowercase();
            let call = self.tokens.get(self.at + 1).map(|t| &t.tok) == Some(&Tok::LParen);
            if call && word != "size" && is_function(&word) {
                self.at += 2;
                self.path()?;
                if word != "attribute_exists" && word != "attribute_not_exists" {
                    self.expect(&Tok::Comma, "',' and the function's second argument")?;
                    self.operand()?;
                }
                return self.expect(&Tok::RParen, "')' closing the function");
            }
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Step {
        self.operand()?;
        match self.peek() {
            Some(Tok::Cmp(_)) => {
                self.at += 1;
                self.operand()
            }
            Some(Tok::Keyword(Keyword::Between)) => {
                self.at += 1;
                self.operand()?;
                self.expect(&Tok::Keyword(Keyword::And), "AND between the two bounds")?;
                self.operand()
            }
            Some(Tok::Keyword(Keyword::In)) => {
                self.at += 1;
                self.expect(&Tok::LParen, "'(' and the values IN compares with")?;
                self.operand()?;
                while self.eat(&Tok::Comma) {
                    self.operand()?;
                }
                self.expect(&Tok::RParen, "',' or ')' closing the IN list")
            }
            _ => Err("a comparison (=, <>, <, <=, >, >=, BETWEEN or IN)"),
        }
    }

    fn operand(&mut self) -> Step {
        match self.peek() {
            Some(Tok::ValueRef(_)) => {
                self.at += 1;
                Ok(())
            }
            Some(Tok::Name(word))
                if word.eq_ignore_ascii_case("size")
                    && self.tokens.get(self.at + 1).map(|t| &t.tok) == Some(&Tok::LParen) =>
            {
                self.at += 2;
                self.path()?;
                self.expect(&Tok::RParen, "')' closing size")
            }
            _ => {
                let start = self.at;
                // Nothing of a path at all: say what may stand here, not only a name.
                self.path()
                    .map_err(|e| if self.at == start { OPERAND } else { e })
            }
        }
    }

    fn path(&mut self) -> Step {
        self.name()?;
        loop {
            if self.eat(&Tok::Dot) {
                self.name()?;
            } else if self.eat(&Tok::LBracket) {
                self.expect(&Tok::Number, "a list index like [0]")?;
                self.expect(&Tok::RBracket, "']' closing the list index")?;
            } else {
                return Ok(());
            }
        }
    }

    fn name(&mut self) -> Step {
        match self.peek() {
            Some(Tok::Name(_) | Tok::NameRef(_)) => {
                self.at += 1;
                Ok(())
            }
            _ => Err("an attribute name"),
        }
    }
}

#[cfg(test)]
#[path = "condition_grammar_tests.rs"]
mod tests;
