//! A table's writes as its DynamoDB stream shows them: the change records, what each cost and
//! which partitions it wrote to, and the bounded statistics the live view and `tail`/`hotkeys
//! --writes` are built on. Pure: time is passed in, nothing here reads a clock or the network.
//!
//! - [`change`]: one record ([`Change`]), its write units, the view type's blind spots.
//! - [`attribution`]: the table and GSI partition keys a change wrote to.
//! - [`top_k`], [`window`], [`ranking`]: the heaviest keys over a sliding window in fixed memory.
//! - [`warnings`]: the hot-partition rules applied to writes.
//! - [`live`]: [`LiveStats`], everything the live view shows, fed one change at a time, on a
//!   [`timeline`]: a stream's moving clock, or a recorded window (an incremental export) whole.
//! - [`tally`]: exact per-key counts over one bounded run (`hotkeys --writes`).
//! - [`tail`], [`diff`], [`change_json`]: the last changes, what a MODIFY changed, and a change
//!   as a line of JSON.

pub mod attribution;
pub mod change;
pub mod change_json;
pub mod diff;
pub mod live;
pub mod ranking;
pub mod tail;
pub mod tally;
pub mod timeline;
pub mod top_k;
pub mod warnings;
pub mod window;

pub use change::{Change, ChangeEvent, ViewType, WriteUnits};
pub use live::{LiveConfig, LiveStats, LiveTotals};
pub use ranking::{RankBy, RankTarget, RankedKey};
pub use timeline::Timeline;
pub use window::Window;
