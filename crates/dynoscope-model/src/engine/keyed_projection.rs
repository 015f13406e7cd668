//! The ProjectionExpression a read sends: the user's, with the key attributes it leaves out
//! added, so that where a read continues (a cursor, a resume key, the item a cut page ends on)
//! is always taken from the item's full key, never from what is shown. The attributes added
//! are dropped again once the read has paged on them ([`KeyedProjection::added`]).

use super::ReadSpec;
use crate::item::value::Item;
use crate::query::expression::ItemProjection;

/// What is sent in place of a spec's projection and names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedProjection {
    pub expression: String,
    pub names: Vec<(String, String)>,
    /// The key attributes read only to page on: the projection did not name them.
    pub added: Vec<String>,
}

impl KeyedProjection {
    /// `item` without the attributes read only for paging.
    pub fn strip(&self, item: &mut Item) {
        for name in &self.added {
            item.remove(name);
        }
    }
}

/// The projection `spec` sends, when it must differ from the spec's own: a projection that
/// leaves out one of [`ReadSpec::key_attributes`]. `None` when there is no projection (every
/// attribute is read), no key attribute is known, or the projection already names them all; a
/// projection that does not parse is sent as it is, for DynamoDB to refuse in its own words.
pub fn keyed_projection(spec: &ReadSpec) -> Option<KeyedProjection> {
    let expression = spec.projection.as_deref()?;
    if spec.key_attributes.is_empty() {
        return None;
    }
    let compiled = ItemProjection::compile(expression, &spec.names).ok()?;
    let named: Vec<&str> = compiled.attributes().collect();
    let mut added: Vec<String> = Vec::new();
    for key in &spec.key_attributes {
        // A path into a key attribute (`PK.x`) names it too: adding `PK` beside it would be
        // an overlap DynamoDB refuses.
        if !named.contains(&key.as_str()) && !added.contains(key) {
            added.push(key.clone());
        }
    }
    if added.is_empty() {
        return None;
    }
    let mut names = spec.names.clone();
    let mut expression = expression.to_string();
    let mut n = 0usize;
    for key in &added {
        // A placeholder, never the name itself: a key attribute may be a reserved word.
        let placeholder = loop {
            let candidate = format!("#dynoscope_key{n}");
            n += 1;
            if !names.iter().any(|(p, _)| *p == candidate) {
                break candidate;
            }
        };
        expression.push_str(", ");
        expression.push_str(&placeholder);
        names.push((placeholder, key.clone()));
    }
    Some(KeyedProjection {
        expression,
        names,
        added,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::read_cause::ReadCause;
    use crate::engine::Operation;
    use crate::item::value::AttrValue;

    fn spec(projection: &str, names: &[(&str, &str)], keys: &[&str]) -> ReadSpec {
        let mut spec = ReadSpec::new(Operation::Query, "t", ReadCause::AgentCall);
        spec.projection = Some(projection.into());
        spec.names = names
            .iter()
            .map(|(p, n)| (p.to_string(), n.to_string()))
            .collect();
        spec.key_attributes = keys.iter().map(|k| k.to_string()).collect();
        spec
    }

    #[test]
    fn the_key_attributes_a_projection_leaves_out_are_added_under_placeholders() {
        let keyed = keyed_projection(&spec("n, #s", &[("#s", "status")], &["PK", "SK", "GSI1PK"]))
            .expect("keys added");
        assert_eq!(
            keyed.expression,
            "n, #s, #dynoscope_key0, #dynoscope_key1, #dynoscope_key2"
        );
        assert_eq!(keyed.added, ["PK", "SK", "GSI1PK"]);
        assert_eq!(keyed.names[1], ("#dynoscope_key0".into(), "PK".into()));
        assert_eq!(keyed.names.len(), 4);
    }

    #[test]
    fn a_key_the_projection_names_is_not_added_nor_dropped() {
        // Named plainly, through a placeholder, or as a path into it.
        let keyed = keyed_projection(&spec("PK, #k, n", &[("#k", "SK")], &["PK", "SK", "T"]))
            .expect("T added");
        assert_eq!(keyed.added, ["T"]);
        assert_eq!(
            keyed_projection(&spec("PK, SK.x", &[], &["PK", "SK"])),
            None
        );
        // A placeholder of the user's own is never reused.
        let keyed = keyed_projection(&spec(
            "#dynoscope_key0",
            &[("#dynoscope_key0", "n")],
            &["PK"],
        ))
        .unwrap();
        assert_eq!(keyed.expression, "#dynoscope_key0, #dynoscope_key1");
    }

    #[test]
    fn without_a_projection_or_keys_or_with_a_broken_one_nothing_changes() {
        let mut all = spec("n", &[], &["PK"]);
        all.projection = None;
        assert_eq!(keyed_projection(&all), None);
        assert_eq!(keyed_projection(&spec("n", &[], &[])), None);
        assert_eq!(keyed_projection(&spec("n,,", &[], &["PK"])), None);
    }

    #[test]
    fn strip_drops_only_what_was_added() {
        let keyed = keyed_projection(&spec("n, PK", &[], &["PK", "SK"])).unwrap();
        let mut item = Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("p".into())),
            ("SK".into(), AttrValue::S("s".into())),
            ("n".into(), AttrValue::N("1".into())),
        ]);
        keyed.strip(&mut item);
        assert!(item.get("PK").is_some() && item.get("n").is_some());
        assert!(item.get("SK").is_none());
    }
}
