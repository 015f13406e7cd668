//! The parser of [`super::evaluate`]: tokens to a condition tree or projection paths, with
//! placeholders resolved (the expression was checked against the grammar before).

use super::evaluate::{Condition, Names, Operand, Step, Values};
use super::tokenizer::{Keyword, Tok, Token};

pub(super) struct Parser<'a> {
    pub(super) tokens: &'a [Token],
    pub(super) at: usize,
    pub(super) names: Names<'a>,
    pub(super) values: Values<'a>,
}

type Parsed<T> = Result<T, String>;

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.at).map(|t| &t.tok)
    }

    pub(super) fn eat(&mut self, tok: &Tok) -> bool {
        let found = self.peek() == Some(tok);
        if found {
            self.at += 1;
        }
        found
    }

    fn expect(&mut self, tok: &Tok, what: &str) -> Parsed<()> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(format!("expected {what}"))
        }
    }

    pub(super) fn or(&mut self) -> Parsed<Condition> {
        let mut left = self.and()?;
        while self.eat(&Tok::Keyword(Keyword::Or)) {
            left = Condition::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Parsed<Condition> {
        let mut left = self.not()?;
        while self.eat(&Tok::Keyword(Keyword::And)) {
            left = Condition::And(Box::new(left), Box::new(self.not()?));
        }
        Ok(left)
    }

    fn not(&mut self) -> Parsed<Condition> {
        if self.eat(&Tok::Keyword(Keyword::Not)) {
            return Ok(Condition::Not(Box::new(self.not()?)));
        }
        if self.eat(&Tok::LParen) {
            let inner = self.or()?;
            self.expect(&Tok::RParen, "')'")?;
            return Ok(inner);
        }
        if let Some(Tok::Name(word)) = self.peek() {
            let word = word.to_ascii_lowercase();
            let call = self.tokens.get(self.at + 1).map(|t| &t.tok) == Some(&Tok::LParen);
            if call && word != "size" {
                self.at += 2;
                let path = self.path()?;
                let condition = match word.as_str() {
                    "attribute_exists" => Condition::Exists(path),
                    "attribute_not_exists" => Condition::NotExists(path),
                    _ => {
                        self.expect(&Tok::Comma, "','")?;
                        let arg = self.operand()?;
                        match word.as_str() {
                            "attribute_type" => Condition::Type(path, arg),
                            "begins_with" => Condition::BeginsWith(path, arg),
                            "contains" => Condition::Contains(path, arg),
                            other => return Err(format!("unknown function '{other}'")),
                        }
                    }
                };
                self.expect(&Tok::RParen, "')'")?;
                return Ok(condition);
            }
        }
        let left = self.operand()?;
        match self.peek().cloned() {
            Some(Tok::Cmp(cmp)) => {
                self.at += 1;
                Ok(Condition::Compare(left, cmp, self.operand()?))
            }
            Some(Tok::Keyword(Keyword::Between)) => {
                self.at += 1;
                let low = self.operand()?;
                self.expect(&Tok::Keyword(Keyword::And), "AND")?;
                Ok(Condition::Between(left, low, self.operand()?))
            }
            Some(Tok::Keyword(Keyword::In)) => {
                self.at += 1;
                self.expect(&Tok::LParen, "'('")?;
                let mut list = vec![self.operand()?];
                while self.eat(&Tok::Comma) {
                    list.push(self.operand()?);
                }
                self.expect(&Tok::RParen, "')'")?;
                Ok(Condition::In(left, list))
            }
            _ => Err("expected a comparison".into()),
        }
    }

    fn operand(&mut self) -> Parsed<Operand> {
        match self.peek().cloned() {
            Some(Tok::ValueRef(name)) => {
                self.at += 1;
                self.values
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| Operand::Value(v.clone()))
                    .ok_or_else(|| format!("value '{name}' is not defined"))
            }
            Some(Tok::Name(word))
                if word.eq_ignore_ascii_case("size")
                    && self.tokens.get(self.at + 1).map(|t| &t.tok) == Some(&Tok::LParen) =>
            {
                self.at += 2;
                let path = self.path()?;
                self.expect(&Tok::RParen, "')'")?;
                Ok(Operand::Size(path))
            }
            _ => Ok(Operand::Path(self.path()?)),
        }
    }

    pub(super) fn path(&mut self) -> Parsed<Vec<Step>> {
        let mut steps = vec![Step::Name(self.name()?)];
        loop {
            if self.eat(&Tok::Dot) {
                steps.push(Step::Name(self.name()?));
            } else if self.eat(&Tok::LBracket) {
                let text = self.tokens.get(self.at).map(|t| t.text.clone());
                self.expect(&Tok::Number, "a list index")?;
                let index = text
                    .and_then(|t| t.parse().ok())
                    .ok_or("a list index too large")?;
                steps.push(Step::Index(index));
                self.expect(&Tok::RBracket, "']'")?;
            } else {
                return Ok(steps);
            }
        }
    }

    fn name(&mut self) -> Parsed<String> {
        match self.peek().cloned() {
            Some(Tok::Name(n)) => {
                self.at += 1;
                Ok(n)
            }
            Some(Tok::NameRef(r)) => {
                self.at += 1;
                self.names
                    .iter()
                    .find(|(n, _)| *n == r)
                    .map(|(_, v)| v.clone())
                    .ok_or_else(|| format!("name '{r}' is not defined"))
            }
            _ => Err("expected an attribute name".into()),
        }
    }
}
