//! The one loop that owns the terminal: input, engine events and drawing, and the terminal
//! itself (raw mode, alternate screen, suspend, restore on every way out).

pub mod debounce;
pub mod effects;
mod event_loop;
mod signals;
pub mod streams;
pub mod terminal;

pub use event_loop::{run, BATCH_BUDGET};

#[cfg(test)]
mod live_flow_tests;
pub use signals::EndedBy;
