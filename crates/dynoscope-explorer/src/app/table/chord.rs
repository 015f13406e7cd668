//! `g` as a prefix: `g` goes to the top at once, as it always did, and arms a chord for a
//! second or so; `r` then follows the selected related collection from where the cursor was
//! before the `g` (`g g` stays at the top, anything else is handled as itself).

use std::time::Duration;

use crate::app::state::ListCursor;

/// How long `g` waits for its second key.
pub const CHORD_TIMEOUT: Duration = Duration::from_millis(1000);

/// Cursors as they were before `g` moved one to the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CursorsBefore {
    pub collections: ListCursor,
    pub items: ListCursor,
    pub detail_scroll: usize,
    pub related: ListCursor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingChord {
    pub generation: u64,
    pub before: CursorsBefore,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Chords {
    pub pending: Option<PendingChord>,
    /// Numbers chords, so a timer for an older one is ignored.
    pub generation: u64,
}
