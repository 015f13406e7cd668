//! `dynoscope mcp`: a read-only Model Context Protocol server over stdio, for coding agents.
//! Its tools read through the same validation and capacity guards as the headless commands
//! (`query`, `partiql`), under one budget for the whole session; every result says what it
//! cost, every page is bounded, and every call is logged. Nothing but the protocol is written
//! to stdout.

mod budget;
mod cursor;
mod explain;
mod export_reads;
mod frame;
mod page;
mod paging;
mod position;
mod reads;
mod report_tools;
mod reports;
mod result;
mod schema;
mod server;
mod transport;
mod wording;

use clap::Args;
use rmcp::ServiceExt;

use super::args::{ExportArgs, GlobalArgs};
use super::export_source::{export_info, inferred_keys, open_at, parse_keys, typed_keys};
use super::read_spec::check_guard_flags;
use super::CliError;
use crate::aws::table_export::ExportBackend;
use crate::aws::Engine;
use server::Source;

#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// The session's read budget: every call together consumes at most N read units.
    #[arg(long, value_name = "N", default_value_t = 100.0, value_parser = super::ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: f64,
    /// One call consumes at most N read units (at most --max-rcu).
    #[arg(long, value_name = "N", default_value_t = 25.0, value_parser = super::ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu_per_call: f64,
    /// Rate-limit the session's requests (every call together) to N read units per second.
    #[arg(long, value_name = "N", value_parser = super::ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
    /// Serve query and hotkeys from this S3 export at 0 RCU, sending DynamoDB nothing (the
    /// table's other tools then answer that they need the table); --key names its keys.
    #[command(flatten)]
    pub export: ExportArgs,
}

pub async fn run(global: &GlobalArgs, args: McpArgs) -> Result<(), CliError> {
    check_guard_flags(Some(args.max_rcu), args.rcu_per_second)?;
    check_guard_flags(Some(args.max_rcu_per_call), None)
        .map_err(|e| CliError::bad_input(e.message.replace("--max-rcu", "--max-rcu-per-call")))?;
    let source = match args.export.export.as_deref() {
        Some(path) => Source::Export(open_export(global, path, args.export.key.as_deref()).await?),
        None => {
            let conn = super::connect(global).await?;
            Source::Table(Engine::new(&conn), conn)
        }
    };
    tracing::info!(
        max_rcu = args.max_rcu,
        max_rcu_per_call = args.max_rcu_per_call,
        rcu_per_second = args.rcu_per_second,
        export = args.export.export.as_deref(),
        "mcp server starting on stdio"
    );
    let server = server::Server::new(source, &args);
    let service = server
        .serve(transport::stdio())
        .await
        .map_err(|e| CliError::service(format!("the MCP session did not start: {e}")))?;
    let ended = service.waiting().await;
    tracing::info!(?ended, "mcp session ended");
    Ok(())
}

/// The export of `--export`, its keys from `--key` or inferred from its first items: the table
/// is not described, so the server sends DynamoDB nothing at all. A path that is no export is
/// the command's error, before the session starts.
async fn open_export(
    global: &GlobalArgs,
    path: &str,
    key: Option<&str>,
) -> Result<ExportBackend, CliError> {
    let export = open_at(global, path).await?;
    let mut info = export_info(&export, None);
    info.keys = match key {
        Some(keys) => typed_keys(&export, parse_keys("--key", keys)?).await?,
        None => {
            let why = "the MCP server does not describe the table of an export (it sends DynamoDB nothing)";
            inferred_keys(&export, why).await?
        }
    };
    Ok(ExportBackend::new(export, info))
}
