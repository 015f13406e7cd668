//! dynoscope: a terminal explorer for DynamoDB single-table designs.
//!
//! `model` is pure domain code, `aws` is the only code that talks to DynamoDB, `app` holds the
//! explorer's state and its pure `update`, `ui` draws it, `cli` parses arguments and runs the
//! headless subcommands.

pub mod app;
pub use dynoscope_engine::aws;
pub mod cli;
pub use dynoscope_engine::logging;
pub use dynoscope_model as model;
pub mod platform;

pub mod tui;
pub mod ui;
