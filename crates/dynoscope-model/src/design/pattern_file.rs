//! Access-pattern files (`--patterns FILE`): each mistake named by file, line and field.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::design::access_pattern::{one_line, AccessPattern, PatternError};

/// Patterns from a file of `[[pattern]]` tables. Each mistake names the file, the line and
/// the field; two patterns may not share a name (`run NAME` would pick one silently).
pub fn parse_patterns_file(text: &str, path: &str) -> Result<Vec<AccessPattern>, String> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        pattern: Vec<toml::Table>,
    }
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| {
                format!(
                    ", line {}",
                    text[..s.start.min(text.len())].lines().count().max(1)
                )
            })
            .unwrap_or_default();
        format!("patterns file '{path}'{line}: {}", one_line(e.message()))
    })?;
    let at = |line: Option<usize>| line.map(|n| format!(", line {n}")).unwrap_or_default();
    let mut patterns: Vec<AccessPattern> = Vec::new();
    for (i, table) in file.pattern.into_iter().enumerate() {
        let pattern = AccessPattern::from_toml(table, i)
            .map_err(|e| format!("patterns file '{path}'{}: {e}", at(error_line(text, i, &e))))?;
        if let Some(first) = patterns.iter().position(|p| p.name == pattern.name) {
            let lines = (field_line(text, first, "name"), field_line(text, i, "name"));
            return Err(format!(
                "patterns file '{path}'{}: access pattern '{}' is declared twice{}; give each pattern its own name",
                at(lines.1),
                pattern.name,
                lines.0.map(|n| format!(" (first at line {n})")).unwrap_or_default()
            ));
        }
        patterns.push(pattern);
    }
    Ok(patterns)
}

/// The line (1-based) of what `error` is about in the `index`-th `[[pattern]]` of `text`: the
/// field's line, else the pattern's header.
pub fn error_line(text: &str, index: usize, error: &PatternError) -> Option<usize> {
    match error {
        PatternError::Field { field, .. } => field_line(text, index, field),
        _ => None,
    }
    .or_else(|| header_line(text, index))
}

/// The line (1-based) of the `index`-th `[[pattern]]` header.
fn header_line(text: &str, index: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[pattern]]"))
        .nth(index)
        .map(|(n, _)| n + 1)
}

/// The line (1-based) where the `index`-th `[[pattern]]` sets `field`.
fn field_line(text: &str, index: usize, field: &str) -> Option<usize> {
    let start = header_line(text, index)?;
    text.lines()
        .enumerate()
        .skip(start)
        .take_while(|(_, l)| !l.trim_start().starts_with('['))
        .find(|(_, l)| {
            l.trim_start()
                .strip_prefix(field)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|(n, _)| n + 1)
}

/// A key template's placeholders are whole `{name}`s: none unclosed, nested, stray or empty.
pub(crate) fn check_template(template: &str) -> Result<(), String> {
    let mut open: Option<usize> = None;
    for (i, c) in template.char_indices() {
        match (c, open) {
            ('{', None) => open = Some(i),
            ('{', Some(_)) => {
                return Err(format!(
                    "'{template}' has a '{{' inside another '{{…}}'; placeholders cannot nest"
                ))
            }
            ('}', None) => return Err(format!("'{template}' has a '}}' with no matching '{{'")),
            ('}', Some(at)) if at + 1 == i => {
                return Err(format!(
                    "'{template}' has an empty '{{}}' placeholder; name it, as in 'USER#{{id}}'"
                ))
            }
            ('}', Some(_)) => open = None,
            _ => {}
        }
    }
    match open {
        Some(_) => Err(format!(
            "'{template}' has an unclosed '{{'; close each placeholder with '}}'"
        )),
        None => Ok(()),
    }
}

/// A field that holds one template or a list of them, one per key attribute (`pk`, `sk_eq`,
/// `index_pk`, `index_sk`): a string is the list of one, so files written before
/// multi-attribute keys read as they did.
pub(crate) fn one_or_many<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct Templates;
    impl<'de> Visitor<'de> for Templates {
        type Value = Vec<String>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a string, or a list of strings with one per key attribute")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<String>, E> {
            Ok(vec![v.to_string()])
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
            let mut out = Vec::new();
            while let Some(text) = seq.next_element::<String>()? {
                out.push(text);
            }
            Ok(out)
        }
    }
    d.deserialize_any(Templates)
}
