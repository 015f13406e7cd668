//! Which attributes a table of items shows as columns, most common first: the one ranking the
//! explorer's items pane, `--output table` and a CSV export of every attribute share.

use std::borrow::Borrow;
use std::collections::HashMap;

use crate::item::value::Item;

/// The attributes `items` carry, most common first (ties by name), leaving out `skip` (the key
/// attributes a view shows in its own columns), at most `max`.
pub fn rank_attributes<I: Borrow<Item>>(
    items: impl IntoIterator<Item = I>,
    skip: &[&str],
    max: usize,
) -> Vec<String> {
    let mut frequency: HashMap<String, usize> = HashMap::new();
    for item in items {
        for (name, _) in item.borrow().iter() {
            if !skip.contains(&name) {
                match frequency.get_mut(name) {
                    Some(n) => *n += 1,
                    None => {
                        frequency.insert(name.to_string(), 1);
                    }
                }
            }
        }
    }
    let mut ranked: Vec<(String, usize)> = frequency.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    ranked.into_iter().take(max).map(|(n, _)| n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::value::AttrValue;

    fn item(names: &[&str]) -> Item {
        Item::from_attrs(
            names
                .iter()
                .map(|n| (n.to_string(), AttrValue::Null))
                .collect(),
        )
    }

    #[test]
    fn most_common_first_ties_by_name_keys_left_out() {
        let items = [
            item(&["PK", "SK", "status", "total"]),
            item(&["PK", "SK", "status", "email"]),
            item(&["PK", "SK", "status", "total", "zip"]),
        ];
        assert_eq!(
            rank_attributes(&items, &["PK", "SK"], 10),
            ["status", "total", "email", "zip"]
        );
        assert_eq!(
            rank_attributes(&items, &["PK", "SK"], 2),
            ["status", "total"]
        );
        assert!(rank_attributes(Vec::<Item>::new(), &[], 5).is_empty());
    }
}
