//! DynamoDB expressions: checking filter and projection expressions before a request, and
//! reading the aws-cli `--key-condition-expression` spelling into a typed `KeyCondition`.
//!
//! DynamoDB refuses a bad expression only after a round trip and rarely says where. A small
//! tokenizer lets us point at the column and name the fix. We check only what we can be sure of
//! (brackets, placeholders, reserved words, literals, key-condition shape) and leave the rest of
//! the grammar to DynamoDB, so we never refuse an expression DynamoDB would accept.

use std::collections::BTreeSet;

use super::key_condition::{KeyCondition, KeyConditionError, KeyValue, SortCondition, SortOp};
use super::reserved::is_reserved;
use super::schema::KeySchema;
use super::value::AttrValue;

/// Functions of condition and filter expressions. A bare word before `(` is one of these, not
/// an attribute, even when it is a reserved word (`size`).
pub(crate) const FUNCTIONS: &[&str] = &[
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "size",
];

fn is_function(word: &str) -> bool {
    FUNCTIONS.iter().any(|f| f.eq_ignore_ascii_case(word))
}

/// Deeper nesting than this is refused instead of risking the parser's stack on hostile input.
const MAX_DEPTH: usize = 64;

const KEY_CONDITION: &str = "key condition";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExpressionError {
    #[error("the {kind} expression is empty; write one or leave the option out")]
    Empty { kind: String },
    #[error(
        "unexpected character '{ch}' at column {col} in {kind} expression; put attribute names with special characters behind a #name placeholder"
    )]
    UnexpectedChar { kind: String, ch: char, col: usize },
    #[error(
        "'{sigil}' at column {col} in {kind} expression has no name; write it like '{sigil}name'"
    )]
    EmptyPlaceholder {
        kind: String,
        sigil: char,
        col: usize,
    },
    #[error(
        "'{name}' at column {col} in {kind} expression starts with a digit; write '#{name}' and pass --names '{{\"#{name}\":\"{name}\"}}'"
    )]
    NameStartsWithDigit {
        kind: String,
        name: String,
        col: usize,
    },
    #[error("unmatched '{ch}' at column {col} in {kind} expression; remove it or add its opening bracket")]
    UnmatchedClose { kind: String, ch: char, col: usize },
    #[error("'{ch}' at column {col} in {kind} expression is never closed; add the matching '{}'", closer(*.ch))]
    Unclosed { kind: String, ch: char, col: usize },
    #[error("expected {expected} at column {col} in {kind} expression, found {found}")]
    Syntax {
        kind: String,
        col: usize,
        expected: String,
        found: String,
    },
    #[error("unknown placeholder '{name}' in {kind} expression; define it in --names")]
    UnknownName { kind: String, name: String },
    #[error("unknown placeholder '{name}' in {kind} expression; define it in --values")]
    UnknownValue { kind: String, name: String },
    #[error(
        "'{word}' is a reserved word in DynamoDB expressions; write '#{word}' and pass --names '{{\"#{word}\":\"{word}\"}}'"
    )]
    Reserved { word: String },
    #[error(
        "literal '{text}' at column {col} is not allowed in a {kind} expression; use a placeholder like ':v' and pass its value in --values"
    )]
    Literal {
        kind: String,
        text: String,
        col: usize,
    },
    #[error(
        "unknown function '{name}' at column {col} in {kind} expression; DynamoDB has attribute_exists, attribute_not_exists, attribute_type, begins_with, contains and size"
    )]
    UnknownFunction {
        kind: String,
        name: String,
        col: usize,
    },
    #[error("'{what}' is not supported in a key condition; move it to --filter-expression")]
    UnsupportedInKey { what: String },
    #[error(
        "partition key '{key}' only supports '=', not '{op}'; use a Scan with --filter for ranges"
    )]
    PartitionKeyOp { key: String, op: String },
    #[error(
        "'{name}' is not a key of this table/index (keys: {keys}); move conditions on other attributes to --filter-expression"
    )]
    NotAKey { name: String, keys: String },
    #[error(
        "'{text}' at column {col} in key condition expression must compare a key name with a :placeholder, like 'PK = :pk'"
    )]
    NeedsKeyAndValue { text: String, col: usize },
    #[error(
        "the key condition does not compare partition key '{key}'; add '{key} = :pk' (a Query always needs the partition key)"
    )]
    MissingPartitionKey { key: String },
    #[error(
        "partition key '{key}' is compared twice in the key condition; keep a single '{key} = :pk'"
    )]
    DuplicatePartitionKey { key: String },
    #[error(
        "sort key '{key}' has two conditions in the key condition; DynamoDB allows one, so use '{key} BETWEEN :lo AND :hi' for a range"
    )]
    DuplicateSortKey { key: String },
    #[error(transparent)]
    Key(#[from] KeyConditionError),
}

fn closer(open: char) -> char {
    if open == '[' {
        ']'
    } else {
        ')'
    }
}

/// The `#name` and `:value` placeholders an expression used, so callers can refuse unused
/// ones (DynamoDB rejects a request that defines placeholders no expression uses).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placeholders {
    pub names: BTreeSet<String>,
    pub values: BTreeSet<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keyword {
    And,
    Or,
    Not,
    Between,
    In,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// A bare attribute name or function name.
    Name(String),
    /// `#name`, sigil included.
    NameRef(String),
    /// `:value`, sigil included.
    ValueRef(String),
    /// Digits: a list index inside `[]`, a refused literal anywhere else.
    Number,
    /// A quoted literal, without its quotes; always refused.
    Text(String),
    Keyword(Keyword),
    Cmp(Cmp),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Dot,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    /// 1-based column in characters, as a user counts them.
    col: usize,
    /// The text as written, for messages.
    text: String,
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn scan_while(chars: &[char], from: usize, pred: impl Fn(char) -> bool) -> usize {
    chars[from..]
        .iter()
        .position(|&c| !pred(c))
        .map_or(chars.len(), |n| from + n)
}

fn tokenize(kind: &str, expr: &str) -> Result<Vec<Token>, ExpressionError> {
    let chars: Vec<char> = expr.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let col = i + 1;
        let next = chars.get(i + 1).copied();
        let tok = match chars[i] {
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            ',' => Tok::Comma,
            '.' => Tok::Dot,
            '=' => Tok::Cmp(Cmp::Eq),
            '<' if next == Some('=') => Tok::Cmp(Cmp::Le),
            '<' if next == Some('>') => Tok::Cmp(Cmp::Ne),
            '<' => Tok::Cmp(Cmp::Lt),
            '>' if next == Some('=') => Tok::Cmp(Cmp::Ge),
            '>' => Tok::Cmp(Cmp::Gt),
            '!' if next == Some('=') => {
                return Err(ExpressionError::Syntax {
                    kind: kind.to_string(),
                    col,
                    expected: "'<>' for not-equal".to_string(),
                    found: "'!='".to_string(),
                })
            }
            sigil @ ('#' | ':') => {
                let end = scan_while(&chars, i + 1, is_word_char);
                if end == i + 1 {
                    return Err(ExpressionError::EmptyPlaceholder {
                        kind: kind.to_string(),
                        sigil,
                        col,
                    });
                }
                i = end;
                let text: String = chars[start..end].iter().collect();
                if sigil == '#' {
                    Tok::NameRef(text)
                } else {
                    Tok::ValueRef(text)
                }
            }
            quote @ ('\'' | '"') => {
                let close = chars[i + 1..].iter().position(|&c| c == quote);
                let inner_end = close.map_or(chars.len(), |n| i + 1 + n);
                i = (inner_end + 1).min(chars.len());
                Tok::Text(chars[start + 1..inner_end].iter().collect())
            }
            c if c.is_ascii_digit() => {
                let mut end = scan_while(&chars, i, |c| c.is_ascii_digit());
                if chars.get(end) == Some(&'.')
                    && chars.get(end + 1).is_some_and(char::is_ascii_digit)
                {
                    end = scan_while(&chars, end + 1, |c| c.is_ascii_digit());
                }
                if chars.get(end).is_some_and(|&c| is_word_char(c)) {
                    let name_end = scan_while(&chars, end, is_word_char);
                    return Err(ExpressionError::NameStartsWithDigit {
                        kind: kind.to_string(),
                        name: chars[start..name_end].iter().collect(),
                        col,
                    });
                }
                i = end;
                Tok::Number
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                i = scan_while(&chars, i, is_word_char);
                let word: String = chars[start..i].iter().collect();
                // DynamoDB keywords are case-insensitive.
                match word.to_ascii_uppercase().as_str() {
                    "AND" => Tok::Keyword(Keyword::And),
                    "OR" => Tok::Keyword(Keyword::Or),
                    "NOT" => Tok::Keyword(Keyword::Not),
                    "BETWEEN" => Tok::Keyword(Keyword::Between),
                    "IN" => Tok::Keyword(Keyword::In),
                    _ => Tok::Name(word),
                }
            }
            ch => {
                return Err(ExpressionError::UnexpectedChar {
                    kind: kind.to_string(),
                    ch,
                    col,
                })
            }
        };
        // Single-character tokens have not advanced yet; longer ones set `i` themselves.
        if i == start {
            i += match tok {
                Tok::Cmp(Cmp::Le | Cmp::Ne | Cmp::Ge) => 2,
                _ => 1,
            };
        }
        tokens.push(Token {
            tok,
            col,
            text: chars[start..i].iter().collect(),
        });
    }
    Ok(tokens)
}

/// Parentheses and brackets must pair up; errors point at the offending one.
fn check_brackets(kind: &str, tokens: &[Token]) -> Result<(), ExpressionError> {
    let mut open: Vec<(char, usize)> = Vec::new();
    for token in tokens {
        let closing = match token.tok {
            Tok::LParen => {
                open.push(('(', token.col));
                continue;
            }
            Tok::LBracket => {
                open.push(('[', token.col));
                continue;
            }
            Tok::RParen => ')',
            Tok::RBracket => ']',
            _ => continue,
        };
        match open.pop() {
            Some((ch, _)) if closer(ch) == closing => {}
            _ => {
                return Err(ExpressionError::UnmatchedClose {
                    kind: kind.to_string(),
                    ch: closing,
                    col: token.col,
                })
            }
        }
    }
    match open.pop() {
        Some((ch, col)) => Err(ExpressionError::Unclosed {
            kind: kind.to_string(),
            ch,
            col,
        }),
        None => Ok(()),
    }
}

fn lookup<'a, V>(map: &'a [(String, V)], key: &str) -> Option<&'a V> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Checks a filter, projection or condition expression (`kind` names it in messages):
/// brackets pair up, every `#name` and `:value` is defined, no bare reserved word, no literal.
/// Returns the placeholders it used.
pub fn check_expression(
    kind: &str,
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
) -> Result<Placeholders, ExpressionError> {
    let tokens = tokenize(kind, expr)?;
    if tokens.is_empty() {
        return Err(ExpressionError::Empty {
            kind: kind.to_string(),
        });
    }
    check_brackets(kind, &tokens)?;

    let mut used = Placeholders::default();
    for (i, token) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &tokens[p].tok);
        let next = tokens.get(i + 1).map(|t| &t.tok);
        let is_call = next == Some(&Tok::LParen) && prev != Some(&Tok::Dot);
        match &token.tok {
            Tok::NameRef(name) => {
                if lookup(names, name).is_none() {
                    return Err(ExpressionError::UnknownName {
                        kind: kind.to_string(),
                        name: name.clone(),
                    });
                }
                used.names.insert(name.clone());
            }
            Tok::ValueRef(name) => {
                if lookup(values, name).is_none() {
                    return Err(ExpressionError::UnknownValue {
                        kind: kind.to_string(),
                        name: name.clone(),
                    });
                }
                used.values.insert(name.clone());
            }
            // A word before `(` is a function call, exempt from the reserved-word rule (`size`).
            Tok::Name(word) if is_call && !is_function(word) => {
                return Err(ExpressionError::UnknownFunction {
                    kind: kind.to_string(),
                    name: word.clone(),
                    col: token.col,
                });
            }
            Tok::Name(word) if !is_call && is_reserved(word) => {
                return Err(ExpressionError::Reserved { word: word.clone() });
            }
            Tok::LBracket => {
                let index = tokens.get(i + 1).filter(|t| t.tok == Tok::Number);
                let digits_only = index.is_some_and(|t| t.text.chars().all(|c| c.is_ascii_digit()));
                if !digits_only || tokens.get(i + 2).map(|t| &t.tok) != Some(&Tok::RBracket) {
                    return Err(syntax_at(
                        kind,
                        &tokens,
                        i + 1,
                        expr,
                        "a list index like [0]",
                    ));
                }
            }
            Tok::Number if prev != Some(&Tok::LBracket) => {
                return Err(literal(kind, token));
            }
            Tok::Text(text) => {
                return Err(ExpressionError::Literal {
                    kind: kind.to_string(),
                    text: text.clone(),
                    col: token.col,
                });
            }
            _ => {}
        }
    }
    Ok(used)
}

fn literal(kind: &str, token: &Token) -> ExpressionError {
    ExpressionError::Literal {
        kind: kind.to_string(),
        text: match &token.tok {
            Tok::Text(inner) => inner.clone(),
            _ => token.text.clone(),
        },
        col: token.col,
    }
}

/// A syntax error at token `at`, or at the end of `expr` when there are no more tokens.
fn syntax_at(
    kind: &str,
    tokens: &[Token],
    at: usize,
    expr: &str,
    expected: &str,
) -> ExpressionError {
    let (col, found) = match tokens.get(at) {
        Some(t) => (t.col, format!("'{}'", t.text)),
        None => (expr.chars().count() + 1, "the end".to_string()),
    };
    ExpressionError::Syntax {
        kind: kind.to_string(),
        col,
        expected: expected.to_string(),
        found,
    }
}

/// Reads the aws-cli `--key-condition-expression` spelling into a `KeyCondition`, checked by
/// the same rules as one built from flags.
pub fn parse_key_condition(
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
    keys: &KeySchema,
) -> Result<KeyCondition, ExpressionError> {
    parse_key_condition_with_usage(expr, names, values, keys).map(|(condition, _)| condition)
}

/// Like `parse_key_condition`, also returning the placeholders the expression used.
pub fn parse_key_condition_with_usage(
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
    keys: &KeySchema,
) -> Result<(KeyCondition, Placeholders), ExpressionError> {
    let tokens = tokenize(KEY_CONDITION, expr)?;
    check_brackets(KEY_CONDITION, &tokens)?;
    let mut parser = KeyParser {
        tokens: &tokens,
        pos: 0,
        depth: 0,
        expr,
        names,
        values,
        keys,
        used: Placeholders::default(),
    };
    let conjuncts = if tokens.is_empty() {
        Vec::new()
    } else {
        let conjuncts = parser.parse_and()?;
        if parser.pos < tokens.len() {
            return Err(parser.syntax("AND or the end of the key condition"));
        }
        conjuncts
    };
    let condition = assemble(keys, conjuncts)?;
    Ok((condition, parser.used))
}

/// A placeholder and the value it stands for.
type Placeheld = (String, AttrValue);

/// How one conjunct relates its attribute to its value(s).
enum Rel {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    BeginsWith,
    Between { high: Placeheld },
}

impl Rel {
    fn op(&self) -> SortOp {
        match self {
            Rel::Eq => SortOp::Eq,
            Rel::Lt => SortOp::Lt,
            Rel::Le => SortOp::Le,
            Rel::Gt => SortOp::Gt,
            Rel::Ge => SortOp::Ge,
            Rel::BeginsWith => SortOp::BeginsWith,
            Rel::Between { .. } => SortOp::Between,
        }
    }

    fn text(&self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
            Rel::BeginsWith => "begins_with",
            Rel::Between { .. } => "BETWEEN",
        }
    }
}

/// One `attribute op :value` comparison, before we know whether it is about the PK or the SK.
struct Conjunct {
    attr: String,
    rel: Rel,
    value: Placeheld,
}

enum Operand {
    /// A resolved top-level attribute name.
    Attr(String),
    Value(Placeheld),
}

struct KeyParser<'a> {
    tokens: &'a [Token],
    pos: usize,
    depth: usize,
    expr: &'a str,
    names: &'a [(String, String)],
    values: &'a [(String, AttrValue)],
    keys: &'a KeySchema,
    used: Placeholders,
}

impl KeyParser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }

    fn syntax(&self, expected: &str) -> ExpressionError {
        syntax_at(KEY_CONDITION, self.tokens, self.pos, self.expr, expected)
    }

    fn expect(&mut self, tok: Tok, expected: &str) -> Result<(), ExpressionError> {
        if self.peek() == Some(&tok) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.syntax(expected))
        }
    }

    fn unsupported(what: &str) -> ExpressionError {
        ExpressionError::UnsupportedInKey {
            what: what.to_string(),
        }
    }

    /// `unary (AND unary)*`, flattened: a key condition is a conjunction, however parenthesised.
    fn parse_and(&mut self) -> Result<Vec<Conjunct>, ExpressionError> {
        let mut conjuncts = self.parse_unary()?;
        loop {
            match self.peek() {
                Some(Tok::Keyword(Keyword::And)) => {
                    self.pos += 1;
                    conjuncts.extend(self.parse_unary()?);
                }
                Some(Tok::Keyword(Keyword::Or)) => return Err(Self::unsupported("OR")),
                _ => return Ok(conjuncts),
            }
        }
    }

    fn parse_unary(&mut self) -> Result<Vec<Conjunct>, ExpressionError> {
        match self.peek() {
            Some(Tok::LParen) => {
                if self.depth >= MAX_DEPTH {
                    return Err(self.syntax("fewer nested parentheses"));
                }
                self.pos += 1;
                self.depth += 1;
                let inner = self.parse_and()?;
                self.depth -= 1;
                self.expect(Tok::RParen, "')'")?;
                Ok(inner)
            }
            Some(Tok::Keyword(Keyword::Not)) => Err(Self::unsupported("NOT")),
            Some(Tok::Name(_))
                if self.tokens.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::LParen) =>
            {
                Ok(vec![self.parse_function()?])
            }
            _ => Ok(vec![self.parse_comparison()?]),
        }
    }

    /// `begins_with(sk, :p)`; every other function belongs in a filter.
    fn parse_function(&mut self) -> Result<Conjunct, ExpressionError> {
        let token = &self.tokens[self.pos];
        let name = token.text.clone();
        let col = token.col;
        if !name.eq_ignore_ascii_case("begins_with") {
            if is_function(&name) {
                return Err(Self::unsupported(&name));
            }
            return Err(ExpressionError::UnknownFunction {
                kind: KEY_CONDITION.to_string(),
                name,
                col,
            });
        }
        let start = self.pos;
        self.pos += 2; // the name and its '('
        let attr = self.operand()?;
        self.expect(Tok::Comma, "',' between the key and the :prefix")?;
        let prefix = self.operand()?;
        self.expect(Tok::RParen, "')'")?;
        match (attr, prefix) {
            (Operand::Attr(attr), Operand::Value(value)) => Ok(Conjunct {
                attr,
                rel: Rel::BeginsWith,
                value,
            }),
            _ => Err(self.needs_key_and_value(start)),
        }
    }

    fn parse_comparison(&mut self) -> Result<Conjunct, ExpressionError> {
        let start = self.pos;
        let left = self.operand()?;
        let Some(op_token) = self.tokens.get(self.pos) else {
            return Err(self.syntax("a comparison like '=' or BETWEEN"));
        };
        let cmp = match op_token.tok {
            Tok::Cmp(Cmp::Ne) => return Err(Self::unsupported("<>")),
            Tok::Keyword(Keyword::In) => return Err(Self::unsupported("IN")),
            Tok::Cmp(cmp) => cmp,
            Tok::Keyword(Keyword::Between) => {
                self.pos += 1;
                let low = self.operand()?;
                self.expect(
                    Tok::Keyword(Keyword::And),
                    "AND between the two BETWEEN values",
                )?;
                let high = self.operand()?;
                return match (left, low, high) {
                    (Operand::Attr(attr), Operand::Value(low), Operand::Value(high)) => {
                        Ok(Conjunct {
                            attr,
                            rel: Rel::Between { high },
                            value: low,
                        })
                    }
                    _ => Err(self.needs_key_and_value(start)),
                };
            }
            _ => return Err(self.syntax("a comparison like '=' or BETWEEN")),
        };
        self.pos += 1;
        let right = self.operand()?;
        // `:v < SK` means `SK > :v`; normalising lets the rest see the key on the left.
        let (attr, value, cmp) = match (left, right) {
            (Operand::Attr(attr), Operand::Value(value)) => (attr, value, cmp),
            (Operand::Value(value), Operand::Attr(attr)) => {
                let flipped = match cmp {
                    Cmp::Lt => Cmp::Gt,
                    Cmp::Le => Cmp::Ge,
                    Cmp::Gt => Cmp::Lt,
                    Cmp::Ge => Cmp::Le,
                    same => same,
                };
                (attr, value, flipped)
            }
            _ => return Err(self.needs_key_and_value(start)),
        };
        let rel = match cmp {
            Cmp::Lt => Rel::Lt,
            Cmp::Le => Rel::Le,
            Cmp::Gt => Rel::Gt,
            Cmp::Ge => Rel::Ge,
            Cmp::Eq | Cmp::Ne => Rel::Eq,
        };
        Ok(Conjunct { attr, rel, value })
    }

    /// The tokens from `start` up to here, for "must compare a key with a value" messages.
    fn needs_key_and_value(&self, start: usize) -> ExpressionError {
        let end = self.pos.min(self.tokens.len());
        let text = self.tokens[start..end]
            .iter()
            .map(|t| t.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        ExpressionError::NeedsKeyAndValue {
            text,
            col: self.tokens[start].col,
        }
    }

    fn operand(&mut self) -> Result<Operand, ExpressionError> {
        let expected = "a key name or a :placeholder";
        let Some(token) = self.tokens.get(self.pos) else {
            return Err(self.syntax(expected));
        };
        let name = match &token.tok {
            Tok::Name(word) => {
                if is_reserved(word) {
                    return Err(ExpressionError::Reserved { word: word.clone() });
                }
                word.clone()
            }
            Tok::NameRef(placeholder) => self.resolve_name(placeholder)?,
            Tok::ValueRef(placeholder) => {
                let value = lookup(self.values, placeholder).ok_or_else(|| {
                    ExpressionError::UnknownValue {
                        kind: KEY_CONDITION.to_string(),
                        name: placeholder.clone(),
                    }
                })?;
                self.used.values.insert(placeholder.clone());
                self.pos += 1;
                return Ok(Operand::Value((placeholder.clone(), value.clone())));
            }
            Tok::Number | Tok::Text(_) => return Err(literal(KEY_CONDITION, token)),
            _ => return Err(self.syntax(expected)),
        };
        self.pos += 1;

        // Keys are top-level attributes, so a nested path can never name one.
        let mut path = name.clone();
        while let Some(tok) = self.peek() {
            match tok {
                Tok::Dot => {
                    self.pos += 1;
                    let segment = match self.peek() {
                        Some(Tok::Name(word)) => word.clone(),
                        Some(Tok::NameRef(placeholder)) => {
                            let placeholder = placeholder.clone();
                            self.resolve_name(&placeholder)?
                        }
                        _ => return Err(self.syntax("an attribute name after '.'")),
                    };
                    self.pos += 1;
                    path.push('.');
                    path.push_str(&segment);
                }
                Tok::LBracket => {
                    self.pos += 1;
                    if self.peek() != Some(&Tok::Number) {
                        return Err(self.syntax("a list index like [0]"));
                    }
                    path.push('[');
                    path.push_str(&self.tokens[self.pos].text);
                    path.push(']');
                    self.pos += 1;
                    self.expect(Tok::RBracket, "']'")?;
                }
                _ => break,
            }
        }
        if path != name {
            return Err(not_a_key(self.keys, path));
        }
        Ok(Operand::Attr(name))
    }

    fn resolve_name(&mut self, placeholder: &str) -> Result<String, ExpressionError> {
        let name = lookup(self.names, placeholder).ok_or_else(|| ExpressionError::UnknownName {
            kind: KEY_CONDITION.to_string(),
            name: placeholder.to_string(),
        })?;
        self.used.names.insert(placeholder.to_string());
        Ok(name.clone())
    }
}

fn not_a_key(keys: &KeySchema, name: String) -> ExpressionError {
    let mut list = keys.partition_key.name.clone();
    if let Some(sk) = &keys.sort_key {
        list.push_str(", ");
        list.push_str(&sk.name);
    }
    ExpressionError::NotAKey { name, keys: list }
}

/// Sorts conjuncts into the PK and SK conditions, then hands the values to the same typing and
/// rules as `KeyCondition::build`.
fn assemble(keys: &KeySchema, conjuncts: Vec<Conjunct>) -> Result<KeyCondition, ExpressionError> {
    let pk = &keys.partition_key;
    let mut pk_conjunct: Option<Conjunct> = None;
    let mut sk_conjunct: Option<Conjunct> = None;
    for conjunct in conjuncts {
        if conjunct.attr == pk.name {
            if pk_conjunct.is_some() {
                return Err(ExpressionError::DuplicatePartitionKey {
                    key: pk.name.clone(),
                });
            }
            if !matches!(conjunct.rel, Rel::Eq) {
                return Err(ExpressionError::PartitionKeyOp {
                    key: pk.name.clone(),
                    op: conjunct.rel.text().to_string(),
                });
            }
            pk_conjunct = Some(conjunct);
        } else if let Some(sk) = keys.sort_key.as_ref().filter(|sk| sk.name == conjunct.attr) {
            if sk_conjunct.is_some() {
                return Err(ExpressionError::DuplicateSortKey {
                    key: sk.name.clone(),
                });
            }
            sk_conjunct = Some(conjunct);
        } else {
            return Err(not_a_key(keys, conjunct.attr));
        }
    }

    let pk_conjunct = pk_conjunct.ok_or_else(|| ExpressionError::MissingPartitionKey {
        key: pk.name.clone(),
    })?;
    let (placeholder, value) = &pk_conjunct.value;
    let pk_value = KeyValue::from_placeholder(placeholder, value, pk)?;

    let sort = match sk_conjunct {
        None => None,
        Some(Conjunct { rel, value, .. }) => {
            // Operator rules first, so `begins_with` on a number key says so rather than
            // complaining about the prefix's type.
            let sk = KeyCondition::check_sort_op(keys, rel.op())?;
            let typed = |(placeholder, value): &Placeheld| {
                KeyValue::from_placeholder(placeholder, value, sk)
            };
            let low = typed(&value)?;
            Some(match rel {
                Rel::Eq => SortCondition::Eq(low),
                Rel::Lt => SortCondition::Lt(low),
                Rel::Le => SortCondition::Le(low),
                Rel::Gt => SortCondition::Gt(low),
                Rel::Ge => SortCondition::Ge(low),
                Rel::BeginsWith => SortCondition::BeginsWith(low),
                Rel::Between { high } => SortCondition::Between(low, typed(&high)?),
            })
        }
    };
    Ok(KeyCondition::from_typed(keys, pk_value, sort)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::schema::{KeyAttr, KeyType};

    fn keys(pk: KeyType, sk: Option<KeyType>) -> KeySchema {
        KeySchema {
            partition_key: KeyAttr {
                name: "PK".into(),
                key_type: pk,
            },
            sort_key: sk.map(|key_type| KeyAttr {
                name: "SK".into(),
                key_type,
            }),
        }
    }

    fn names() -> Vec<(String, String)> {
        [
            ("#pk", "PK"),
            ("#sk", "SK"),
            ("#status", "status"),
            ("#n", "name"),
            ("#data", "data"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    fn values() -> Vec<(String, AttrValue)> {
        [
            (":pk", AttrValue::S("USER#1".into())),
            (":s", AttrValue::S("ORDER#".into())),
            (":s2", AttrValue::S("ORDER#9".into())),
            (":empty", AttrValue::S(String::new())),
            (":n", AttrValue::N("10".into())),
            (":n9", AttrValue::N("9".into())),
            (":b", AttrValue::B(vec![1])),
            (":map", AttrValue::M(Default::default())),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }

    #[test]
    fn check_expression_accepts_valid_expressions() {
        let cases = [
            ("filter", "#status = :s", &["#status"][..], &[":s"][..]),
            (
                "filter",
                "price > :n AND NOT (#status = :s OR contains(tags, :s2))",
                &["#status"],
                &[":n", ":s", ":s2"],
            ),
            (
                "filter",
                "attribute_exists(a.b[0].c) and size(#data) < :n",
                &["#data"],
                &[":n"],
            ),
            (
                "filter",
                "a BETWEEN :n9 AND :n OR b IN (:s, :s2)",
                &[],
                &[":n", ":n9", ":s", ":s2"],
            ),
            ("filter", "x <> :s", &[], &[":s"]),
            (
                "projection",
                "PK, SK, #n, tags[12], m.inner_1",
                &["#n"],
                &[],
            ),
            ("projection", "#data.#n", &["#data", "#n"], &[]),
        ];
        for (kind, expr, want_names, want_values) in cases {
            let used = check_expression(kind, expr, &names(), &values())
                .unwrap_or_else(|e| panic!("{expr:?}: {e}"));
            assert_eq!(
                used.names.iter().collect::<Vec<_>>(),
                want_names,
                "{expr:?}"
            );
            assert_eq!(
                used.values.iter().collect::<Vec<_>>(),
                want_values,
                "{expr:?}"
            );
        }
    }

    #[test]
    fn check_expression_rules() {
        let cases = [
            ("filter", "", "the filter expression is empty"),
            ("filter", "  ", "the filter expression is empty"),
            ("filter", "#st = :s", "unknown placeholder '#st' in filter expression; define it in --names"),
            ("filter", "a = :st", "unknown placeholder ':st' in filter expression; define it in --values"),
            (
                "filter",
                "status = :s",
                r##"'status' is a reserved word in DynamoDB expressions; write '#status' and pass --names '{"#status":"status"}'"##,
            ),
            ("projection", "PK, Name", "'Name' is a reserved word"),
            ("projection", "a.size", "'size' is a reserved word"),
            ("filter", "(a = :s", "'(' at column 1 in filter expression is never closed; add the matching ')'"),
            ("filter", "a = :s)", "unmatched ')' at column 7 in filter expression"),
            ("filter", "(a = :s))", "unmatched ')' at column 9"),
            ("projection", "a[0", "'[' at column 2 in projection expression is never closed; add the matching ']'"),
            ("filter", "(a[0)]", "unmatched ')' at column 5"),
            ("projection", "a[x]", "expected a list index like [0] at column 3 in projection expression, found 'x'"),
            ("projection", "a[]", "expected a list index like [0] at column 3"),
            ("projection", "a[1.5]", "expected a list index like [0] at column 3"),
            ("filter", "a = 5", "literal '5' at column 5 is not allowed in a filter expression; use a placeholder like ':v'"),
            ("filter", "a = 'x'", "literal 'x' at column 5"),
            ("filter", "a = \"x", "literal 'x' at column 5"),
            ("filter", "a = 1.5", "literal '1.5'"),
            ("filter", "user-id = :s", "unexpected character '-' at column 5 in filter expression; put attribute names"),
            ("filter", "é = :s", "unexpected character 'é' at column 1"),
            ("filter", "a != :s", "expected '<>' for not-equal at column 3 in filter expression, found '!='"),
            ("filter", "# = :s", "'#' at column 1 in filter expression has no name; write it like '#name'"),
            ("filter", "a = :", "':' at column 5 in filter expression has no name"),
            ("filter", "1st = :s", "'1st' at column 1 in filter expression starts with a digit; write '#1st'"),
            ("filter", "exists(a)", "unknown function 'exists' at column 1 in filter expression"),
            ("key condition", "PK = :nope", "unknown placeholder ':nope' in key condition expression"),
        ];
        for (kind, expr, expected) in cases {
            let message = check_expression(kind, expr, &names(), &values())
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{expr:?}: got {message:?}");
            assert!(!message.contains('\n'));
        }
    }

    fn parse(expr: &str, schema: &KeySchema) -> Result<KeyCondition, ExpressionError> {
        parse_key_condition(expr, &names(), &values(), schema)
    }

    #[test]
    fn parses_key_conditions() {
        let s = |v: &str| KeyValue::S(v.into());
        let n = |v: &str| KeyValue::N(v.into());
        let text = keys(KeyType::S, Some(KeyType::S));
        let num = keys(KeyType::S, Some(KeyType::N));
        let cases = [
            (&text, "PK = :pk", None),
            (&text, "#pk = :pk", None),
            (&text, "(PK = :pk)", None),
            (&text, ":pk = PK", None),
            (
                &text,
                "PK = :pk AND SK = :s",
                Some(SortCondition::Eq(s("ORDER#"))),
            ),
            (
                &text,
                "SK = :s AND PK = :pk",
                Some(SortCondition::Eq(s("ORDER#"))),
            ),
            (
                &num,
                "PK = :pk and #sk < :n",
                Some(SortCondition::Lt(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND SK <= :n",
                Some(SortCondition::Le(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND SK > :n",
                Some(SortCondition::Gt(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND SK >= :n",
                Some(SortCondition::Ge(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND :n > SK",
                Some(SortCondition::Lt(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND :n <= SK",
                Some(SortCondition::Ge(n("10"))),
            ),
            (
                &num,
                "PK = :pk AND SK BETWEEN :n9 AND :n",
                Some(SortCondition::Between(n("9"), n("10"))),
            ),
            (
                &num,
                "(SK between :n9 and :n) AND (#pk = :pk)",
                Some(SortCondition::Between(n("9"), n("10"))),
            ),
            (
                &text,
                "PK = :pk AND begins_with(SK, :s)",
                Some(SortCondition::BeginsWith(s("ORDER#"))),
            ),
            (
                &text,
                "((PK = :pk) AND (begins_with(#sk, :s)))",
                Some(SortCondition::BeginsWith(s("ORDER#"))),
            ),
            (
                &text,
                "begins_with ( SK , :s ) AND PK=:pk",
                Some(SortCondition::BeginsWith(s("ORDER#"))),
            ),
        ];
        for (schema, expr, expected) in cases {
            let condition = parse(expr, schema).unwrap_or_else(|e| panic!("{expr:?}: {e}"));
            assert_eq!(condition.pk_value, s("USER#1"), "{expr:?}");
            assert_eq!(condition.sort.map(|(_, c)| c), expected, "{expr:?}");
        }
    }

    #[test]
    fn key_condition_rules() {
        let text = keys(KeyType::S, Some(KeyType::S));
        let num = keys(KeyType::S, Some(KeyType::N));
        let pk_only = keys(KeyType::S, None);
        let cases = [
            (&text, "PK < :pk", "partition key 'PK' only supports '=', not '<'; use a Scan with --filter for ranges"),
            (&text, "PK BETWEEN :pk AND :s", "partition key 'PK' only supports '=', not 'BETWEEN'"),
            (&text, "begins_with(PK, :pk)", "partition key 'PK' only supports '=', not 'begins_with'"),
            (&text, "PK <> :pk", "'<>' is not supported in a key condition; move it to --filter-expression"),
            (&text, "PK = :pk OR SK = :s", "'OR' is not supported in a key condition"),
            (&text, "NOT PK = :pk", "'NOT' is not supported in a key condition"),
            (&text, "PK IN (:pk, :s)", "'IN' is not supported in a key condition"),
            (&text, "PK = :pk AND contains(SK, :s)", "'contains' is not supported in a key condition"),
            (&text, "PK = :pk AND size(SK) > :n", "'size' is not supported in a key condition"),
            (&text, "PK = :pk AND starts_with(SK, :s)", "unknown function 'starts_with' at column 14 in key condition expression"),
            (&text, "PK = :pk AND foo = :s", "'foo' is not a key of this table/index (keys: PK, SK)"),
            (&pk_only, "PK = :pk AND SK = :s", "'SK' is not a key of this table/index (keys: PK);"),
            (&text, "PK = :pk AND SK.x = :s", "'SK.x' is not a key"),
            (&text, "PK = :pk AND #data.#n = :s", "'data.name' is not a key"),
            (&text, "PK = :pk AND SK[0] = :s", "'SK[0]' is not a key"),
            (&text, "SK = :s", "the key condition does not compare partition key 'PK'; add 'PK = :pk'"),
            (&text, "", "does not compare partition key 'PK'"),
            (&text, "PK = :pk AND PK = :pk", "partition key 'PK' is compared twice"),
            (&text, "PK = :pk AND SK = :s AND SK = :s2", "sort key 'SK' has two conditions"),
            (&text, "PK = :pk AND SK > :s AND begins_with(SK, :s)", "sort key 'SK' has two conditions"),
            (&text, "PK = 'USER#1'", "literal 'USER#1' at column 6 is not allowed in a key condition expression; use a placeholder like ':v'"),
            (&num, "PK = :pk AND SK > 5", "literal '5' at column 19"),
            (&text, "PK = SK", "'PK = SK' at column 1 in key condition expression must compare a key name with a :placeholder"),
            (&text, ":pk = :s", "':pk = :s' at column 1"),
            (&text, "begins_with(:s, SK) AND PK = :pk", "'begins_with ( :s , SK )' at column 1"),
            (&text, "status = :pk", "'status' is a reserved word in DynamoDB expressions; write '#status'"),
            (&text, "#nope = :pk", "unknown placeholder '#nope' in key condition expression; define it in --names"),
            (&text, "PK = :nope", "unknown placeholder ':nope' in key condition expression; define it in --values"),
            (&text, "(PK = :pk", "'(' at column 1 in key condition expression is never closed"),
            (&text, "PK = :pk)", "unmatched ')' at column 9"),
            (&text, "PK = :pk SK = :s", "expected AND or the end of the key condition at column 10 in key condition expression, found 'SK'"),
            (&text, "PK = :pk AND", "expected a key name or a :placeholder at column 13 in key condition expression, found the end"),
            (&text, "PK", "expected a comparison like '=' or BETWEEN at column 3"),
            (&text, "PK = :pk AND SK BETWEEN :s :s2", "expected AND between the two BETWEEN values at column 28"),
            // Typing goes through key_condition, with the placeholder named.
            (&num, "PK = :pk AND SK = :s", "key 'SK' is a number (N) but ':s' is a string (S)"),
            (&text, "PK = :n", "key 'PK' is a string (S) but ':n' is a number (N)"),
            (&text, "PK = :map", "key 'PK' is a string (S) but ':map' is a map (M)"),
            (&text, "PK = :empty", "key 'PK' cannot be empty"),
            (&num, "PK = :pk AND begins_with(SK, :n)", "begins_with is not allowed on number (N) sort key 'SK'; use between"),
            (&num, "PK = :pk AND begins_with(SK, :s)", "begins_with is not allowed on number (N) sort key 'SK'"),
            (&num, "PK = :pk AND SK BETWEEN :n AND :n9", "between on sort key 'SK' needs low <= high, but '10' is greater than '9'"),
            (&text, "PK = :pk AND SK BETWEEN :s2 AND :s", "'ORDER#9' is greater than 'ORDER#'"),
        ];
        for (schema, expr, expected) in cases {
            let message = parse(expr, schema).unwrap_err().to_string();
            assert!(message.contains(expected), "{expr:?}: got {message:?}");
            assert!(!message.contains('\n'));
        }
    }

    #[test]
    fn key_condition_errors_wrap_key_condition_error() {
        let num = keys(KeyType::S, Some(KeyType::N));
        let err = parse("PK = :pk AND begins_with(SK, :n)", &num).unwrap_err();
        assert_eq!(
            err,
            ExpressionError::Key(KeyConditionError::BeginsWithOnNumber { key: "SK".into() })
        );
    }

    #[test]
    fn key_condition_reports_used_placeholders() {
        let text = keys(KeyType::S, Some(KeyType::S));
        let (_, used) = parse_key_condition_with_usage(
            "#pk = :pk AND begins_with(#sk, :s)",
            &names(),
            &values(),
            &text,
        )
        .unwrap();
        assert_eq!(used.names.into_iter().collect::<Vec<_>>(), ["#pk", "#sk"]);
        assert_eq!(used.values.into_iter().collect::<Vec<_>>(), [":pk", ":s"]);
    }

    /// parse → to_expression → parse again gives the same condition, and the generated text is
    /// itself a valid expression for `check_expression`.
    #[test]
    fn round_trips_through_to_expression() {
        let text = keys(KeyType::S, Some(KeyType::S));
        let num = keys(KeyType::S, Some(KeyType::N));
        let bin = keys(KeyType::S, Some(KeyType::B));
        let cases = [
            (&text, "PK = :pk", "#pk = :pk"),
            (&text, "SK = :s AND PK = :pk", "#pk = :pk AND #sk = :sk"),
            (&num, ":n9 < SK AND PK = :pk", "#pk = :pk AND #sk > :sk"),
            (&num, "PK = :pk AND SK <= :n", "#pk = :pk AND #sk <= :sk"),
            (
                &num,
                "PK = :pk AND SK BETWEEN :n9 AND :n",
                "#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi",
            ),
            (
                &text,
                "PK = :pk AND begins_with(SK, :s)",
                "#pk = :pk AND begins_with(#sk, :sk)",
            ),
            (
                &bin,
                "PK = :pk AND begins_with(SK, :b)",
                "#pk = :pk AND begins_with(#sk, :sk)",
            ),
        ];
        for (schema, expr, expected) in cases {
            let condition = parse(expr, schema).unwrap();
            let parts = condition.to_expression();
            assert_eq!(parts.key_condition, expected);
            let again =
                parse_key_condition(&parts.key_condition, &parts.names, &parts.values, schema)
                    .unwrap_or_else(|e| panic!("{expected:?}: {e}"));
            assert_eq!(again, condition);
            let used = check_expression(
                KEY_CONDITION,
                &parts.key_condition,
                &parts.names,
                &parts.values,
            )
            .unwrap();
            assert_eq!(used.values.len(), parts.values.len());
            assert_eq!(used.names.len(), parts.names.len());
        }
    }

    fn splitmix64(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Random token soup, and valid expressions with a few tokens swapped, must produce a
    /// result or an error, never a panic.
    #[test]
    fn never_panics_on_generated_input() {
        const ALPHABET: &[&str] = &[
            "PK",
            "SK",
            "#pk",
            "#sk",
            "#n",
            "#nope",
            ":pk",
            ":s",
            ":s2",
            ":n",
            ":n9",
            ":b",
            ":map",
            ":empty",
            ":nope",
            "=",
            "<",
            "<=",
            ">",
            ">=",
            "<>",
            "!=",
            "(",
            ")",
            "[",
            "]",
            "[0]",
            ",",
            ".",
            "AND",
            "and",
            "OR",
            "NOT",
            "BETWEEN",
            "IN",
            "begins_with",
            "contains",
            "size",
            "status",
            "foo",
            "a.b",
            "5",
            "1.5",
            "1x",
            "'q'",
            "\"",
            "#",
            ":",
            "é",
            "-",
            "_",
            "",
        ];
        const VALID: &[&str] = &[
            "PK = :pk AND SK BETWEEN :n9 AND :n",
            "( #pk = :pk ) AND ( begins_with ( #sk , :s ) )",
            ":n < SK AND PK = :pk",
            "a . b [ 0 ] = :s OR NOT contains ( #n , :s2 )",
        ];
        let schemas = [
            keys(KeyType::S, Some(KeyType::S)),
            keys(KeyType::S, Some(KeyType::N)),
            keys(KeyType::B, Some(KeyType::B)),
            keys(KeyType::N, None),
        ];
        let (names, values) = (names(), values());
        let mut state = 0x5EED_u64;
        let mut pick = |n: usize| splitmix64(&mut state) as usize % n;
        for round in 0..6000 {
            let mut words: Vec<&str> = if round % 2 == 0 {
                (0..pick(14))
                    .map(|_| ALPHABET[pick(ALPHABET.len())])
                    .collect()
            } else {
                VALID[pick(VALID.len())].split(' ').collect()
            };
            for _ in 0..pick(3) {
                if !words.is_empty() {
                    let at = pick(words.len());
                    words[at] = ALPHABET[pick(ALPHABET.len())];
                }
            }
            let separator = if pick(2) == 0 { " " } else { "" };
            let expr = words.join(separator);
            let schema = &schemas[round % schemas.len()];
            let _ = parse_key_condition(&expr, &names, &values, schema);
            let _ = check_expression("filter", &expr, &names, &values);
        }
    }
}
