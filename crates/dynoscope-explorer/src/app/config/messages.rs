//! One-line messages for config mistakes: toml's and serde's words in the file's terms, with
//! the line and what was written there.

use std::ops::Range;

use super::parse::ENTITY_KEYS;
use super::relations::RELATION_KEYS;
use crate::model::design::entity::PatternError;

pub(super) fn describe_pattern_error(err: &PatternError) -> String {
    match err {
        PatternError::UnbalancedBraces { template } => {
            let mut open = false;
            let mut problem = None;
            for c in template.chars() {
                match (c, open) {
                    ('{', false) => open = true,
                    ('}', true) => open = false,
                    ('{', true) => {
                        problem = Some("has a '{' inside another '{…}'; placeholders cannot nest");
                        break;
                    }
                    ('}', false) => {
                        problem = Some("has a '}' with no matching '{'");
                        break;
                    }
                    _ => {}
                }
            }
            let problem = problem.unwrap_or("has an unclosed '{'; close each placeholder with '}'");
            format!("entity pattern '{template}' {problem}")
        }
        PatternError::MissingKind { template } => format!(
            "entity pattern '{template}' must start with a literal kind, as in 'USER#{{id}}'"
        ),
        PatternError::EmptyPlaceholder { template } => format!(
            "entity pattern '{template}' has an empty '{{}}' placeholder; name it, as in '{{id}}'"
        ),
        PatternError::DuplicatePlaceholder { template, name } => format!(
            "entity pattern '{template}' names '{{{name}}}' twice; give each placeholder its own name"
        ),
        PatternError::PartialPlaceholder { template, segment } => format!(
            "entity pattern '{template}': segment '{segment}' mixes text and a placeholder; \
             a placeholder must be a whole segment, as in 'ORDER#{{id}}'"
        ),
    }
}

// Rewrites serde's wording (`unknown field \`x\`, expected one of \`a\`, \`b\``) in the
// config file's terms and squeezes toml's multi-line messages onto one line.
pub(super) fn describe_toml_error(err: &toml::de::Error, text: &str) -> String {
    let message = one_line(err.message());
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((field, expected)) = rest.split_once('`') {
            let expected: Vec<&str> = expected
                .trim_start_matches(',')
                .trim()
                .trim_start_matches("expected")
                .trim()
                .trim_start_matches("one of")
                .split([',', ' '])
                .filter(|s| !s.is_empty() && *s != "or")
                .map(|s| s.trim_matches('`'))
                .collect();
            let section = if expected == ENTITY_KEYS {
                " in [[entity]]"
            } else if expected == RELATION_KEYS {
                " in [[relation]]"
            } else {
                ""
            };
            let expected = expected.join(", ");
            return format!("unknown key '{field}'{section}; expected one of {expected}");
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or_default();
        let section = err
            .span()
            .and_then(|span| section_at(text, span.start))
            .unwrap_or_else(|| "the config file".to_string());
        return format!("{section} is missing '{field}'; add {field} = \"...\"");
    }
    let message = if message.starts_with("duplicate key") {
        format!("{message}; keep only one")
    } else {
        message
    };
    match err.span() {
        Some(span) => {
            let context = line_text(text, span.start);
            // `invalid type: integer \`5\`, expected a string` names neither key nor fix.
            if let Some((got, expected)) = message
                .strip_prefix("invalid type: ")
                .and_then(|rest| rest.split_once(", expected "))
            {
                if let Some((key, _)) = context.split_once('=') {
                    return format!("{} must be {expected}, got {got}", key.trim());
                }
            }
            if context.is_empty() {
                message
            } else {
                format!("{message} (in '{context}')")
            }
        }
        None => message,
    }
}

/// The `[section]` or `[[array]]` header that `offset` is under, as written (`[[table]]`).
fn section_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    // The span of a missing field may start at the header itself: include its line.
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    text[..end]
        .lines()
        .map(str::trim)
        .rfind(|l| l.starts_with('['))
        .map(|l| {
            l.split(']').next().map_or(l.to_string(), |h| {
                let closing = if h.starts_with("[[") { "]]" } else { "]" };
                format!("{}{closing}", h.trim())
            })
        })
}

pub(super) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

pub(super) fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

// The trimmed source line holding `offset`, shortened for a one-line message.
pub(super) fn line_text(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    shorten(text[start..end].trim())
}

// What the user wrote at `span`, on one line and shortened.
pub(super) fn source_text(text: &str, span: Range<usize>) -> String {
    let raw = text.get(span).unwrap_or_default();
    shorten(&raw.split_whitespace().collect::<Vec<_>>().join(" "))
}

pub(super) fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}
