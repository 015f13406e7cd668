//! Where pages come from: DynamoDB through the SDK ([`super::SdkSource`]) or a table in memory
//! (`memory::MemorySource`, compiled for tests only) that tests script. The coordinator, the segment tasks and
//! the capacity guard are the same code for both.

use std::future::Future;
use std::sync::Arc;

use super::reservation::Reservation;
use super::ReadSpec;
use crate::aws::attempts::AttemptRecorder;
use crate::aws::error::EngineError;
use crate::aws::json_lines::JsonLines;
use crate::model::formats::json::JsonSpelling;
use crate::model::item::item_size::item_size;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::Consumed;

/// One request as a segment task asks for it. Its `Limit` is not here: it is the
/// reservation's ([`Reservation::limit`]), what the guards admitted.
#[derive(Debug, Clone)]
pub struct PageRequest {
    pub spec: Arc<ReadSpec>,
    pub segment: u32,
    pub total_segments: u32,
    /// `ExclusiveStartKey`.
    pub start: Option<Item>,
}

/// A response before it is delivered: items still in the source's own form.
#[derive(Debug)]
pub struct RawPage<I> {
    pub items: I,
    pub count: u64,
    pub scanned_count: u64,
    pub consumed: Consumed,
    pub last_evaluated_key: Option<Item>,
}

/// A page's items in the source's form: the SDK's maps, or `Item`s.
pub trait RawItems: Send + 'static {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn truncate(&mut self, len: usize);
    /// The primary key (these attributes) of item `index`; `None` if one is missing.
    fn key_of(&self, index: usize, names: &[String]) -> Option<Item>;
    /// Item `index`'s size as DynamoDB counts it (names and values).
    fn size_of(&self, index: usize) -> usize;
    /// Drops these attributes from every item (the key attributes read only to page on).
    fn strip(&mut self, names: &[String]);
    /// As `Item`s, or (with a spelling) as JSON lines rendered without building `Item`s.
    fn deliver(self, json_lines: Option<JsonSpelling>) -> (Vec<Item>, Option<JsonLines>);
}

pub trait PageSource: Send + Sync + 'static {
    type Items: RawItems;

    /// Sends one request, with the `Limit` of `reservation`. Every HTTP attempt is counted on
    /// `recorder`. Called only by [`Reservation::send`], which settles the reservation with
    /// what the response consumed; no request can be made without one.
    fn fetch(
        &self,
        request: PageRequest,
        reservation: &Reservation,
        recorder: AttemptRecorder,
    ) -> impl Future<Output = Result<RawPage<Self::Items>, EngineError>> + Send + 'static;
}

impl RawItems for Vec<Item> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len)
    }

    fn key_of(&self, index: usize, names: &[String]) -> Option<Item> {
        let item = self.get(index)?;
        let mut key = Item::new();
        for name in names {
            key.insert(name.clone(), item.get(name)?.clone());
        }
        Some(key)
    }

    fn size_of(&self, index: usize) -> usize {
        self.get(index).map_or(0, item_size)
    }

    fn strip(&mut self, names: &[String]) {
        for item in self.iter_mut() {
            for name in names {
                item.remove(name);
            }
        }
    }

    fn deliver(self, json_lines: Option<JsonSpelling>) -> (Vec<Item>, Option<JsonLines>) {
        match json_lines {
            None => (self, None),
            Some(spelling) => (Vec::new(), Some(JsonLines::from_items(&self, spelling))),
        }
    }
}
