//! Argument handling and the headless subcommands.

pub mod args;
mod demo;
mod drain;
mod hotkeys;
mod hotkeys_writes;
pub mod output;
mod read_cmd;
mod seed_churn;
pub mod tail;
mod tail_table;

use std::time::Duration;

use crate::aws::{self, ConnectOptions, Engine, EngineError, ErrorClass};
use crate::model::access_pattern::{parse_patterns_file, AccessPattern, PatternError};
use crate::model::{
    demo_data, expression::ExpressionError, json::JsonError, key_condition::KeyConditionError,
};
use args::{Cli, Command, GlobalArgs};

/// A failure as the user sees it: one line on stderr and an exit code (2 bad input, 1 service
/// or network, 130 interrupted).
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
    /// Printed after the message (the `--stats` line must stay last on stderr).
    pub trailer: Option<String>,
}

impl CliError {
    pub fn new(code: u8, message: impl Into<String>) -> Self {
        CliError {
            code,
            message: message.into(),
            trailer: None,
        }
    }

    pub fn bad_input(message: impl Into<String>) -> Self {
        Self::new(2, message)
    }

    pub fn service(message: impl Into<String>) -> Self {
        Self::new(1, message)
    }
}

impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        match e.class {
            ErrorClass::BadInput => CliError::bad_input(e.message),
            ErrorClass::Service => CliError::service(e.message),
        }
    }
}

impl From<aws::ConnectError> for CliError {
    fn from(e: aws::ConnectError) -> Self {
        CliError::bad_input(e.to_string())
    }
}

macro_rules! bad_input_from {
    ($($t:ty),*) => {$(
        impl From<$t> for CliError {
            fn from(e: $t) -> Self {
                CliError::bad_input(e.to_string())
            }
        }
    )*};
}
bad_input_from!(JsonError, KeyConditionError, ExpressionError, PatternError);

pub fn connect_options(global: &GlobalArgs) -> Result<ConnectOptions, CliError> {
    let attempt_timeout = match global.timeout {
        Some(secs) if secs.is_finite() && secs > 0.0 => Some(Duration::from_secs_f64(secs)),
        Some(secs) => {
            return Err(CliError::bad_input(format!(
                "--timeout '{secs}' must be a positive number of seconds"
            )))
        }
        None => None,
    };
    if global.max_attempts == Some(0) {
        return Err(CliError::bad_input("--max-attempts '0' must be at least 1"));
    }
    Ok(ConnectOptions {
        profile: global.profile.clone(),
        region: global.region.clone(),
        endpoint_url: global.endpoint_url.clone(),
        attempt_timeout,
        max_attempts: global.max_attempts,
    })
}

/// Access patterns from the config file and from `--patterns FILE`, the file's last.
pub fn load_patterns(global: &GlobalArgs) -> Result<Vec<AccessPattern>, CliError> {
    let config =
        crate::app::config::load_default().map_err(|e| CliError::bad_input(e.to_string()))?;
    let mut patterns = Vec::new();
    for (i, table) in config.patterns.into_iter().enumerate() {
        patterns.push(
            AccessPattern::from_toml(table, i)
                .map_err(|e| CliError::bad_input(format!("config file: {e}")))?,
        );
    }
    if let Some(path) = &global.patterns {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            CliError::bad_input(format!("cannot read patterns file '{shown}': {e}"))
        })?;
        patterns.extend(parse_patterns_file(&text, &shown).map_err(CliError::bad_input)?);
    }
    Ok(patterns)
}

/// Checked before connecting, so a missing AWS setup cannot hide the real problem.
fn require_local_endpoint(global: &GlobalArgs, command: &str) -> Result<(), CliError> {
    match aws::connect::configured_endpoint(global.endpoint_url.as_deref()) {
        None => Err(CliError::bad_input(format!(
            "'{command}' only writes to a local endpoint and none is set; pass --endpoint-url http://localhost:8000 (DynamoDB Local)"
        ))),
        Some(url) if !aws::connect::parse_endpoint(&url)? => Err(CliError::bad_input(format!(
            "'{command}' only writes to a local endpoint, not '{url}'; pass --endpoint-url http://localhost:8000 (DynamoDB Local)"
        ))),
        Some(_) => Ok(()),
    }
}

pub async fn connect(global: &GlobalArgs) -> Result<aws::Connection, CliError> {
    Ok(aws::connect(&connect_options(global)?).await?)
}

pub async fn run(cli: Cli) -> Result<(), CliError> {
    let Some(command) = cli.command else {
        return crate::tui_entry(cli.global, cli.table).await;
    };
    match command {
        Command::Demo(args) => demo::run(&cli.global, args).await,
        Command::Tables => {
            let engine = Engine::new(&connect(&cli.global).await?);
            let names = engine.list_tables().await?;
            let mut out = String::new();
            for name in names {
                out.push_str(&crate::model::sanitize::sanitize(&name));
                out.push('\n');
            }
            print!("{out}");
            Ok(())
        }
        Command::Describe { table } => {
            let engine = Engine::new(&connect(&cli.global).await?);
            let info = engine.describe_table(&table).await?;
            println!(
                "{}",
                serde_json::to_string_pretty(&info).unwrap_or_default()
            );
            Ok(())
        }
        Command::Query(args) => {
            read_cmd::run_query(&Engine::new(&connect(&cli.global).await?), *args).await
        }
        Command::Run(args) => {
            let patterns = load_patterns(&cli.global)?;
            let engine = Engine::new(&connect(&cli.global).await?);
            read_cmd::run_pattern(&engine, &patterns, args).await
        }
        Command::Scan(args) => {
            read_cmd::run_scan(&Engine::new(&connect(&cli.global).await?), args).await
        }
        Command::Hotkeys(args) if args.writes || args.for_duration.is_some() => {
            hotkeys_writes::run(&cli.global, args).await
        }
        Command::Tail(args) => tail::run(&cli.global, args).await,
        Command::Hotkeys(args) => {
            hotkeys::run(&Engine::new(&connect(&cli.global).await?), args).await
        }
        Command::Seed(args) if args.churn.is_some() || args.for_duration.is_some() => {
            seed_churn::run(&cli.global, args).await
        }
        Command::Seed(args) => {
            require_local_endpoint(&cli.global, "seed")?;
            let conn = connect(&cli.global).await?;
            aws::seed::ensure_local(&conn, "seed")?;
            let loaded =
                aws::seed::seed(&conn, &args.table, demo_data::generate(args.users)).await?;
            eprintln!(
                "loaded {loaded} items into '{}' at {}",
                args.table, conn.endpoint
            );
            Ok(())
        }
    }
}
