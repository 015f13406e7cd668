//! What a MODIFY changed: the attributes whose value differs between the old and the new image,
//! in name order, compared as DynamoDB compares (and as the write preview does): `1.0` for `1`
//! or a reordered set is no change. Only a `NEW_AND_OLD_IMAGES` stream can say; with one image
//! or none the change has no diff (see [`super::change::ViewType::blind_spot`]).

use super::change::Change;
use crate::item::value::{same_value, AttrValue};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttrDiff<'a> {
    pub name: &'a str,
    /// `None`: the attribute was added (old) or removed (new).
    pub old: Option<&'a AttrValue>,
    pub new: Option<&'a AttrValue>,
}

/// The attributes that differ, or `None` when the change lacks either image.
pub fn diff(change: &Change) -> Option<Vec<AttrDiff<'_>>> {
    let (old, new) = (change.old_image.as_ref()?, change.new_image.as_ref()?);
    // Both are sorted by name: one merge pass.
    let (mut a, mut b) = (old.iter().peekable(), new.iter().peekable());
    let mut out = Vec::new();
    loop {
        let next = match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some(_), None) => Some(std::cmp::Ordering::Less),
            (None, Some(_)) => Some(std::cmp::Ordering::Greater),
            (Some((x, _)), Some((y, _))) => Some(x.cmp(y)),
        };
        match next {
            Some(std::cmp::Ordering::Less) => {
                let (name, v) = a.next().expect("peeked");
                out.push(AttrDiff {
                    name,
                    old: Some(v),
                    new: None,
                });
            }
            Some(std::cmp::Ordering::Greater) => {
                let (name, v) = b.next().expect("peeked");
                out.push(AttrDiff {
                    name,
                    old: None,
                    new: Some(v),
                });
            }
            _ => {
                let ((name, x), (_, y)) = (a.next().expect("peeked"), b.next().expect("peeked"));
                if !same_value(x, y) {
                    out.push(AttrDiff {
                        name,
                        old: Some(x),
                        new: Some(y),
                    });
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::change::fixtures::change;
    use super::super::change::ChangeEvent;
    use super::*;
    use crate::item::value::Item;

    #[test]
    fn lists_changed_added_and_removed_attributes_in_name_order() {
        let c = change(
            ChangeEvent::Modify,
            "USER#1",
            Some(&[
                ("a", "1"),
                ("gone", "x"),
                ("same", "s"),
                ("status", "PENDING"),
            ]),
            Some(&[
                ("a", "1"),
                ("new", "y"),
                ("same", "s"),
                ("status", "SHIPPED"),
            ]),
        );
        let d = diff(&c).unwrap();
        let names: Vec<&str> = d.iter().map(|x| x.name).collect();
        assert_eq!(names, ["gone", "new", "status"]);
        assert_eq!(d[0].new, None);
        assert_eq!(d[1].old, None);
        assert_eq!(d[2].old, Some(&AttrValue::S("PENDING".into())));
        assert_eq!(d[2].new, Some(&AttrValue::S("SHIPPED".into())));
    }

    #[test]
    fn no_diff_without_both_images() {
        let c = change(ChangeEvent::Modify, "USER#1", None, Some(&[("a", "1")]));
        assert!(diff(&c).is_none());
    }

    #[test]
    fn compares_as_dynamodb_and_the_write_preview_do_one_and_one_point_zero_is_no_change() {
        let image = |n: &str, ns: [&str; 2]| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S("USER#1".into())),
                ("n".into(), AttrValue::N(n.into())),
                (
                    "ns".into(),
                    AttrValue::Ns(ns.iter().map(|e| e.to_string()).collect()),
                ),
            ])
        };
        let mut c = change(ChangeEvent::Modify, "USER#1", Some(&[]), Some(&[]));
        c.old_image = Some(image("1", ["1", "2.5"]));
        c.new_image = Some(image("1.0", ["2.50", "1"]));
        assert_eq!(diff(&c).unwrap(), []);
        let old = c.old_image.clone().unwrap();
        let new = c.new_image.clone().unwrap();
        assert!(crate::write::diff(&old, &new).is_empty());
        c.new_image = Some(image("2", ["1", "2.5"]));
        let d = diff(&c).unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, "n");
    }
}
