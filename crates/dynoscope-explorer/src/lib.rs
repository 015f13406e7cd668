//! dynoscope's explorer: `app` holds its state and the pure `update` that returns effects,
//! `ui` draws it with ratatui. The binary crate's `tui/` owns the terminal and runs the
//! effects on the engine; nothing here can reach either (a compile error, not a test).

pub use dynoscope_model as model;

pub mod app;
pub mod ui;
