//! Lossless in-memory form of DynamoDB items.
//!
//! Numbers stay as the exact decimal text DynamoDB sent (up to 38 significant digits), so nothing
//! is rounded through `f64`; sets, binary and NULL keep their own variants.

use crate::item::number::compare_numbers;

/// One attribute value, mirroring DynamoDB's type descriptors (`S`, `N`, `B`, `SS`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrValue {
    S(String),
    /// Exact decimal text as DynamoDB returned it.
    N(String),
    B(Vec<u8>),
    Ss(Vec<String>),
    Ns(Vec<String>),
    Bs(Vec<Vec<u8>>),
    M(Item),
    L(Vec<AttrValue>),
    Null,
    Bool(bool),
}

impl AttrValue {
    /// DynamoDB's type descriptor, as used in DynamoDB JSON and error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            AttrValue::S(_) => "S",
            AttrValue::N(_) => "N",
            AttrValue::B(_) => "B",
            AttrValue::Ss(_) => "SS",
            AttrValue::Ns(_) => "NS",
            AttrValue::Bs(_) => "BS",
            AttrValue::M(_) => "M",
            AttrValue::L(_) => "L",
            AttrValue::Null => "NULL",
            AttrValue::Bool(_) => "BOOL",
        }
    }

    pub fn as_s(&self) -> Option<&str> {
        match self {
            AttrValue::S(s) => Some(s),
            _ => None,
        }
    }
}

/// An item: attributes sorted by name, so output is deterministic and lookups are a binary
/// search. DynamoDB attribute order carries no meaning, so sorting loses nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Item {
    attrs: Vec<(String, AttrValue)>,
}

impl Item {
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds an item from attributes in any order. A repeated name keeps the last value, as a
    /// JSON object would.
    pub fn from_attrs(mut attrs: Vec<(String, AttrValue)>) -> Self {
        // Stable, so equal names stay in input order; in place, because every item of every
        // page comes through here.
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        attrs.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                std::mem::swap(&mut later.1, &mut kept.1);
            }
            same
        });
        Item { attrs }
    }

    pub fn get(&self, name: &str) -> Option<&AttrValue> {
        self.attrs
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| &self.attrs[i].1)
    }

    pub fn insert(&mut self, name: impl Into<String>, value: AttrValue) {
        let name = name.into();
        match self.attrs.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            Ok(i) => self.attrs[i].1 = value,
            Err(i) => self.attrs.insert(i, (name, value)),
        }
    }

    /// Takes the attribute `name` out of the item.
    pub fn remove(&mut self, name: &str) -> Option<AttrValue> {
        let i = self
            .attrs
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()?;
        Some(self.attrs.remove(i).1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &AttrValue)> {
        self.attrs.iter().map(|(n, v)| (n.as_str(), v))
    }

    pub fn len(&self) -> usize {
        self.attrs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty()
    }

    pub fn into_attrs(self) -> Vec<(String, AttrValue)> {
        self.attrs
    }
}

/// Equality as DynamoDB compares values: numbers by value (`1.0` = `1`), sets as sets
/// (order does not matter), maps by their attributes, lists element by element.
pub fn same_value(a: &AttrValue, b: &AttrValue) -> bool {
    use AttrValue::*;
    let same_set = |x: &[String], y: &[String], eq: &dyn Fn(&str, &str) -> bool| {
        x.len() == y.len() && x.iter().all(|e| y.iter().any(|f| eq(e, f)))
    };
    match (a, b) {
        (N(x), N(y)) => compare_numbers(x, y).is_eq(),
        (Ss(x), Ss(y)) => same_set(x, y, &|e, f| e == f),
        (Ns(x), Ns(y)) => same_set(x, y, &|e, f| compare_numbers(e, f).is_eq()),
        (Bs(x), Bs(y)) => x.len() == y.len() && x.iter().all(|e| y.contains(e)),
        (M(x), M(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(n, v)| y.get(n).is_some_and(|w| same_value(v, w)))
        }
        (L(x), L(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w)),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_attrs_sorts_and_keeps_last_duplicate() {
        let item = Item::from_attrs(vec![
            ("b".into(), AttrValue::N("1".into())),
            ("a".into(), AttrValue::Null),
            ("b".into(), AttrValue::N("2".into())),
            ("c".into(), AttrValue::Bool(true)),
            ("b".into(), AttrValue::N("3".into())),
        ]);
        let names: Vec<_> = item.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(item.get("b"), Some(&AttrValue::N("3".into())));
        assert_eq!(item.get("d"), None);
    }

    #[test]
    fn insert_keeps_order() {
        let mut item = Item::new();
        item.insert("z", AttrValue::Bool(true));
        item.insert("m", AttrValue::S("x".into()));
        item.insert("z", AttrValue::Bool(false));
        let names: Vec<_> = item.iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["m", "z"]);
        assert_eq!(item.get("z"), Some(&AttrValue::Bool(false)));
    }
}
