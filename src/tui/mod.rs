//! The interactive explorer: configuration, connection, and the terminal loop.

pub mod debounce;
mod event_loop;
pub mod terminal;

use std::io::IsTerminal;

use crate::app::config;
use crate::app::state::State;
use crate::aws::Engine;
use crate::cli::{self, args::GlobalArgs, CliError};
use crate::model::access_pattern::AccessPattern;

/// Opens the explorer on `table`, or on the table picker; `extra_patterns` join the access
/// patterns of the config file and `--patterns`.
pub async fn explore(
    global: GlobalArgs,
    table: Option<String>,
    extra_patterns: Vec<AccessPattern>,
) -> Result<(), CliError> {
    let config = config::load_default().map_err(|e| CliError::bad_input(e.to_string()))?;
    let keymap = config
        .keymap()
        .map_err(|e| CliError::bad_input(e.to_string()))?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::bad_input(
            "the explorer needs a terminal on stdout; for scripts use the subcommands (dynoscope --help)",
        ));
    }
    let mut patterns = cli::load_patterns(&global)?;
    patterns.extend(extra_patterns);
    let conn = cli::connect(&global).await?;
    let mut state = State::new(config, keymap, conn.endpoint.clone(), 80, 24);
    state.patterns = patterns;
    event_loop::run(Engine::new(&conn), state, table)
        .await
        .map_err(|e| CliError::service(format!("terminal error: {e}")))
}
