//! What a reader of an export's items gathers between pages: each item taken through the
//! index view, the filter and the projection as DynamoDB would on the server, and sent as a
//! page when one is full.

use super::{Shared, PAGE_ITEMS};
use crate::model::item::value::Item;

/// What one reader has gathered and not yet sent.
pub(super) struct Pending {
    segment: u32,
    page_no: u32,
    items: Vec<Item>,
    scanned: u64,
    pub(super) consumer_gone: bool,
}

impl Pending {
    pub(super) fn new(segment: u32) -> Self {
        Pending {
            segment,
            page_no: 0,
            items: Vec::with_capacity(PAGE_ITEMS),
            scanned: 0,
            consumer_gone: false,
        }
    }
}

impl Shared {
    /// Takes `item` through the index, the filter and the projection, and sends a page when
    /// one is full; `false` once the reader should stop.
    pub(super) fn offer(&self, p: &mut Pending, item: Item) -> bool {
        let item = match &self.index {
            Some(view) => match view.view(item) {
                Some(item) => item,
                None => return !self.stopped(),
            },
            None => item,
        };
        p.scanned += 1;
        if self.filter.as_ref().is_none_or(|f| f.matches(&item)) {
            p.items.push(match &self.projection {
                Some(projection) => projection.apply(&item),
                None => item,
            });
        }
        if p.items.len() >= PAGE_ITEMS || p.scanned as usize >= PAGE_ITEMS * 4 {
            let mut page = std::mem::take(&mut p.items);
            page.truncate(self.take(page.len()));
            let scanned = std::mem::take(&mut p.scanned);
            if !self.send(p.segment, &mut p.page_no, page, scanned) {
                p.consumer_gone = true;
            }
        }
        !(p.consumer_gone || self.stopped())
    }

    /// Sends what is left of a reader's last page.
    pub(super) fn finish(&self, p: Pending) {
        if !p.consumer_gone && (!p.items.is_empty() || p.scanned > 0) && !self.cancel.is_cancelled()
        {
            let (mut page, mut page_no) = (p.items, p.page_no);
            page.truncate(self.take(page.len()));
            self.send(p.segment, &mut page_no, page, p.scanned);
        }
    }
}
