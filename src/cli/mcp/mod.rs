//! `dynoscope mcp`: a read-only Model Context Protocol server over stdio, for coding agents.
//! Its tools read through the same validation and capacity guards as the headless commands
//! (`query`, `partiql`), under one budget for the whole session; every result says what it
//! cost, every page is bounded, and every call is logged. Nothing but the protocol is written
//! to stdout.

mod budget;
mod cursor;
mod explain;
mod page;
mod paging;
mod reads;
mod report_tools;
mod reports;
mod schema;
mod server;
mod wording;

use clap::Args;
use rmcp::ServiceExt;

use super::args::GlobalArgs;
use super::read_spec::check_guard_flags;
use super::CliError;
use crate::aws::Engine;

#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// The session's read budget: every call together consumes at most N read units.
    #[arg(long, value_name = "N", default_value_t = 100.0, value_parser = super::ranges::max_rcu)]
    pub max_rcu: f64,
    /// One call consumes at most N read units (at most --max-rcu).
    #[arg(long, value_name = "N", default_value_t = 25.0, value_parser = super::ranges::max_rcu)]
    pub max_rcu_per_call: f64,
    /// Rate-limit the session's requests (every call together) to N read units per second.
    #[arg(long, value_name = "N", value_parser = super::ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
}

pub async fn run(global: &GlobalArgs, args: McpArgs) -> Result<(), CliError> {
    check_guard_flags(Some(args.max_rcu), args.rcu_per_second)?;
    check_guard_flags(Some(args.max_rcu_per_call), None)
        .map_err(|e| CliError::bad_input(e.message.replace("--max-rcu", "--max-rcu-per-call")))?;
    let conn = super::connect(global).await?;
    let engine = Engine::new(&conn);
    tracing::info!(
        max_rcu = args.max_rcu,
        max_rcu_per_call = args.max_rcu_per_call,
        rcu_per_second = args.rcu_per_second,
        "mcp server starting on stdio"
    );
    let server = server::Server::new(engine, conn, &args);
    let service = server
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| CliError::service(format!("the MCP session did not start: {e}")))?;
    let ended = service.waiting().await;
    tracing::info!(?ended, "mcp session ended");
    Ok(())
}
