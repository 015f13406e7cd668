//! Configured relations: `[[relation]]` from `ORDER#{date}#{orderId}` to `ORDER#{orderId}`.
//! They add links inference cannot see (an id under an attribute name no prefix matches) and,
//! with inference turned off, replace it.

use thiserror::Error;

use crate::design::entity::SEPARATORS;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    #[error("relation template '{0}' has a placeholder that is not a whole segment, as in ORDER#{{orderId}}")]
    PartialPlaceholder(String),
    #[error("relation template '{0}' has an empty or unbalanced placeholder")]
    BadPlaceholder(String),
    #[error("relation 'to' names {{{name}}}, which 'from' does not capture")]
    UnknownPlaceholder { name: String },
    #[error("relation 'from' = '{0}' is only placeholders: add 'attribute' to say which attribute it reads")]
    TooBroad(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Literal(String),
    Capture(String),
}

/// A key template: segments split by its separator, each a literal or a `{name}` capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyTemplate {
    text: String,
    separator: char,
    segments: Vec<Segment>,
}

impl KeyTemplate {
    pub fn parse(text: &str) -> Result<KeyTemplate, RuleError> {
        let separator = text
            .chars()
            .find(|c| SEPARATORS.contains(c))
            .unwrap_or(SEPARATORS[0]);
        let mut segments = Vec::new();
        for piece in text.split(separator) {
            let open = piece.matches('{').count();
            let close = piece.matches('}').count();
            if open == 0 && close == 0 {
                segments.push(Segment::Literal(piece.to_owned()));
                continue;
            }
            let name = piece
                .strip_prefix('{')
                .and_then(|p| p.strip_suffix('}'))
                .filter(|_| open == 1 && close == 1)
                .ok_or_else(|| {
                    if piece.starts_with('{') && piece.ends_with('}') {
                        RuleError::BadPlaceholder(text.to_owned())
                    } else {
                        RuleError::PartialPlaceholder(text.to_owned())
                    }
                })?
                .trim();
            if name.is_empty() {
                return Err(RuleError::BadPlaceholder(text.to_owned()));
            }
            segments.push(Segment::Capture(name.to_owned()));
        }
        Ok(KeyTemplate {
            text: text.to_owned(),
            separator,
            segments,
        })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    fn captures(&self) -> impl Iterator<Item = &str> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Capture(name) => Some(name.as_str()),
            Segment::Literal(_) => None,
        })
    }

    /// The captures of `value`, if it is an instance: same number of segments, literals equal,
    /// captures non-empty. A lone capture takes the whole value, separators and all.
    pub fn matches<'v>(&self, value: &'v str) -> Option<Vec<(&str, &'v str)>> {
        if let [Segment::Capture(name)] = self.segments.as_slice() {
            return (!value.is_empty()).then(|| vec![(name.as_str(), value)]);
        }
        let pieces: Vec<&str> = value.split(self.separator).collect();
        if pieces.len() != self.segments.len() {
            return None;
        }
        let mut captured = Vec::new();
        for (segment, piece) in self.segments.iter().zip(pieces) {
            match segment {
                Segment::Literal(text) if text == piece => {}
                Segment::Capture(name) if !piece.is_empty() => {
                    captured.push((name.as_str(), piece))
                }
                _ => return None,
            }
        }
        Some(captured)
    }

    /// The template with its captures filled in.
    pub fn fill(&self, captured: &[(&str, &str)]) -> Option<String> {
        let mut pieces = Vec::with_capacity(self.segments.len());
        for segment in &self.segments {
            pieces.push(match segment {
                Segment::Literal(text) => text.as_str(),
                Segment::Capture(name) => captured.iter().find(|(n, _)| n == name)?.1,
            });
        }
        Some(pieces.join(&self.separator.to_string()))
    }
}

/// One `[[relation]]`: values of `attribute` (any string attribute when absent) that match
/// `from` name the collection `to` of `index` (`None`: the table). With `ignore`, the rule
/// corrects inference instead: the links it describes are never listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationRule {
    pub table: Option<String>,
    pub attribute: Option<String>,
    pub from: KeyTemplate,
    pub to: KeyTemplate,
    pub index: Option<String>,
    pub ignore: bool,
}

impl RelationRule {
    pub fn new(
        table: Option<String>,
        attribute: Option<String>,
        from: &str,
        to: &str,
        index: Option<String>,
    ) -> Result<RelationRule, RuleError> {
        let from = KeyTemplate::parse(from)?;
        let to = KeyTemplate::parse(to)?;
        if let Some(name) = to.captures().find(|n| !from.captures().any(|c| c == *n)) {
            return Err(RuleError::UnknownPlaceholder {
                name: name.to_owned(),
            });
        }
        let only_captures = from
            .segments
            .iter()
            .all(|s| matches!(s, Segment::Capture(_)));
        if only_captures && attribute.is_none() {
            return Err(RuleError::TooBroad(from.text.clone()));
        }
        Ok(RelationRule {
            table,
            attribute,
            from,
            to,
            index,
            ignore: false,
        })
    }

    /// The same rule as a correction: the links it describes are dropped, not added.
    pub fn ignoring(mut self) -> Self {
        self.ignore = true;
        self
    }

    /// Whether this correction drops the link from `value` of `attribute` to `key` of `index`.
    pub fn drops(&self, attribute: &str, value: &str, index: Option<&str>, key: &str) -> bool {
        self.ignore
            && self.index.as_deref() == index
            && self.apply(attribute, value).as_deref() == Some(key)
    }

    /// The collection `value` of `attribute` names under this rule.
    pub fn apply(&self, attribute: &str, value: &str) -> Option<String> {
        if self.attribute.as_deref().is_some_and(|a| a != attribute) {
            return None;
        }
        self.to.fill(&self.from.matches(value)?)
    }

    pub fn applies_to(&self, table: &str) -> bool {
        self.table.as_deref().is_none_or(|t| t == table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_capture_and_fill() {
        let rule = RelationRule::new(
            None,
            None,
            "ORDER#{date}#{orderId}",
            "ORDER#{orderId}",
            None,
        )
        .unwrap();
        assert_eq!(
            rule.apply("SK", "ORDER#2026-08-27#456").as_deref(),
            Some("ORDER#456")
        );
        assert_eq!(rule.apply("SK", "ORDER#2026-08-27"), None, "too few parts");
        assert_eq!(
            rule.apply("SK", "ITEM#2026-08-27#456"),
            None,
            "another literal"
        );
        assert_eq!(rule.apply("SK", "ORDER##456"), None, "an empty capture");
        let by_attr =
            RelationRule::new(None, Some("userId".into()), "{id}", "USER#{id}", None).unwrap();
        assert_eq!(
            by_attr.apply("userId", "u1#x").as_deref(),
            Some("USER#u1#x")
        );
        assert_eq!(by_attr.apply("other", "u1"), None);
        let piped = RelationRule::new(None, None, "A|{x}", "B|{x}|C", Some("GSI2".into())).unwrap();
        assert_eq!(piped.apply("k", "A|7").as_deref(), Some("B|7|C"));
    }

    #[test]
    fn bad_rules_say_what_to_fix() {
        let new = |from: &str, to: &str, attr: Option<&str>| {
            RelationRule::new(None, attr.map(String::from), from, to, None).unwrap_err()
        };
        assert_eq!(
            new("ORDER#{a}", "X#{b}", None),
            RuleError::UnknownPlaceholder { name: "b".into() }
        );
        assert!(matches!(
            new("ORDER#x{a}", "X", None),
            RuleError::PartialPlaceholder(_)
        ));
        assert!(matches!(
            new("ORDER#{}", "X", None),
            RuleError::BadPlaceholder(_)
        ));
        assert!(matches!(
            new("ORDER#{{a}}", "X", None),
            RuleError::BadPlaceholder(_)
        ));
        assert!(matches!(new("{a}", "X#{a}", None), RuleError::TooBroad(_)));
        assert!(new("{a}#{b}", "X#{a}", None)
            .to_string()
            .contains("attribute"));
    }
}
