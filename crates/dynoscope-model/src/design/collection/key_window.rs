//! One page of a collection read from a source without key order (an S3 export's files): the
//! first `keep` items after a cursor key in DynamoDB's key order, chosen while the items
//! stream past, so memory holds about two pages, not the collection.

use std::cmp::Ordering;

use super::ordering::dynamo_cmp;
use crate::item::value::Item;

/// The page being chosen. Items are ordered by the sort key, then by every other key
/// attribute (an index's sort key is not unique; the table's key is), descending when asked:
/// a total order, so a page cut after any item continues with no item lost or repeated.
pub struct KeyWindow {
    order: Vec<String>,
    descending: bool,
    after: Option<Item>,
    keep: usize,
    items: Vec<Item>,
}

impl KeyWindow {
    /// `keep` items (at least one) after `after` (a key, as a cursor holds it), ordered by
    /// `sort_keys` (every sort attribute of the index, in key-schema order) then `key_names`.
    pub fn new(
        sort_keys: &[String],
        key_names: &[String],
        descending: bool,
        after: Option<Item>,
        keep: usize,
    ) -> Self {
        let mut order: Vec<String> = sort_keys.to_vec();
        order.extend(
            key_names
                .iter()
                .filter(|k| !order.contains(k))
                .cloned()
                .collect::<Vec<_>>(),
        );
        KeyWindow {
            order,
            descending,
            after,
            keep: keep.max(1),
            items: Vec::new(),
        }
    }

    fn cmp(&self, a: &Item, b: &Item) -> Ordering {
        for name in &self.order {
            let ord = match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => dynamo_cmp(x, y),
                (None, Some(_)) => Ordering::Less,
                (Some(_), None) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            if ord != Ordering::Equal {
                return if self.descending { ord.reverse() } else { ord };
            }
        }
        Ordering::Equal
    }

    /// Takes `item` if it comes after the cursor; the window is trimmed to a page (and one
    /// more, to know whether the collection goes on) whenever it holds twice that.
    pub fn offer(&mut self, item: Item) {
        if let Some(after) = &self.after {
            if self.cmp(&item, after) != Ordering::Greater {
                return;
            }
        }
        self.items.push(item);
        if self.items.len() >= 2 * (self.keep + 1) {
            self.trim();
        }
    }

    fn trim(&mut self) {
        let mut items = std::mem::take(&mut self.items);
        items.sort_by(|a, b| self.cmp(a, b));
        items.truncate(self.keep + 1);
        self.items = items;
    }

    /// The page in order, and whether more items follow it.
    pub fn finish(mut self) -> (Vec<Item>, bool) {
        self.trim();
        let more = self.items.len() > self.keep;
        self.items.truncate(self.keep);
        (self.items, more)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::item::value::AttrValue;

    fn item(sk: &str, pk: &str) -> Item {
        let mut item = Item::new();
        item.insert("GSI1SK", AttrValue::N(sk.into()));
        item.insert("PK", AttrValue::S(pk.into()));
        item
    }

    fn walk(items: &[Item], keep: usize, descending: bool) -> Vec<Vec<String>> {
        let names = vec!["PK".to_string(), "GSI1SK".to_string()];
        let sort = vec!["GSI1SK".to_string()];
        let mut pages = Vec::new();
        let mut after = None;
        loop {
            let mut w = KeyWindow::new(&sort, &names, descending, after.clone(), keep);
            // Arrival order differs from key order, as an export's files do.
            for i in items.iter().rev() {
                w.offer(i.clone());
            }
            let (page, more) = w.finish();
            pages.push(
                page.iter()
                    .map(|i| match (i.get("GSI1SK"), i.get("PK")) {
                        (Some(AttrValue::N(s)), Some(AttrValue::S(p))) => format!("{s}/{p}"),
                        _ => String::new(),
                    })
                    .collect(),
            );
            if !more {
                return pages;
            }
            after = page.last().cloned();
        }
    }

    #[test]
    fn pages_walk_every_item_once_in_key_order_ties_broken_by_the_table_key() {
        let items = vec![
            item("10", "b"),
            item("9", "a"),
            item("10", "a"),
            item("1e1", "c"),
            item("2", "z"),
        ];
        assert_eq!(
            walk(&items, 2, false),
            vec![vec!["2/z", "9/a"], vec!["10/a", "10/b"], vec!["1e1/c"]]
        );
        assert_eq!(
            walk(&items, 3, true),
            vec![vec!["1e1/c", "10/b", "10/a"], vec!["9/a", "2/z"]]
        );
        // More items than twice a page: trimmed on the way, the same walk.
        let many: Vec<Item> = (0..50).map(|n| item(&n.to_string(), "p")).collect();
        let pages = walk(&many, 7, false);
        let flat: Vec<String> = pages.concat();
        let want: Vec<String> = (0..50).map(|n| format!("{n}/p")).collect();
        assert_eq!(flat, want);
        assert_eq!(pages.len(), 8);
    }

    #[test]
    fn a_multi_attribute_sort_key_orders_by_each_sort_attribute_before_the_table_key() {
        // Index sorted by round then matchId; the table's key PK breaks ties only after them.
        let game = |round: &str, id: &str, pk: &str| {
            let mut item = Item::new();
            item.insert("round", AttrValue::S(round.into()));
            item.insert("matchId", AttrValue::N(id.into()));
            item.insert("PK", AttrValue::S(pk.into()));
            item
        };
        let sort = vec!["round".to_string(), "matchId".to_string()];
        let names = vec!["PK".to_string(), "round".to_string(), "matchId".to_string()];
        let mut w = KeyWindow::new(&sort, &names, false, None, 3);
        for item in [
            game("FINAL", "9", "a"),
            game("SEMI", "1", "c"),
            game("FINAL", "3", "b"),
        ] {
            w.offer(item);
        }
        let (page, _) = w.finish();
        let pks: Vec<_> = page.iter().map(|i| i.get("PK").cloned()).collect();
        let want = ["b", "a", "c"].map(|p| Some(AttrValue::S(p.into())));
        assert_eq!(pks, want);
    }
}
