//! The live pane (`W`), one feature in one folder: its state (`pane`, and what a change or the
//! window says in `summary`), what its keys and the stream's news do (`keys`) and where its parts
//! go on the screen (`layout`). `ui::live` and `ui::live_tail` draw it; it opens in the slot
//! over the table (`state::CoverPane`).

pub(crate) mod keys;
pub mod layout;
mod pane;
mod summary;

pub use pane::{ChangeDetail, Follow, Frozen, LiveStatus, LiveView};
pub use summary::{detail_line_count, no_diff_reason, view_note, LiveSummary, LIVE_TOP_KEYS};

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
#[cfg(test)]
mod keys_tests;
