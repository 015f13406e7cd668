//! A segment's byte cap ([`ReadSpec::max_bytes`]): the items it delivered so far, how many the
//! next request may ask for to fill what is left, and where a page that fills it ends. Without
//! it a page cut to a byte cap by its reader kept reading to its item limit, paying for items
//! it then dropped and read again on the next page.

use super::source::RawItems;
use super::ReadSpec;

pub(super) struct ByteFill {
    cap: Option<usize>,
    bytes: usize,
    items: usize,
    /// DescribeTable's average item size: the estimate before any item was seen.
    average: Option<u64>,
}

impl ByteFill {
    pub fn new(spec: &ReadSpec) -> Self {
        ByteFill {
            cap: spec.max_bytes,
            bytes: 0,
            items: 0,
            average: spec.average_item_bytes,
        }
    }

    /// The most items the next request should ask for: those that fill what is left at the
    /// size of the items delivered so far (DescribeTable's average before any), one more for
    /// the item that crosses the cap. `None` without a cap or an estimate.
    pub fn items_left(&self) -> Option<usize> {
        let cap = self.cap?;
        let size = match self.items {
            0 => self.average? as usize,
            n => self.bytes.div_ceil(n),
        }
        .max(1);
        Some(cap.saturating_sub(self.bytes) / size + 1)
    }

    /// Counts the first `take` items of a page; says how many of them to keep: all, or up to
    /// and including the one that fills the cap.
    pub fn keep<I: RawItems>(&mut self, items: &I, take: usize) -> usize {
        let Some(cap) = self.cap else {
            return take;
        };
        for index in 0..take {
            self.bytes += items.size_of(index);
            self.items += 1;
            if self.bytes >= cap {
                return index + 1;
            }
        }
        take
    }

    pub fn full(&self) -> bool {
        self.cap.is_some_and(|cap| self.bytes >= cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::{Operation, ReadCause};
    use crate::model::item::value::{AttrValue, Item};

    fn item(pad: usize) -> Item {
        Item::from_attrs(vec![("p".into(), AttrValue::S("x".repeat(pad)))])
    }

    #[test]
    fn a_page_ends_on_the_item_that_fills_the_cap_and_requests_ask_for_what_fills_it() {
        let mut spec = ReadSpec::new(Operation::Query, "t", ReadCause::Test);
        spec.max_bytes = Some(1000);
        spec.average_item_bytes = Some(300);
        let mut fill = ByteFill::new(&spec);
        // Before any item: DescribeTable's 300 bytes, three and the one that crosses.
        assert_eq!(fill.items_left(), Some(4));
        // Items of 201 bytes (a one-letter name and 200 of value).
        let page = vec![item(200), item(200), item(200)];
        assert_eq!(fill.keep(&page, 3), 3);
        assert!(!fill.full());
        // 603 of 1000: one more fills it at 201 bytes each, and one crosses.
        assert_eq!(fill.items_left(), Some(2));
        let page = vec![item(200), item(200), item(200)];
        assert_eq!(fill.keep(&page, 3), 2, "the second reaches 1005 bytes");
        assert!(fill.full());
        assert_eq!(fill.items_left(), Some(1));
    }

    #[test]
    fn without_a_cap_every_item_is_kept_and_nothing_is_capped() {
        let spec = ReadSpec::new(Operation::Scan, "t", ReadCause::Test);
        let mut fill = ByteFill::new(&spec);
        assert_eq!(fill.items_left(), None);
        assert_eq!(fill.keep(&vec![item(5000); 4], 4), 4);
        assert!(!fill.full());
    }
}
