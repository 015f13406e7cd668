//! Argument handling and the headless subcommands.

/// `eprintln!` through the sanitiser: see `say.rs`.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say::say(&format!($($arg)*))
    };
}

pub mod args;
mod bulk_cmd;
mod bulk_journal;
mod bulk_print;
mod bulk_run;
mod clone_cmd;
mod demo;
mod describe_cmd;
mod diagnose;
mod diagnose_keys;
mod docs;
mod drain;
mod explore;
mod export_source;
mod export_start;
mod export_tail;
mod hotkeys;
mod hotkeys_writes;
mod insights;
mod mcp;
mod metrics;
mod model_cmd;
mod model_export;
mod model_export_files;
pub mod output;
mod partiql_cmd;
mod patterns_check;
mod profiles;
mod ranges;
mod read_cmd;
mod read_spec;
mod run_pattern;
pub mod say;
mod seed_churn;
pub mod settings;
mod stream;
pub mod tail;
mod tail_args;
mod tail_table;
mod text_table;
mod undo_cmd;

use std::time::Duration;

use crate::app::state::SessionBudget;
use crate::aws::{self, ConnectOptions, Engine, EngineError, ErrorClass};
use crate::model::design::access_pattern::PatternError;
use crate::model::{
    demo::demo_data, formats::json::JsonError, input::limits, query::expression::ExpressionError,
    query::key_condition::KeyConditionError,
};
use args::{Cli, Command, GlobalArgs};
use settings::Settings;

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

/// Ends a command that prints `--stats`: the statistics line stays the last line of stderr,
/// after the error line when the command failed.
pub fn finish_with_stats(
    outcome: Result<(), CliError>,
    stats_line: Option<String>,
) -> Result<(), CliError> {
    match (outcome, stats_line) {
        (Err(mut e), line) => {
            e.trailer = line;
            Err(e)
        }
        (Ok(()), Some(line)) => {
            say::say(&line);
            Ok(())
        }
        (Ok(()), None) => Ok(()),
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
    // clap checked both already; a GlobalArgs built in code must not panic either.
    let attempt_timeout = match global.timeout {
        Some(secs) if limits::TIMEOUT_SECS.contains(secs) => Some(Duration::from_secs_f64(secs)),
        Some(secs) => {
            return Err(CliError::bad_input(format!(
                "--timeout '{secs}' is out of range; use {}",
                limits::TIMEOUT_SECS.describe()
            )))
        }
        None => None,
    };
    if let Some(n) = global.max_attempts {
        if !limits::MAX_ATTEMPTS.contains(u64::from(n)) {
            return Err(CliError::bad_input(format!(
                "--max-attempts '{n}' is out of range; use {}",
                limits::MAX_ATTEMPTS.describe()
            )));
        }
    }
    profiles::check(global.profile.as_deref())?;
    Ok(ConnectOptions {
        profile: global.profile.clone(),
        region: global.region.clone(),
        endpoint_url: global.endpoint_url.clone(),
        attempt_timeout,
        max_attempts: global.max_attempts,
        local_only: None,
    })
}

pub async fn connect(global: &GlobalArgs) -> Result<aws::Connection, CliError> {
    Ok(aws::connect(&connect_options(global)?).await?)
}

pub async fn run(cli: Cli) -> Result<(), CliError> {
    let budget = SessionBudget {
        max_rcu: cli.max_rcu,
        rcu_per_second: cli.rcu_per_second,
        max_wcu: cli.max_wcu,
        wcu_per_second: cli.wcu_per_second,
    };
    let Some(command) = cli.command else {
        let settings = Settings::load(&cli.global)?;
        return explore::explore(
            cli.global,
            settings,
            cli.table,
            cli.export,
            Vec::new(),
            cli.live,
            budget,
        )
        .await;
    };
    explore::check_session_budget(&budget, &command)?;
    match command {
        Command::Demo(args) => demo::run(&cli.global, args).await,
        Command::Completions { shell } => docs::completions(shell),
        Command::Man => docs::man(),
        Command::Tables => {
            let engine = Engine::new(&connect(&cli.global).await?);
            let names = engine.list_tables().await?;
            let mut out = String::new();
            for name in names {
                out.push_str(&crate::model::text::sanitize::sanitize(&name));
                out.push('\n');
            }
            print!("{out}");
            Ok(())
        }
        Command::Describe {
            table,
            sample,
            max_rcu,
        } => describe_cmd::run(&cli.global, &table, sample, max_rcu).await,
        Command::Query(args) => {
            read_cmd::run_query(&Engine::new(&connect(&cli.global).await?), *args).await
        }
        Command::Run(args) => {
            let patterns = Settings::load(&cli.global)?.patterns;
            let engine = Engine::new(&connect(&cli.global).await?);
            run_pattern::run_pattern(&engine, &patterns, args).await
        }
        Command::Patterns(patterns_check::PatternsCommand::Check(args)) => {
            patterns_check::run(&cli.global, args).await
        }
        Command::Scan(args) if args.export.export.is_some() => {
            read_cmd::run_scan_export(&cli.global, args).await
        }
        Command::Scan(args) => {
            read_cmd::run_scan(&Engine::new(&connect(&cli.global).await?), args).await
        }
        Command::Partiql(args) if crate::model::query::partiql::is_bulk_write(&args.statement) => {
            bulk_cmd::run(&cli.global, *args).await
        }
        Command::Undo(args) => undo_cmd::run(&cli.global, args).await,
        Command::Clone(args) => clone_cmd::run(&cli.global, *args).await,
        Command::Partiql(args) => {
            partiql_cmd::run(&Engine::new(&connect(&cli.global).await?), *args).await
        }
        Command::Hotkeys(args) if args.export.export.is_some() => {
            export_source::hotkeys(&cli.global, args).await
        }
        Command::Hotkeys(args) if args.writes || args.for_duration.is_some() => {
            hotkeys_writes::run(&cli.global, args).await
        }
        Command::Tail(args) if args.export.export.is_some() => {
            export_tail::run(&cli.global, args).await
        }
        Command::Tail(args) => tail::run(&cli.global, args).await,
        Command::Mcp(args) => mcp::run(&cli.global, args).await,
        Command::Metrics(args) => metrics::run(&cli.global, args).await,
        Command::Insights(args) => insights::run(&cli.global, args).await,
        Command::Diagnose(args) => diagnose::run(&cli.global, args).await,
        Command::ExportStart(args) => export_start::run(&cli.global, args).await,
        Command::Hotkeys(args) => {
            hotkeys::run(&Engine::new(&connect(&cli.global).await?), args, |_| Ok(())).await
        }
        Command::Model(args::ModelCommand::Import { file, write }) => {
            model_cmd::import(&file, write)
        }
        Command::Model(args::ModelCommand::Export(args)) => {
            model_export::run(&cli.global, args).await
        }
        Command::Seed(args) if args.model.is_some() => {
            model_cmd::seed(&cli.global, args.model.as_deref().expect("checked")).await
        }
        Command::Seed(args) if args.churn.is_some() || args.for_duration.is_some() => {
            seed_churn::run(&cli.global, args).await
        }
        Command::Seed(args) => {
            let mut options = connect_options(&cli.global)?;
            options.local_only = Some("seed");
            let conn = aws::connect(&options).await?;
            aws::seed::ensure_local(&conn, "seed")?;
            let stream = if args.no_stream {
                aws::seed::SeedStream::Off
            } else {
                aws::seed::SeedStream::NewAndOldImages
            };
            let loaded =
                aws::seed::seed(&conn, &args.table, demo_data::generate(args.users), stream)
                    .await?;
            say!(
                "loaded {loaded} items into '{}' at {}",
                args.table,
                conn.endpoint
            );
            Ok(())
        }
    }
}
