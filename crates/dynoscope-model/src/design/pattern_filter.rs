//! A pattern's `filter`: the query builder's syntax (`filter = "total > 100"`), compiled to a
//! FilterExpression with its own placeholders, or, when the pattern gives `names` or `values`,
//! a FilterExpression written by hand (as before the builder's syntax was accepted).

use std::collections::BTreeMap;

use crate::design::schema::MAX_KEY_ATTRIBUTES;
use crate::formats::json::append_plain_json;
use crate::item::value::Item;
use crate::query::filter_compile::compile_filter_beside;

/// What a pattern's filter sends: the expression, its names and its values (plain JSON, as a
/// pattern's `values` are written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternFilter {
    pub expression: String,
    pub names: BTreeMap<String, String>,
    pub values: Option<String>,
}

/// The key condition built from a pattern names its keys `#pk` and `#sk`, and on a
/// multi-attribute key `#pk0` … and `#sk0` …: a filter on an attribute spelled `pk` or `pk1`
/// must get another placeholder, or the request would carry one name for two attributes.
/// (An empty name is no attribute's.)
fn key_placeholders() -> Vec<(String, String)> {
    let indexed = (0..MAX_KEY_ATTRIBUTES).flat_map(|i| [format!("#pk{i}"), format!("#sk{i}")]);
    ["#pk".to_string(), "#sk".to_string()]
        .into_iter()
        .chain(indexed)
        .map(|name| (name, String::new()))
        .collect()
}

/// Compiles `filter` (the builder's syntax) unless the pattern spells its own placeholders.
pub fn pattern_filter(
    filter: &str,
    names: &BTreeMap<String, String>,
    values: Option<&str>,
) -> Result<PatternFilter, String> {
    if !names.is_empty() || values.is_some() {
        return Ok(PatternFilter {
            expression: filter.to_string(),
            names: names.clone(),
            values: values.map(str::to_string),
        });
    }
    let compiled = compile_filter_beside(filter, "f", &key_placeholders())?;
    let values = (!compiled.values.is_empty()).then(|| {
        let mut out = String::new();
        append_plain_json(&mut out, &Item::from_attrs(compiled.values));
        out
    });
    Ok(PatternFilter {
        expression: compiled.expression,
        names: compiled.names.into_iter().collect(),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::json::parse_plain_values;
    use crate::item::value::AttrValue;

    #[test]
    fn the_builders_syntax_becomes_placeholders() {
        let f = pattern_filter(
            "total > 100 AND status = \"SHIPPED\"",
            &BTreeMap::new(),
            None,
        )
        .unwrap();
        assert_eq!(f.expression, "#total > :f1 AND #status = :f2");
        assert_eq!(f.names.get("#status").map(String::as_str), Some("status"));
        let values = parse_plain_values(f.values.as_deref().unwrap()).unwrap();
        assert!(values.contains(&(":f1".into(), AttrValue::N("100".into()))));
        assert!(values.contains(&(":f2".into(), AttrValue::S("SHIPPED".into()))));
    }

    #[test]
    fn numbers_keep_their_38_digits() {
        let f = pattern_filter(
            "n = 12345678901234567890123456789012345678",
            &BTreeMap::new(),
            None,
        )
        .unwrap();
        let values = parse_plain_values(f.values.as_deref().unwrap()).unwrap();
        assert_eq!(
            values,
            vec![(
                ":f1".into(),
                AttrValue::N("12345678901234567890123456789012345678".into())
            )]
        );
    }

    #[test]
    fn an_attribute_named_like_the_key_placeholders_gets_its_own() {
        let f = pattern_filter("pk = \"x\"", &BTreeMap::new(), None).unwrap();
        assert!(!f.expression.contains("#pk "), "{}", f.expression);
        assert!(f.names.values().any(|v| v == "pk"));
        assert!(!f.names.contains_key("#pk"));
    }

    #[test]
    fn an_attribute_named_like_a_multi_attribute_keys_placeholder_gets_its_own() {
        for attribute in ["pk1", "sk0", "sk3"] {
            let f =
                pattern_filter(&format!("{attribute} = \"x\""), &BTreeMap::new(), None).unwrap();
            assert!(
                !f.expression.contains(&format!("#{attribute} ")),
                "{}",
                f.expression
            );
            assert!(!f.names.contains_key(&format!("#{attribute}")), "{f:?}");
            assert!(f.names.values().any(|v| v == attribute));
        }
    }

    #[test]
    fn a_hand_written_expression_is_kept_with_its_placeholders() {
        let names = BTreeMap::from([("#s".to_string(), "status".to_string())]);
        let f = pattern_filter("#s = :s", &names, Some(r#"{":s":"X"}"#)).unwrap();
        assert_eq!(f.expression, "#s = :s");
        assert_eq!(f.values.as_deref(), Some(r#"{":s":"X"}"#));
    }

    #[test]
    fn a_bad_filter_says_what_is_wrong() {
        let e = pattern_filter("total > \"x", &BTreeMap::new(), None).unwrap_err();
        assert!(e.contains("never closed"), "{e}");
    }
}
