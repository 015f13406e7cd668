//! The builder's friendly filter and projection syntax, compiled to DynamoDB's.
//!
//! People type `status = "SHIPPED" AND total > 100`: bare words are attribute names, quoted text
//! and numbers are values. DynamoDB wants placeholders for both (and refuses reserved words such
//! as `status` without one), so every attribute becomes `#name` and every value `:v1`, `:v2`…
//! The result is checked with the same rules as a hand-written expression.

use super::expression::{check_condition_grammar, check_expression, FUNCTIONS};
use super::number::validate_number;
use super::value::AttrValue;

const KEYWORDS: &[&str] = &["AND", "OR", "NOT", "BETWEEN", "IN"];

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Compiled {
    pub expression: String,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
}

/// `prefix` keeps the builder's placeholders apart from the key condition's (`:f1` vs `:pk`).
pub fn compile_filter(text: &str, prefix: &str) -> Result<Compiled, String> {
    let mut out = Compiled::default();
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
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || matches!(chars[i], '_' | '-')) {
                i += 1;
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

/// `a, b.c` → `#a, #b.#c` with names.
pub fn compile_projection(text: &str) -> Result<Compiled, String> {
    let mut out = Compiled::default();
    let mut parts = Vec::new();
    for attr in text.split(',').map(str::trim) {
        if attr.is_empty() {
            return Err(format!(
                "projection '{text}' has an empty attribute; list names like: name, email"
            ));
        }
        let path: Vec<String> = attr
            .split('.')
            .map(|seg| push_name(&mut out, seg))
            .collect();
        parts.push(path.join("."));
    }
    out.expression = parts.join(", ");
    check_expression("projection", &out.expression, &out.names, &out.values)
        .map_err(|e| e.to_string())?;
    Ok(out)
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
mod tests {
    use super::*;

    #[test]
    fn filters_compile_to_placeholders() {
        let cases = [
            (
                "status = \"SHIPPED\"",
                "#status = :f1",
                vec![(":f1", AttrValue::S("SHIPPED".into()))],
            ),
            (
                "total > 100 and not (status = 'X')",
                "#total > :f1 AND NOT (#status = :f2)",
                vec![
                    (":f1", AttrValue::N("100".into())),
                    (":f2", AttrValue::S("X".into())),
                ],
            ),
            (
                "begins_with(SK, \"ORDER#\")",
                "begins_with(#SK, :f1)",
                vec![(":f1", AttrValue::S("ORDER#".into()))],
            ),
            (
                "attribute_exists(email)",
                "attribute_exists(#email)",
                vec![],
            ),
            (
                "qty between 1 and 3",
                "#qty BETWEEN :f1 AND :f2",
                vec![
                    (":f1", AttrValue::N("1".into())),
                    (":f2", AttrValue::N("3".into())),
                ],
            ),
            (
                "flag = true",
                "#flag = :f1",
                vec![(":f1", AttrValue::Bool(true))],
            ),
            (
                "price >= -1.5e2",
                "#price >= :f1",
                vec![(":f1", AttrValue::N("-1.5e2".into()))],
            ),
        ];
        for (text, expr, values) in cases {
            let c = compile_filter(text, "f").unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(c.expression, expr, "{text}");
            let got: Vec<(&str, AttrValue)> = c
                .values
                .iter()
                .map(|(k, v)| (k.as_str(), v.clone()))
                .collect();
            assert_eq!(got, values, "{text}");
        }
    }

    #[test]
    fn bad_filters_are_named() {
        for (text, needle) in [
            ("status = \"open", "never closed"),
            ("(status = \"x\"", "never closed"),
            ("price > 12a", "'12a'"),
            ("", "empty"),
            // Issue 21.8: compiled to `#total = = :f1` and shown as sendable.
            (
                "total = = 5",
                "expected an attribute or a value after 'total =' in filter expression, found '='",
            ),
            ("total >", "found the end"),
            (
                "a = 1 b = 2",
                "expected AND, OR or the end of the condition after 'a = 1'",
            ),
            ("qty between 1 3", "AND between the two bounds"),
            ("x in (1, 2", "never closed"),
            ("not", "expected an attribute or a value after 'NOT'"),
            ("begins_with(SK)", "',' and the function's second argument"),
            ("status and total > 1", "a comparison"),
        ] {
            let e = compile_filter(text, "f").unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn projections_compile() {
        let c = compile_projection("name, status, address.city").unwrap();
        assert_eq!(c.expression, "#name, #status, #address.#city");
        assert_eq!(c.names.len(), 4);
        assert!(compile_projection("a,,b").unwrap_err().contains("empty"));
    }
}
