//! Naming a sort key's parts after the item's own attributes. Single-table designs usually
//! keep a key's parts again as attributes (`ORDER#2026-08-27#o42` beside `date` and
//! `orderId`), so the part columns can be headed by those names instead of `part1`, `part2`.
//!
//! The rule: part *n* takes an attribute's name when that attribute's value equals the part in
//! more than half of the items that have the part, and in at least two of them (a single item
//! counts only when the value is at least three characters and not a bare number, so `qty = 1`
//! beside `ITEM#1` names nothing). The attribute with the most matches wins, ties by name; an
//! attribute names one part at most.

use std::collections::{BTreeMap, HashMap};

use crate::item::value::{AttrValue, Item};
use crate::text::cell::cell_text;

/// `parts[i]` holds the decoded parts of `items[i]`'s sort key; `skip` are attributes that may
/// not name a part (the key attributes). Returns a name or `None` for each of `part_count` parts.
pub fn part_names_from_data(
    items: &[&Item],
    parts: &[Vec<&str>],
    part_count: usize,
    skip: &[&str],
) -> Vec<Option<String>> {
    let mut names: Vec<Option<String>> = vec![None; part_count];
    for (n, name) in names.iter_mut().enumerate() {
        let mut with_part = 0usize;
        let mut matches: BTreeMap<&str, usize> = BTreeMap::new();
        let mut last_value = "";
        for (item, item_parts) in items.iter().zip(parts) {
            let Some(part) = item_parts.get(n).filter(|p| !p.is_empty()) else {
                continue;
            };
            with_part += 1;
            last_value = part;
            for (attr, value) in item.iter() {
                if skip.contains(&attr) {
                    continue;
                }
                let equal = match value {
                    AttrValue::S(s) => s == part,
                    AttrValue::N(_) => cell_text(value) == *part,
                    _ => false,
                };
                if equal {
                    *matches.entry(attr).or_default() += 1;
                }
            }
        }
        // Most matches first; the map's order breaks ties by name.
        let best =
            matches
                .into_iter()
                .fold(None::<(&str, usize)>, |best, (attr, count)| match best {
                    Some((_, top)) if top >= count => best,
                    _ => Some((attr, count)),
                });
        let Some((attr, count)) = best else {
            continue;
        };
        let distinctive = last_value.chars().count() >= 3
            && !last_value
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-');
        if count * 2 > with_part && (count >= 2 || distinctive) {
            *name = Some(attr.to_owned());
        }
    }
    // An attribute names one part: the first that matched it.
    for i in 0..names.len() {
        if let Some(name) = names[i].clone() {
            for later in names.iter_mut().skip(i + 1) {
                if later.as_deref() == Some(name.as_str()) {
                    *later = None;
                }
            }
        }
    }
    names
}

/// Each kind's part names as learnt from the most items of that kind seen in any read of the
/// table: a Query of one collection holds a handful of a kind's items, the opening Scan many,
/// and the names must not change because the view did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindPartNames {
    by_kind: HashMap<String, (usize, Vec<Option<String>>)>,
}

impl KindPartNames {
    /// Whether names learnt from `samples` items of `kind` would be news.
    pub fn wants(&self, kind: &str, samples: usize) -> bool {
        self.by_kind
            .get(kind)
            .is_none_or(|(known, _)| *known < samples)
    }

    /// The names to use for `kind`, given names just learnt from `samples` of its items:
    /// whichever came from more items, remembering the better.
    pub fn best(
        &mut self,
        kind: &str,
        samples: usize,
        names: Vec<Option<String>>,
    ) -> Vec<Option<String>> {
        match self.by_kind.get(kind) {
            Some((known, remembered)) if *known > samples => remembered.clone(),
            _ => {
                self.by_kind
                    .insert(kind.to_owned(), (samples, names.clone()));
                names
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::demo_data;
    use crate::design::entity::decode_key;

    fn named(items: &[Item], sk: &str) -> Vec<Option<String>> {
        let refs: Vec<&Item> = items.iter().collect();
        let parts: Vec<Vec<&str>> = items
            .iter()
            .map(|i| {
                i.get(sk)
                    .and_then(AttrValue::as_s)
                    .map(|s| decode_key(s, '#').parts)
                    .unwrap_or_default()
            })
            .collect();
        let count = parts.iter().map(Vec::len).max().unwrap_or(0);
        part_names_from_data(&refs, &parts, count, &["PK", "SK", "GSI1PK", "GSI1SK"])
    }

    fn some(names: &[&str]) -> Vec<Option<String>> {
        names.iter().map(|n| Some(n.to_string())).collect()
    }

    #[test]
    fn the_demo_s_orders_name_their_parts_date_and_order_id() {
        let items: Vec<Item> = demo_data::generate(20)
            .into_iter()
            .filter(|i| i.get("PK").and_then(AttrValue::as_s) == Some("USER#celebrity"))
            .collect();
        assert!(items.len() > 20);
        assert_eq!(named(&items, "SK"), some(&["date", "orderId"]));
        // The GSI's sort key `date#ORDER#orderId`: `ORDER` matches no attribute.
        let gsi = named(&items, "GSI1SK");
        assert_eq!(
            gsi,
            [Some("date".to_string()), None, Some("orderId".to_string())]
        );
    }

    #[test]
    fn a_kind_keeps_the_names_learnt_from_the_most_items() {
        let mut memory = KindPartNames::default();
        let scan = vec![Some("customerId".to_string())];
        assert_eq!(memory.best("customer", 24, scan.clone()), scan);
        // One collection later: one item names nothing, the table's 24 did.
        assert_eq!(memory.best("customer", 1, vec![None]), scan);
        let more = vec![Some("id".to_string())];
        assert_eq!(memory.best("customer", 30, more.clone()), more);
        assert_eq!(memory.best("order", 1, vec![None]), vec![None]);
    }

    #[test]
    fn parts_that_match_nothing_stay_unnamed() {
        // Order lines `ITEM#n`: `qty` sometimes equals n, but not in most lines.
        let lines: Vec<Item> = demo_data::generate(20)
            .into_iter()
            .filter(|i| {
                i.get("SK")
                    .and_then(AttrValue::as_s)
                    .is_some_and(|s| s.starts_with("ITEM#"))
            })
            .collect();
        assert_eq!(named(&lines, "SK"), [None]);
        let s = |v: &str| AttrValue::S(v.into());
        let item = |sk: &str, other: &str| {
            Item::from_attrs(vec![
                ("PK".into(), s("T#1")),
                ("SK".into(), s(sk)),
                ("note".into(), s(other)),
            ])
        };
        let table = [item("EVT#a1#b1", "x"), item("EVT#a2#b2", "y")];
        assert_eq!(named(&table, "SK"), [None, None]);
        // One item: a distinctive value names its part, a short number does not.
        assert_eq!(named(&[item("EVT#abc", "abc")], "SK"), some(&["note"]));
        assert_eq!(named(&[item("EVT#1", "1")], "SK"), [None]);
        // An attribute names one part.
        assert_eq!(
            named(
                &[item("EVT#ab1#ab1", "ab1"), item("EVT#ab2#ab2", "ab2")],
                "SK"
            ),
            [Some("note".to_string()), None]
        );
    }
}
