//! The builder's friendly filter and projection syntax, compiled to DynamoDB's.
//!
//! People type `status = "SHIPPED" AND total > 100`: bare words are attribute names, quoted text
//! and numbers are values. DynamoDB wants placeholders for both (and refuses reserved words such
//! as `status` without one), so every attribute becomes `#name` and every value `:v1`, `:v2`…
//! An attribute name a bare word cannot spell (`State#Date`, `order id`, `a.b` as one name) is
//! written in backticks: `` `State#Date` = "x" `` becomes `#State_Date = :f1`.
//! The result is checked with the same rules as a hand-written expression.

use crate::item::number::validate_number;
use crate::item::value::AttrValue;
use crate::query::expression::{check_condition_grammar, check_expression, FUNCTIONS};

const KEYWORDS: &[&str] = &["AND", "OR", "NOT", "BETWEEN", "IN"];

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Compiled {
    pub expression: String,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
}

/// `prefix` keeps the builder's placeholders apart from the key condition's (`:f1` vs `:pk`).
pub fn compile_filter(text: &str, prefix: &str) -> Result<Compiled, String> {
    compile_filter_beside(text, prefix, &[])
}

/// [`compile_filter`] for an expression sent beside others whose `taken` names it may reuse
/// (an attribute already named keeps its placeholder) and must not redefine: a filter on an
/// attribute `pk` gets `#pk_2` when `#pk` already stands for `PK`. The names returned are
/// the new ones only.
pub fn compile_filter_beside(
    text: &str,
    prefix: &str,
    taken: &[(String, String)],
) -> Result<Compiled, String> {
    let mut out = Compiled {
        names: taken.to_vec(),
        ..Compiled::default()
    };
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut expression = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            expression.push(' ');
            i += 1;
        } else if c == '"' || c == '\'' {
            let quote = c;
            let mut value = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => {
                        return Err(format!(
                            "text starting at column {} is never closed; add the closing {quote}",
                            i
                        ))
                    }
                    Some('\\') if chars.get(i + 1).is_some() => {
                        value.push(chars[i + 1]);
                        i += 2;
                    }
                    Some(&q) if q == quote => {
                        i += 1;
                        break;
                    }
                    Some(&ch) => {
                        value.push(ch);
                        i += 1;
                    }
                }
            }
            expression.push_str(&push_value(&mut out, prefix, AttrValue::S(value)));
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            i += 1;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric()
                    || matches!(chars[i], '.' | '+' | '-')
                        && matches!(chars[i - 1], 'e' | 'E' | '0'..='9'))
            {
                i += 1;
            }
            let number: String = chars[start..i].iter().collect();
            validate_number(&number).map_err(|e| e.to_string())?;
            expression.push_str(&push_value(&mut out, prefix, AttrValue::N(number)));
        } else if c == '`' {
            let (name, end) = quoted_name(&chars, i)?;
            i = end;
            expression.push_str(&push_name(&mut out, &name));
        } else if c == '#' {
            return Err(needs_backticks(&chars, i));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '-')) {
                i += 1;
            }
            if chars.get(i) == Some(&'#') {
                return Err(needs_backticks(&chars, start));
            }
            let word: String = chars[start..i].iter().collect();
            let upper = word.to_ascii_uppercase();
            if KEYWORDS.contains(&upper.as_str()) {
                expression.push_str(&upper);
            } else if FUNCTIONS.contains(&word.as_str()) && chars.get(i) == Some(&'(') {
                expression.push_str(&word);
            } else if word == "true" || word == "false" {
                expression.push_str(&push_value(
                    &mut out,
                    prefix,
                    AttrValue::Bool(word == "true"),
                ));
            } else {
                expression.push_str(&push_name(&mut out, &word));
            }
        } else {
            expression.push(c);
            i += 1;
        }
    }
    out.expression = expression.split_whitespace().collect::<Vec<_>>().join(" ");
    check_expression("filter", &out.expression, &out.names, &out.values)
        .map_err(|e| e.to_string())?;
    check_condition_grammar("filter", &out.expression, &|token| shown(&out, token))
        .map_err(|e| e.to_string())?;
    out.names.drain(..taken.len());
    Ok(out)
}

/// A token of the compiled filter as the user wrote it: a placeholder back into its
/// attribute or value.
fn shown(out: &Compiled, token: &str) -> String {
    if let Some((_, attr)) = out.names.iter().find(|(n, _)| n == token) {
        return attr.clone();
    }
    match out.values.iter().find(|(n, _)| n == token) {
        Some((_, AttrValue::S(s))) => format!("\"{s}\""),
        Some((_, AttrValue::N(n))) => n.clone(),
        Some((_, AttrValue::Bool(b))) => b.to_string(),
        Some((_, other)) => other.type_name().to_string(),
        None => token.to_string(),
    }
}

/// The backticked name starting at `chars[open]` and the index just past its closing backtick.
fn quoted_name(chars: &[char], open: usize) -> Result<(String, usize), String> {
    let Some(len) = chars[open + 1..].iter().position(|&c| c == '`') else {
        return Err(format!(
            "attribute name starting at column {} is never closed; add the closing `",
            open + 1
        ));
    };
    let name: String = chars[open + 1..open + 1 + len].iter().collect();
    if name.is_empty() {
        return Err(format!(
            "empty attribute name `` at column {}; write the name between the backticks",
            open + 1
        ));
    }
    Ok((name, open + len + 2))
}

/// The filter makes its own `#` placeholders, so a `#` typed in a name means a name a bare
/// word cannot spell: say how to write it.
fn needs_backticks(chars: &[char], start: usize) -> String {
    let end = chars[start..]
        .iter()
        .position(|c| c.is_whitespace() || "=<>!(),[]".contains(*c))
        .map_or(chars.len(), |n| start + n);
    let word: String = chars[start..end].iter().collect();
    format!(
        "'{word}' at column {}: a name holding '#' is written in backticks, like `{word}`",
        start + 1
    )
}

/// `a, b.c` → `#a, #b.#c` with names; `` `a.b` `` is one attribute named `a.b`.
pub fn compile_projection(text: &str) -> Result<Compiled, String> {
    compile_projection_beside(text, &[])
}

/// [`compile_projection`] beside `taken` names, as [`compile_filter_beside`].
pub fn compile_projection_beside(
    text: &str,
    taken: &[(String, String)],
) -> Result<Compiled, String> {
    let mut out = Compiled {
        names: taken.to_vec(),
        ..Compiled::default()
    };
    let mut parts = Vec::new();
    for attr in projection_paths(text)? {
        if attr.is_empty() || attr.iter().any(String::is_empty) {
            return Err(format!(
                "projection '{text}' has an empty attribute; list names like: name, email"
            ));
        }
        let path: Vec<String> = attr.iter().map(|seg| push_name(&mut out, seg)).collect();
        parts.push(path.join("."));
    }
    out.expression = parts.join(", ");
    check_expression("projection", &out.expression, &out.names, &out.values)
        .map_err(|e| e.to_string())?;
    out.names.drain(..taken.len());
    Ok(out)
}

/// The projection's attributes (split at commas), each a path of names (split at dots), with
/// backticked names taken whole and bare ones trimmed.
fn projection_paths(text: &str) -> Result<Vec<Vec<String>>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut paths = vec![Vec::new()];
    let mut segment = String::new();
    let mut quoted: Option<String> = None;
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '`' if segment.trim().is_empty() && quoted.is_none() => {
                let (name, end) = quoted_name(&chars, i)?;
                quoted = Some(name);
                segment.clear();
                i = end;
                continue;
            }
            c @ (',' | '.') => {
                let seg = quoted.take().unwrap_or_else(|| segment.trim().to_string());
                paths.last_mut().expect("one path").push(seg);
                segment.clear();
                if c == ',' {
                    paths.push(Vec::new());
                }
            }
            c if quoted.is_some() && !c.is_whitespace() => {
                return Err(format!(
                    "projection '{text}': '{c}' at column {} follows a backticked name; \
                     separate attributes with ',' and path parts with '.'",
                    i + 1
                ));
            }
            c => segment.push(c),
        }
        i += 1;
    }
    let seg = quoted.take().unwrap_or_else(|| segment.trim().to_string());
    paths.last_mut().expect("one path").push(seg);
    Ok(paths)
}

fn push_value(out: &mut Compiled, prefix: &str, value: AttrValue) -> String {
    let name = format!(":{prefix}{}", out.values.len() + 1);
    out.values.push((name.clone(), value));
    name
}

fn push_name(out: &mut Compiled, attr: &str) -> String {
    // `#` names allow letters, digits and underscores only.
    let clean: String = attr
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if let Some((existing, _)) = out.names.iter().find(|(_, a)| a == attr) {
        return existing.clone();
    }
    let mut name = format!("#{clean}");
    if out.names.iter().any(|(n, _)| *n == name) {
        name = format!("#{clean}_{}", out.names.len() + 1);
    }
    out.names.push((name.clone(), attr.to_string()));
    name
}

#[cfg(test)]
#[path = "filter_compile_tests.rs"]
mod tests;
