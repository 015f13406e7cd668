//! The one loop that owns the terminal: input, engine events and drawing, and the terminal
//! itself (raw mode, alternate screen, suspend, restore on every way out).

mod clipboard;
pub mod column_store;
pub mod debounce;
mod editor;
pub mod effects;
mod event_loop;
pub mod export;
mod export_sink;
#[cfg(test)]
mod flow_harness;
pub mod history_store;
mod input;
#[cfg(test)]
mod palette_check_flow_tests;
pub mod services;
#[cfg(test)]
mod session_flow_tests;
mod signals;
pub mod streams;
pub mod terminal;
#[cfg(test)]
mod walk_flow_tests;

pub use event_loop::{run, BATCH_BUDGET};
pub use services::{Connector, InsightsSource, MetricsSource, Services};

#[cfg(test)]
mod live_flow_tests;
#[cfg(test)]
mod metrics_flow_tests;
pub use signals::EndedBy;
