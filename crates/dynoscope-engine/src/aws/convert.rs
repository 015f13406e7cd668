//! The boundary between the SDK's `AttributeValue` and dynoscope's lossless `AttrValue`.
//! Strings are moved, not copied: a page of items changes hands without re-allocating text.

/// The four conversions for one SDK's `AttributeValue`. DynamoDB's and DynamoDB Streams' SDKs
/// each have their own type of the same shape, so one body serves both.
macro_rules! attribute_conversions {
    ($sdk:ident, $item_from:ident, $value_from:ident, $item_to:ident, $value_to:ident) => {
        pub fn $item_from(
            map: std::collections::HashMap<String, $sdk::types::AttributeValue>,
        ) -> $crate::model::item::value::Item {
            $crate::model::item::value::Item::from_attrs(
                map.into_iter().map(|(k, v)| (k, $value_from(v))).collect(),
            )
        }

        pub fn $value_from(
            value: $sdk::types::AttributeValue,
        ) -> $crate::model::item::value::AttrValue {
            use $crate::model::item::value::AttrValue;
            use $sdk::primitives::Blob;
            use $sdk::types::AttributeValue;
            match value {
                AttributeValue::S(s) => AttrValue::S(s),
                AttributeValue::N(n) => AttrValue::N(n),
                AttributeValue::B(b) => AttrValue::B(b.into_inner()),
                AttributeValue::Ss(v) => AttrValue::Ss(v),
                AttributeValue::Ns(v) => AttrValue::Ns(v),
                AttributeValue::Bs(v) => {
                    AttrValue::Bs(v.into_iter().map(Blob::into_inner).collect())
                }
                AttributeValue::M(m) => AttrValue::M($item_from(m)),
                AttributeValue::L(l) => AttrValue::L(l.into_iter().map($value_from).collect()),
                AttributeValue::Null(_) => AttrValue::Null,
                AttributeValue::Bool(b) => AttrValue::Bool(b),
                // The SDK marks its enums non-exhaustive; a type DynamoDB adds later is shown
                // as NULL rather than crashing. A write never sends it back: edits only SET
                // what changed, and the condition on the loaded NULL fails against the
                // stored value, so the item is reported as changed, never overwritten.
                _ => AttrValue::Null,
            }
        }

        pub fn $item_to(
            item: &$crate::model::item::value::Item,
        ) -> std::collections::HashMap<String, $sdk::types::AttributeValue> {
            item.iter()
                .map(|(k, v)| (k.to_string(), $value_to(v)))
                .collect()
        }

        pub fn $value_to(
            value: &$crate::model::item::value::AttrValue,
        ) -> $sdk::types::AttributeValue {
            use $crate::model::item::value::AttrValue;
            use $sdk::primitives::Blob;
            use $sdk::types::AttributeValue;
            match value {
                AttrValue::S(s) => AttributeValue::S(s.clone()),
                AttrValue::N(n) => AttributeValue::N(n.clone()),
                AttrValue::B(b) => AttributeValue::B(Blob::new(b.clone())),
                AttrValue::Ss(v) => AttributeValue::Ss(v.clone()),
                AttrValue::Ns(v) => AttributeValue::Ns(v.clone()),
                AttrValue::Bs(v) => {
                    AttributeValue::Bs(v.iter().map(|b| Blob::new(b.clone())).collect())
                }
                AttrValue::M(m) => AttributeValue::M($item_to(m)),
                AttrValue::L(l) => AttributeValue::L(l.iter().map($value_to).collect()),
                AttrValue::Null => AttributeValue::Null(true),
                AttrValue::Bool(b) => AttributeValue::Bool(*b),
            }
        }
    };
}
pub(crate) use attribute_conversions;

attribute_conversions!(
    aws_sdk_dynamodb,
    item_from_sdk,
    value_from_sdk,
    item_to_sdk,
    value_to_sdk
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::item::value::{AttrValue, Item};

    #[test]
    fn round_trips_every_type() {
        let item = Item::from_attrs(vec![
            ("s".into(), AttrValue::S("x".into())),
            (
                "n".into(),
                AttrValue::N("-1.000000000000000000000000000000000001".into()),
            ),
            ("b".into(), AttrValue::B(vec![0, 1])),
            ("ss".into(), AttrValue::Ss(vec!["a".into()])),
            ("ns".into(), AttrValue::Ns(vec!["1".into()])),
            ("bs".into(), AttrValue::Bs(vec![vec![9]])),
            (
                "m".into(),
                AttrValue::M(Item::from_attrs(vec![("x".into(), AttrValue::Bool(true))])),
            ),
            ("l".into(), AttrValue::L(vec![AttrValue::Null])),
            ("z".into(), AttrValue::Null),
        ]);
        assert_eq!(item_from_sdk(item_to_sdk(&item)), item);
    }
}
