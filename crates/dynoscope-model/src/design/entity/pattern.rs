//! Configured key templates (`ORDER#{date}#{orderId}`) and the keys that are instances of
//! them.

use thiserror::Error;

use super::decode::{is_prefix_kind, DecodedKey, SEPARATORS};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    #[error("entity template {template:?} has unbalanced or nested braces")]
    UnbalancedBraces { template: String },
    #[error("entity template {template:?} must start with a literal kind, as in USER#{{id}}")]
    MissingKind { template: String },
    #[error("entity template {template:?} has an empty {{}} placeholder")]
    EmptyPlaceholder { template: String },
    #[error("entity template {template:?} names {{{name}}} twice")]
    DuplicatePlaceholder { template: String, name: String },
    #[error(
        "entity template {template:?}: {segment:?} mixes text and a placeholder; \
         a placeholder must be a whole segment, as in #{{id}}"
    )]
    PartialPlaceholder { template: String, segment: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Part,
}

/// A configured key template such as `ORDER#{date}#{orderId}`. The separator is whichever of
/// [`SEPARATORS`] the template uses; literal segments after the kind must match exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityPattern {
    kind: String,
    separator: char,
    segments: Vec<Segment>,
    part_names: Vec<String>,
}

impl EntityPattern {
    pub fn parse(template: &str) -> Result<EntityPattern, PatternError> {
        check_braces(template)?;
        let owned = || template.to_owned();
        let Some(separator) = template.chars().find(|c| SEPARATORS.contains(c)) else {
            if !is_prefix_kind(template) {
                return Err(PatternError::MissingKind { template: owned() });
            }
            return Ok(EntityPattern {
                kind: template.to_owned(),
                separator: SEPARATORS[0],
                segments: Vec::new(),
                part_names: Vec::new(),
            });
        };
        let body = template.strip_prefix(separator).unwrap_or(template);
        let mut pieces = body.split(separator);
        let kind = pieces.next().unwrap_or_default();
        if !is_prefix_kind(kind) {
            return Err(PatternError::MissingKind { template: owned() });
        }
        let mut segments = Vec::new();
        let mut part_names: Vec<String> = Vec::new();
        for piece in pieces {
            if let Some(name) = piece.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                let name = name.trim();
                if name.is_empty() {
                    return Err(PatternError::EmptyPlaceholder { template: owned() });
                }
                if part_names.iter().any(|n| n == name) {
                    return Err(PatternError::DuplicatePlaceholder {
                        template: owned(),
                        name: name.to_owned(),
                    });
                }
                part_names.push(name.to_owned());
                segments.push(Segment::Part);
            } else if piece.contains(['{', '}']) {
                return Err(PatternError::PartialPlaceholder {
                    template: owned(),
                    segment: piece.to_owned(),
                });
            } else {
                segments.push(Segment::Literal(piece.to_owned()));
            }
        }
        Ok(EntityPattern {
            kind: kind.to_owned(),
            separator,
            segments,
            part_names,
        })
    }

    pub fn kind(&self) -> &str {
        &self.kind
    }

    pub fn separator(&self) -> char {
        self.separator
    }

    pub fn part_names(&self) -> &[String] {
        &self.part_names
    }

    /// Placeholders must be non-empty: `USER#` is not an instance of `USER#{id}`.
    pub fn matches(&self, decoded: &DecodedKey) -> bool {
        decoded.kind == Some(self.kind.as_str())
            && decoded.parts.len() == self.segments.len()
            && self
                .segments
                .iter()
                .zip(&decoded.parts)
                .all(|(segment, part)| match segment {
                    Segment::Literal(text) => text == part,
                    Segment::Part => !part.is_empty(),
                })
    }
}

fn check_braces(template: &str) -> Result<(), PatternError> {
    let mut open = false;
    for c in template.chars() {
        match (c, open) {
            ('{', false) => open = true,
            ('}', true) => open = false,
            ('{', true) | ('}', false) => {
                return Err(PatternError::UnbalancedBraces {
                    template: template.to_owned(),
                })
            }
            _ => {}
        }
    }
    if open {
        return Err(PatternError::UnbalancedBraces {
            template: template.to_owned(),
        });
    }
    Ok(())
}

#[cfg(test)]
#[path = "pattern_tests.rs"]
mod tests;
