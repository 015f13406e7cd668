//! The one loop that owns the terminal: input, engine events and drawing, and the terminal
//! itself (raw mode, alternate screen, suspend, restore on every way out).

mod clipboard;
pub mod debounce;
mod editor;
pub mod effects;
mod event_loop;
pub mod export;
mod signals;
pub mod terminal;

pub use event_loop::{run, BATCH_BUDGET};
pub use signals::EndedBy;
