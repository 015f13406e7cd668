//! dynoscope: a terminal explorer for DynamoDB single-table designs.
//!
//! `model` is pure domain code, `aws` is the only code that talks to DynamoDB, `app` holds the
//! explorer's state and its pure `update`, `ui` draws it (those four are crates of their own),
//! `tui` owns the terminal and runs the explorer's effects, `cli` parses arguments and runs the
//! headless subcommands.

pub use dynoscope_engine::aws;
pub use dynoscope_explorer::app;
pub mod cli;
pub use dynoscope_engine::local_files;
pub use dynoscope_engine::logging;
pub use dynoscope_model as model;
pub mod platform;

pub mod tui;
pub use dynoscope_explorer::ui;
