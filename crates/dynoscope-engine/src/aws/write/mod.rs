//! The only code that writes to a table the user opened. A [`Writer`] exists only when the
//! user enabled writes (`--allow-writes`, or `allow_writes` for the profile or endpoint in the
//! config): the explorer holds an `Option` of one, and without it refuses every write effect.
//! The read [`super::Engine`] cannot write at all: its client refuses every write operation
//! before signing ([`read_only::ReadOnly`]).
//!
//! Writes sit behind their own small trait, apart from [`super::Backend`], so that reading
//! needs no writer and the in-memory `MemoryWriter` (compiled for tests only) can run the conflict flows of the
//! explorer under paused time with the same conditions DynamoDB evaluates.

pub mod audit;
pub mod guard;
#[cfg(any(test, feature = "test-engines"))]
mod memory;
pub mod read_only;
mod sdk;

use std::future::Future;

pub use audit::AuditLog;
pub use guard::{WriteAdmission, WriteGuard, WriteTicket};
#[cfg(any(test, feature = "test-engines"))]
pub use memory::MemoryWriter;
pub(crate) use sdk::Admit;
pub use sdk::Writer;
// What a write sends back is plain data the explorer reads too: it lives in the domain crate.
pub use crate::model::engine::write::{WriteDone, WriteFailure, WriteResult};

use crate::model::write::WritePlan;

pub trait WriteBackend: Clone + Send + Sync + 'static {
    /// Sends `plan` (one op, or a transaction of them); every op carries its condition.
    fn write(&self, plan: WritePlan) -> impl Future<Output = WriteResult> + Send;

    /// This writer with every attempt of its writes admitted by `guard` (a bulk run's):
    /// DynamoDB's writer admits each one before signing it; a writer that sends no requests
    /// has no attempts to admit.
    fn guarded(&self, guard: std::sync::Arc<WriteGuard>) -> Self {
        let _ = guard;
        self.clone()
    }
}
