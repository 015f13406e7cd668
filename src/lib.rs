//! dynoscope: a terminal explorer for DynamoDB single-table designs.
//!
//! `model` is pure domain code, `aws` is the only code that talks to DynamoDB, `app` holds the
//! explorer's state and its pure `update`, `ui` draws it, `cli` parses arguments and runs the
//! headless subcommands.

pub mod aws;
pub mod cli;
pub mod model;

/// Opens the explorer. Until the TUI lands this says so instead of failing silently.
pub async fn tui_entry(
    _global: cli::args::GlobalArgs,
    _table: Option<String>,
) -> Result<(), cli::CliError> {
    Err(cli::CliError::bad_input(
        "the explorer UI is not built yet; use the headless subcommands (see 'dynoscope --help')",
    ))
}
