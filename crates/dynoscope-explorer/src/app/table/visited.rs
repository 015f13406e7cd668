//! The navigation history: views left for another collection, each with its loaded items,
//! cursors, filter, columns and read, so going back shows them again without reading.
//!
//! A view's items are moved here, not copied. What the history holds counts against
//! `--max-items` together with the current view: the oldest views are dropped first when the
//! current one needs the room, so walking never raises the memory ceiling the user set.

use super::View;
use crate::model::design::collection::ItemStore;

/// Views kept at most.
pub const MAX_VISITED: usize = 20;

#[derive(Debug, Clone, Default)]
pub struct Visited {
    /// Oldest first.
    views: Vec<View>,
}

impl Visited {
    pub fn push(&mut self, view: View) {
        if self.views.len() == MAX_VISITED {
            self.views.remove(0);
        }
        self.views.push(view);
    }

    pub fn pop(&mut self) -> Option<View> {
        self.views.pop()
    }

    pub fn len(&self) -> usize {
        self.views.len()
    }

    pub fn is_empty(&self) -> bool {
        self.views.is_empty()
    }

    pub fn stores(&self) -> impl Iterator<Item = &ItemStore> {
        self.views.iter().filter_map(|v| v.store.as_ref())
    }

    /// Items the kept views hold.
    pub fn items_held(&self) -> usize {
        self.stores().map(ItemStore::len).sum()
    }

    /// Drops the oldest views until they hold at most `budget` items.
    pub fn fit(&mut self, budget: usize) {
        while !self.views.is_empty() && self.items_held() > budget {
            self.views.remove(0);
        }
    }
}
