//! The open table's read as state: a page of it applied to the view, and the hold a
//! streaming export has on it (every page of the reads that continue it goes to the file).

use super::OpenTable;
use crate::model::design::relations::KeyKnowledge;
use crate::model::engine::Page;

impl OpenTable {
    /// A page of the current read: counted against the read (and the launcher's per-segment
    /// progress), its items into the store. Past `cap` the request log and statistics keep
    /// counting, but items are not kept, so a huge scan cannot take the explorer's memory with
    /// it; views kept for going back count too, and make room first, oldest first.
    ///
    /// Returns the collection selected before, for the cursor to follow it.
    pub fn apply_page(&mut self, page: Page, cap: usize) -> Option<usize> {
        let view = &mut self.view;
        if let Some(read) = view.read.as_mut() {
            read.pages += 1;
            read.spent_rcu += page.consumed.total;
            read.progress.record(&page);
        }
        if let Some(progress) = view.progress.as_mut() {
            progress.record(&page);
        }
        let selected = view.selected_collection();
        let Some(store) = view.store.as_mut() else {
            return selected;
        };
        let mut items = page.items;
        let separator = store.settle_separator(&items);
        // A multi-attribute index's store holds tuples, not one attribute's values.
        let keys = store.group_keys();
        let group_key = (keys.partition().len() == 1).then(|| keys.partition_key().name.as_str());
        if self.knowledge.targets().is_empty() {
            if let Some(info) = self.info.loaded() {
                self.knowledge = KeyKnowledge::new(info);
            }
        }
        self.knowledge.observe(&items, separator, group_key);
        view.related.stale = true;
        self.visited
            .fit(cap.saturating_sub(store.len() + items.len()));
        let room = cap.saturating_sub(store.len() + self.visited.items_held());
        if items.len() > room {
            view.dropped_items += (items.len() - room) as u64;
            items.truncate(room);
        }
        store.extend(items);
        view.ordering.refresh(store);
        selected
    }

    /// A streaming export holds the read: the reads that continue it are tee'd into its file.
    pub fn export_holds_read(&self) -> bool {
        self.export_job
            .as_ref()
            .is_some_and(|j| j.stream && !j.waiting_for_read)
    }

    /// A new read replaces the one a streaming export holds: that export ends; its job id is
    /// returned for cancelling it.
    pub fn end_streaming_export(&mut self) -> Option<u64> {
        if !self.export_job.as_ref().is_some_and(|j| j.stream) {
            return None;
        }
        self.export_job.take().map(|j| j.id)
    }
}
