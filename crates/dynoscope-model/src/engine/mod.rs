//! The words the engine and its callers share: what to read, the pages, events and errors a
//! read, a stream or a write sends back. Plain data, no SDK and no runtime: the engine crate
//! (`dynoscope_engine::aws`) produces them and re-exports them where they always were, and the
//! explorer reads them without the engine in reach.

pub mod attempts;
mod delivery;
pub mod error;
pub mod feature;
pub mod json_lines;
pub mod keyed_projection;
mod partiql;
mod partiql_statement;
mod pattern_read;
pub mod permission;
pub mod progress;
pub mod read;
mod read_budget;
pub mod read_cause;
pub mod stream;
pub mod write;

pub use error::{EngineError, ErrorClass};
pub use feature::FeatureError;
pub use partiql::plan_read;
pub use pattern_read::pattern_read;
pub use progress::ReadProgress;
pub use read::{
    Delivery, DoneOutcome, EngineEvent, Operation, Page, PartiqlStatement, ReadBudget, ReadSpec,
    RequestId, SegmentStart, MAX_SEGMENTS,
};
pub use stream::{no_stream_message, StreamEvent, StreamOutcome, StreamStart};
pub use write::{WriteDone, WriteFailure, WriteResult};
