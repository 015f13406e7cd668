//! The form a read's pages carry its items in. One enum, not a flag and two options: a read
//! delivers in one form only, and no reader has to decide which of two asked-for forms wins.

use crate::formats::json::JsonSpelling;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Delivery {
    /// Each page's items as `Item`s.
    #[default]
    Items,
    /// `Select=COUNT`: DynamoDB returns counts and capacity but no items.
    Count,
    /// Each page's items as JSON lines in this spelling instead of as `Item`s: a headless scan
    /// to a pipe then skips the conversion (see `dynoscope_engine::aws::json_lines`).
    JsonLines(JsonSpelling),
    /// Each item as this attribute's key text and the item's DynamoDB size (in
    /// [`Page::sized_keys`]) instead of the item, when the reader can find them without
    /// building it (an export); others deliver items. Only for reads with no filter or
    /// projection: `hotkeys` needs nothing else.
    ///
    /// [`Page::sized_keys`]: crate::engine::read::Page::sized_keys
    SizedKeys(String),
}

// Each reader asks the delivery one question (is it a count, in which spelling, by which
// key): these answer it where the reader's code would otherwise carry a `match`.
impl Delivery {
    /// Whether the read asks for counts only: what a request sends as `Select`, and whether a
    /// source that answers itself (the in-memory one) returns items.
    pub fn is_count(&self) -> bool {
        matches!(self, Delivery::Count)
    }

    /// The spelling to render each page's items in, if the read asked for JSON lines: the
    /// segment tasks and the export's readers hand it to the page they build.
    pub fn json_lines(&self) -> Option<JsonSpelling> {
        match self {
            Delivery::JsonLines(spelling) => Some(*spelling),
            _ => None,
        }
    }

    /// The key attribute to size items by, if the read asked for key texts and sizes: only the
    /// export's reader honours it, so the others need not look.
    pub fn sized_keys(&self) -> Option<&str> {
        match self {
            Delivery::SizedKeys(key) => Some(key),
            _ => None,
        }
    }
}
