//! `[[relation]]` entries: configured links between item collections (see
//! `model::design::relations`), checked when the file is read.

use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::ConfigError;
use crate::model::design::relations::RelationRule;

/// The keys of a `[[relation]]` table, to tell its "unknown key" errors from top-level ones.
pub(super) const RELATION_KEYS: [&str; 6] = ["table", "attribute", "from", "to", "index", "ignore"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRelation {
    table: Option<String>,
    attribute: Option<String>,
    from: Option<Spanned<String>>,
    to: Option<Spanned<String>>,
    index: Option<String>,
    /// A correction: the links this rule describes are never listed, inferred or not.
    #[serde(default)]
    ignore: bool,
}

pub(super) fn relation_rules(
    raw: Vec<Spanned<RawRelation>>,
    error: &dyn Fn(Option<Range<usize>>, String) -> ConfigError,
) -> Result<Vec<RelationRule>, ConfigError> {
    let mut rules = Vec::new();
    for entry in raw {
        let span = entry.span();
        let r = entry.into_inner();
        let (Some(from), Some(to)) = (r.from, r.to) else {
            return Err(error(
                Some(span),
                "[[relation]] needs 'from' and 'to', as in from = \"ORDER#{date}#{orderId}\", \
                 to = \"ORDER#{orderId}\""
                    .into(),
            ));
        };
        let at = from.span().start..to.span().end;
        let rule = RelationRule::new(r.table, r.attribute, from.get_ref(), to.get_ref(), r.index)
            .map_err(|e| error(Some(at), e.to_string()))?;
        rules.push(if r.ignore { rule.ignoring() } else { rule });
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::super::{parse, Config};

    const PATH: &str = "/home/u/.config/dynoscope/config.toml";

    #[test]
    fn relations_inference_and_history_switches() {
        let config = parse(
            r#"
infer_relations = false
history = false
[[relation]]
table = "app"
from = "ORDER#{date}#{orderId}"
to = "ORDER#{orderId}"
[[relation]]
attribute = "userId"
from = "{id}"
to = "USER#{id}"
index = "GSI2"
"#,
            Path::new(PATH),
        )
        .unwrap();
        assert!(!config.infer_relations && !config.history);
        assert_eq!(config.relations.len(), 2);
        assert_eq!(config.relations_for("app").len(), 2);
        assert_eq!(config.relations_for("other").len(), 1);
        assert_eq!(
            config.relations[0]
                .apply("SK", "ORDER#2026-08-27#456")
                .as_deref(),
            Some("ORDER#456")
        );
        assert_eq!(config.relations[1].index.as_deref(), Some("GSI2"));
        let defaults = Config::default();
        assert!(defaults.infer_relations && defaults.history && defaults.relations.is_empty());
    }

    /// The manual's example config (docs/configuration.md) is a config dynoscope accepts.
    #[test]
    fn the_readme_example_parses() {
        let readme = include_str!("../../../../../docs/configuration.md");
        let section = &readme[readme.find("## Config file").unwrap()..];
        let start = section.find("```toml\n").unwrap() + "```toml\n".len();
        let text = &section[start..start + section[start..].find("```").unwrap()];
        let config = parse(text, Path::new(PATH)).unwrap_or_else(|e| panic!("{e}"));
        assert!(config.history && config.infer_relations);
        assert_eq!(config.relations.len(), 2);
        assert!(!config.relations[0].ignore && config.relations[1].ignore);
        assert_eq!(config.entities.len(), 1);
    }

    #[test]
    fn relation_mistakes_are_one_line_with_the_line() {
        let cases = [
            (
                "[[relation]]\nfrom = \"ORDER#{a}\"\n",
                "line 1: [[relation]] needs 'from' and 'to'",
            ),
            (
                "\n[[relation]]\nfrom = \"ORDER#{a}\"\nto = \"X#{b}\"\n",
                "line 3: relation 'to' names {b}",
            ),
            (
                "[[relation]]\nfrom = \"{a}\"\nto = \"X#{a}\"\n",
                "add 'attribute'",
            ),
            (
                "[[relation]]\nfrom = \"A#{a}\"\nto = \"X#{a}\"\nwhere = 1\n",
                "unknown key 'where' in [[relation]]",
            ),
            ("history = \"no\"\n", "history must be a boolean"),
        ];
        for (text, want) in cases {
            let err = parse(text, Path::new(PATH)).unwrap_err().to_string();
            assert!(err.contains(want), "{text:?}: {err}");
        }
    }
}
