//! What the builder's PartiQL statement can complete where the cursor is: a key value inside an
//! open string after the key's condition, or a keyword where the grammar expects one.

use super::lexer::{tokenize, Tok};

/// The names a key is spelled with: bare, or double-quoted.
fn ends_with_name<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let before = text
        .strip_suffix(&format!("\"{name}\""))
        .or_else(|| text.strip_suffix(name))?;
    // `XPK` or `m.PK` is not `PK`.
    let glued = before
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.');
    (!glued).then_some(before)
}

/// A statement ending in an open string: the text before its quote and the value typed so far
/// (`''` is a quote inside a string).
fn open_string(text: &str) -> Option<(&str, String)> {
    let mut open = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (c, open) {
            ('\'', None) => open = Some(i),
            ('\'', Some(_)) if chars.peek().is_some_and(|(_, n)| *n == '\'') => {
                chars.next();
            }
            ('\'', Some(_)) => open = None,
            _ => {}
        }
    }
    let quote = open?;
    Some((&text[..quote], text[quote + 1..].replace("''", "'")))
}

/// A statement ending in `PK = 'partial`: the text before the quote and the value typed so far.
pub fn open_key_value<'a>(text: &'a str, pk: &str) -> Option<(&'a str, String)> {
    let (head, partial) = open_string(text)?;
    let before = head.trim_end().strip_suffix('=')?.trim_end();
    ends_with_name(before, pk)?;
    Some((head, partial))
}

/// A statement ending in an open string where a sort-key value goes: after `SK =`, `<`, `<=`,
/// `>`, `>=`, `begins_with(SK,`, `SK BETWEEN` or `SK BETWEEN 'a' AND`.
pub fn open_sort_value<'a>(text: &'a str, sk: &str) -> Option<(&'a str, String)> {
    let (head, partial) = open_string(text)?;
    let before = head.trim_end();
    let is_sk = |t: &str| ends_with_name(t.trim_end(), sk).is_some();
    let compared = [">=", "<=", "=", "<", ">"]
        .iter()
        .find_map(|op| before.strip_suffix(op))
        .is_some_and(|t| !t.ends_with(['<', '>', '!']) && is_sk(t));
    let prefix = before
        .strip_suffix(',')
        .and_then(|t| ends_with_name(t.trim_end(), sk))
        .and_then(|t| t.trim_end().strip_suffix('('))
        .is_some_and(|t| t.trim_end().to_ascii_lowercase().ends_with("begins_with"));
    let between = strip_word(before, "BETWEEN").is_some_and(is_sk);
    // `SK BETWEEN 'a' AND '`: the string before AND closes the lower bound.
    let upper = strip_word(before, "AND")
        .and_then(|t| t.trim_end().strip_suffix('\''))
        .and_then(|t| open_string(t).map(|(h, _)| h))
        .and_then(|h| strip_word(h.trim_end(), "BETWEEN"))
        .is_some_and(is_sk);
    (compared || prefix || between || upper).then_some((head, partial))
}

/// The partition-key value the statement pins with `PK = 'value'` (the first one), if any.
pub fn pinned_partition(text: &str, pk: &str) -> Option<String> {
    let tokens: Vec<Tok> = tokenize(text).ok()?.into_iter().map(|t| t.tok).collect();
    let is_pk = |t: &Tok| matches!(t, Tok::Word(w) | Tok::Quoted(w) if w == pk);
    tokens.windows(3).find_map(|w| match w {
        [name, Tok::Op("="), Tok::Str(v)] | [Tok::Str(v), Tok::Op("="), name] if is_pk(name) => {
            Some(v.clone())
        }
        _ => None,
    })
}

/// `text` without its last word when that is `word` (any case), as a whole word.
fn strip_word<'a>(text: &'a str, word: &str) -> Option<&'a str> {
    let at = text.len().checked_sub(word.len())?;
    let (rest, last) = (text.get(..at)?, text.get(at..)?);
    let whole = !rest
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    (last.eq_ignore_ascii_case(word) && whole).then_some(rest)
}

/// Every keyword this module offers: the functions as written, the rest in capitals.
const CONDITION: &[&str] = &["NOT", "begins_with", "contains", "attribute_type", "size"];
const AFTER_VALUE: &[&str] = &["AND", "OR", "ORDER BY"];
const AFTER_NAME: &[&str] = &["IN", "BETWEEN", "IS MISSING", "IS NOT MISSING"];

/// The keywords the grammar expects in place of the statement's last, partly typed word: the
/// statement completed with each (case-insensitive prefix), or nothing.
pub fn keywords(text: &str) -> Vec<String> {
    let start = text
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let (head, word) = text.split_at(start);
    if word.is_empty() || head.ends_with(['"', '.']) {
        return Vec::new();
    }
    let Ok(tokens) = tokenize(head) else {
        return Vec::new();
    };
    let expected = expected(&tokens.into_iter().map(|t| t.tok).collect::<Vec<_>>());
    let lower = word.to_ascii_lowercase();
    expected
        .iter()
        .filter(|k| k.to_ascii_lowercase().starts_with(&lower) && !k.eq_ignore_ascii_case(word))
        .map(|k| format!("{head}{k}"))
        .collect()
}

fn is_word(tok: &Tok, word: &str) -> bool {
    matches!(tok, Tok::Word(w) if w.eq_ignore_ascii_case(word))
}

/// A keyword this grammar gives meaning to (not an attribute name).
fn is_keyword(tok: &Tok) -> bool {
    const ALL: &[&str] = &[
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "BETWEEN", "IS", "MISSING", "ORDER",
        "BY", "ASC", "DESC", "TRUE", "FALSE", "NULL",
    ];
    ALL.iter().any(|k| is_word(tok, k))
}

/// What may follow `tokens`, by the clause they end in and their last token.
fn expected(tokens: &[Tok]) -> &'static [&'static str] {
    let Some(last) = tokens.last() else {
        return &["SELECT"];
    };
    let clause = tokens.iter().rev().find(|t| {
        ["SELECT", "FROM", "WHERE", "ORDER"]
            .iter()
            .any(|k| is_word(t, k))
    });
    let before = tokens.len().checked_sub(2).map(|i| &tokens[i]);
    let name = |t: &Tok| matches!(t, Tok::Quoted(_)) || matches!(t, Tok::Word(_)) && !is_keyword(t);
    let value = |t: &Tok| {
        matches!(
            t,
            Tok::Str(_) | Tok::Num(_) | Tok::Param | Tok::RParen | Tok::RBracket | Tok::RBag
        ) || ["MISSING", "TRUE", "FALSE", "NULL"]
            .iter()
            .any(|k| is_word(t, k))
    };
    match clause {
        Some(c) if is_word(c, "SELECT") => {
            if name(last) || matches!(last, Tok::Star) {
                &["FROM"]
            } else {
                &[]
            }
        }
        Some(c) if is_word(c, "FROM") => {
            if name(last) {
                &["WHERE"]
            } else {
                &[]
            }
        }
        Some(c) if is_word(c, "WHERE") => {
            if before.is_some_and(|b| is_word(b, "BETWEEN")) && value(last) {
                &["AND"]
            } else if value(last) {
                AFTER_VALUE
            } else if is_word(last, "IS") {
                &["MISSING", "NOT MISSING"]
            } else if before.is_some_and(|b| is_word(b, "IS")) && is_word(last, "NOT") {
                &["MISSING"]
            } else if name(last) {
                AFTER_NAME
            } else if ["WHERE", "AND", "OR", "NOT"]
                .iter()
                .any(|k| is_word(last, k))
                || matches!(last, Tok::LParen)
            {
                CONDITION
            } else {
                &[]
            }
        }
        Some(c) if is_word(c, "ORDER") => {
            if is_word(last, "ORDER") {
                &["BY"]
            } else if name(last) {
                &["ASC", "DESC"]
            } else {
                &[]
            }
        }
        _ => &[],
    }
}

#[cfg(test)]
#[path = "complete_tests.rs"]
mod tests;
