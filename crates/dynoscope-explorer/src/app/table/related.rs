//! The related collections of the item under the cursor: what `g r` (or Enter on the list in
//! the item detail) opens.

use crate::app::state::ListCursor;
use crate::model::design::collection::ItemId;
use crate::model::design::relations::RelatedCollection;

#[derive(Debug, Clone, Default)]
pub struct Related {
    /// The item the links belong to; they are recomputed when another item is selected.
    pub for_item: Option<ItemId>,
    /// Recompute for the same item (a page taught something new; a view came back), keeping
    /// the selected link.
    pub stale: bool,
    pub links: Vec<RelatedCollection>,
    pub list: ListCursor,
}

impl Related {
    pub fn selected(&self) -> Option<&RelatedCollection> {
        self.links.get(self.list.cursor)
    }
}
