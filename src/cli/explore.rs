//! Start-up of the explorer: settings, the connection and `--max-items`, then the terminal loop.

use std::io::IsTerminal;
use std::sync::Arc;

use super::args::{ExportArgs, GlobalArgs};
use super::settings::Settings;
use super::CliError;
use crate::app::state::SessionBudget;
use crate::app::state::{ConnectTarget, ConnectionInfo, Session, State};
use crate::aws::write::{AuditLog, Writer};
use crate::aws::SessionGuard;
use crate::aws::{Backend, Engine};
use crate::model::design::access_pattern::AccessPattern;
use crate::model::formats::aws_profiles::profile_names;
use crate::model::input::limits;
use crate::platform::dirs::{aws_config_file, state_dir};
use crate::tui::{history_store, Connector, Services};

/// Bytes a demo-shaped item takes in the explorer, with grouping and decoding: the memory
/// benchmark measures about 170 (peak RSS 166 MB for 1,000,000 items); three times that leaves
/// room for bigger items, pages in flight and the allocator.
const BYTES_PER_ITEM: u64 = 512;

/// Half of the memory available now, at `BYTES_PER_ITEM` each; 1,000,000 when unknown.
fn default_max_items() -> usize {
    let available = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
        m.lines()
            .find(|l| l.starts_with("MemAvailable:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
    });
    match available {
        Some(kb) => ((kb * 1024 / 2) / BYTES_PER_ITEM).clamp(100_000, 100_000_000) as usize,
        None => 1_000_000,
    }
}

/// The profile a connection uses: `--profile`, else `AWS_PROFILE`, else `default`.
fn profile_name(global: &GlobalArgs) -> String {
    global
        .profile
        .clone()
        .or_else(|| std::env::var("AWS_PROFILE").ok().filter(|p| !p.is_empty()))
        .unwrap_or_else(|| "default".to_string())
}

/// Region and profile for the title, and the profiles `A` offers (the config file is read
/// here, once; a missing or unreadable file offers none).
fn session(global: &GlobalArgs, conn: &crate::aws::Connection) -> Session {
    let profiles = aws_config_file()
        .and_then(|path| super::settings::read_start_file("the AWS config file", &path).ok())
        .flatten()
        .map(|text| profile_names(&text))
        .unwrap_or_default();
    Session {
        region: conn.region.clone(),
        profile: profile_name(global),
        region_chosen: global.region.is_some(),
        profile_chosen: global.profile.is_some(),
        profiles,
        ..Session::default()
    }
}

/// Connects again with another region or profile (`R`, `A`), everything else as given on the
/// command line; the session's guard goes on across connections (one budget for the session).
fn connector(base: GlobalArgs, session_guard: Option<SessionGuard>) -> Connector<Engine> {
    Arc::new(move |target: ConnectTarget| {
        let mut global = base.clone();
        let session_guard = session_guard.clone();
        if target.region.is_some() {
            global.region = target.region;
        }
        if target.profile.is_some() {
            global.profile = target.profile;
        }
        Box::pin(async move {
            let conn = super::connect(&global).await.map_err(|e| e.message)?;
            let info = ConnectionInfo {
                endpoint: conn.endpoint.clone(),
                region: conn.region.clone(),
                profile: profile_name(&global),
            };
            Ok((Engine::new(&conn).with_session_guard(session_guard), info))
        })
    })
}

/// The explorer's state as every source starts it: the config, query history, access
/// patterns and `--max-items`.
fn initial_state(
    global: &GlobalArgs,
    settings: Settings,
    extra_patterns: Vec<AccessPattern>,
    endpoint: String,
) -> Result<(State, Option<std::path::PathBuf>), CliError> {
    let Settings {
        config,
        mut patterns,
    } = settings;
    let keymap = config
        .keymap()
        .map_err(|e| CliError::bad_input(format!("config file, in [keys]: {e}")))?;
    patterns.extend(extra_patterns);
    // Query history is read once here, for every table and endpoint, and written by the
    // terminal loop after each query; `history = false` does neither.
    let history_file = state_dir()
        .filter(|_| config.history)
        .map(|dir| history_store::history_path(&dir));
    let mut state = State::new(config, keymap, endpoint, 80, 24);
    state.queries.history = history_file
        .as_deref()
        .map(history_store::load)
        .unwrap_or_default();
    state.patterns = patterns;
    // Both sources are range-checked already (clap, the config parser).
    state.max_items = match global.max_items.or(state.config.max_items) {
        Some(n) if limits::MAX_ITEMS.contains(n as u64) => n,
        Some(n) => {
            return Err(CliError::bad_input(format!(
                "--max-items '{n}' is out of range; use {}",
                limits::MAX_ITEMS.describe()
            )))
        }
        None => default_max_items(),
    };
    Ok((state, history_file))
}

/// How the terminal loop ended, as the command's result.
fn ended(result: std::io::Result<Option<crate::tui::EndedBy>>) -> Result<(), CliError> {
    match result {
        Ok(None) => Ok(()),
        // As a shell reports a process a signal killed: 128 + its number.
        Ok(Some(by)) => Err(CliError::new(
            128 + by.number as u8,
            format!("interrupted by {}", by.name),
        )),
        Err(e) => Err(CliError::service(format!("terminal error: {e}"))),
    }
}

fn needs_terminal() -> Result<(), CliError> {
    if std::io::stdout().is_terminal() {
        return Ok(());
    }
    Err(CliError::bad_input(
        "the explorer needs a terminal on stdout; for scripts use the subcommands (dynoscope --help)",
    ))
}

/// `--live` opens a table's stream, so it needs a table and is no flag for an export, whose
/// live pane is `W` inside it (an incremental export opens with it already).
pub(super) fn check_live(live: bool, table: Option<&str>, export: bool) -> Result<(), CliError> {
    match (live, table, export) {
        (true, _, true) => Err(CliError::bad_input(
            "--live opens a live table's stream, not an export: on an export the live pane is W inside it (an incremental export opens with it); drop --live",
        )),
        (true, None, false) => Err(CliError::bad_input(
            "--live needs a table: pass its name, as in 'dynoscope TABLE --live'",
        )),
        _ => Ok(()),
    }
}

/// Opens the explorer on `table`, or on the table picker; `extra_patterns` join the access
/// patterns of the config file and `--patterns`; `live`: with the live pane open. With
/// `--export`, on the export's items instead (see [`explore_export`]).
pub async fn explore(
    global: GlobalArgs,
    settings: Settings,
    table: Option<String>,
    export: ExportArgs,
    extra_patterns: Vec<AccessPattern>,
    live: bool,
    budget: SessionBudget,
) -> Result<(), CliError> {
    check_live(live, table.as_deref(), export.export.is_some())?;
    super::read_spec::check_guard_flags(budget.max_rcu, budget.rcu_per_second)?;
    check_write_budget(&budget, global.allow_writes)?;
    if export.export.is_some() {
        // An export's reads are of files: no read capacity to guard.
        if budget != SessionBudget::default() {
            return Err(CliError::bad_input(
                "--max-rcu and --rcu-per-second guard a live table's reads; an export's files spend no read capacity: drop them",
            ));
        }
        return explore_export(global, settings, table, export, extra_patterns).await;
    }
    needs_terminal()?;
    let conn = super::connect(&global).await?;
    let (mut state, history_file) =
        initial_state(&global, settings, extra_patterns, conn.endpoint.clone())?;
    state.session = session(&global, &conn);
    state.session_budget = budget;
    state.open_live = live;
    // One guard for the whole session: the engine's reads and the writer's re-reads share it.
    let session_guard = SessionGuard::new(budget.max_rcu, budget.rcu_per_second);
    // Writes need the flag, or allow_writes for this profile or endpoint in the config; then
    // a writer exists, and every write it sends is appended to the audit file.
    let profile = global
        .profile
        .clone()
        .or_else(|| std::env::var("AWS_PROFILE").ok());
    let writer = if global.allow_writes
        || state
            .config
            .allows_writes(profile.as_deref(), &conn.endpoint)
    {
        let dir = crate::platform::dirs::state_dir().ok_or_else(|| {
            CliError::bad_input("writes need an audit file, and there is no home directory for it")
        })?;
        Some(Writer::new(&conn, AuditLog::in_dir(&dir)).with_session_guard(session_guard.clone()))
    } else {
        None
    };
    state.writes_enabled = writer.is_some();
    let services = Services {
        history_file,
        connector: Some(connector(global.clone(), session_guard.clone())),
        metrics: Some(metrics_source(&conn)),
        insights: Some(insights_source(&conn)),
        journal_dir: crate::platform::dirs::state_dir(),
        columns_file: state_dir().map(|dir| crate::tui::column_store::columns_path(&dir)),
    };
    let engine = Engine::new(&conn).with_session_guard(session_guard);
    ended(crate::tui::run(engine, writer, state, table, services).await)
}

/// `--max-wcu`/`--wcu-per-second` budget the bulk dialog's runs and undos, which write only
/// with `--allow-writes`: without it they would guard nothing, so they are refused.
pub(super) fn check_write_budget(
    budget: &SessionBudget,
    allow_writes: bool,
) -> Result<(), CliError> {
    let flag = match (budget.max_wcu, budget.wcu_per_second) {
        (Some(_), _) => "--max-wcu",
        (None, Some(_)) => "--wcu-per-second",
        (None, None) => return Ok(()),
    };
    if allow_writes {
        return Ok(());
    }
    Err(CliError::bad_input(format!(
        "{flag} budgets the explorer's bulk writes (B and its undo U), and writes are off: add --allow-writes, or drop {flag}"
    )))
}

/// `--max-rcu`/`--rcu-per-second` before a subcommand would guard an explorer that does not
/// open: refused, never ignored.
pub(super) fn check_session_budget(
    budget: &SessionBudget,
    command: &super::args::Command,
) -> Result<(), CliError> {
    if *budget == SessionBudget::default() {
        return Ok(());
    }
    let flag = if budget.max_rcu.is_some() {
        "--max-rcu"
    } else if budget.rcu_per_second.is_some() {
        "--rcu-per-second"
    } else if budget.max_wcu.is_some() {
        "--max-wcu"
    } else {
        "--wcu-per-second"
    };
    let opens_explorer = matches!(command, super::args::Command::Demo(args) if !args.no_ui);
    Err(CliError::bad_input(if opens_explorer {
        format!("{flag} before 'demo' is not supported: the demo's table is local and free; drop {flag}")
    } else {
        format!("{flag} before the subcommand guards the explorer, which this command does not open; drop it, or give it after the name of a subcommand that reads (scan, query, partiql, hotkeys, run)")
    }))
}

/// `dynoscope --export PATH`: the table view on an export's items, opened and keyed as
/// `scan --export` opens it. Read-only whatever the config says: an export is a copy, and
/// no writer exists; its reads are of files, so no read capacity is spent. An incremental
/// export opens with the live pane counting its changes over the export's window.
async fn explore_export(
    global: GlobalArgs,
    settings: Settings,
    table: Option<String>,
    export: ExportArgs,
    extra_patterns: Vec<AccessPattern>,
) -> Result<(), CliError> {
    if global.allow_writes {
        return Err(CliError::bad_input(
            "--allow-writes cannot be used with --export: an export is a read-only copy of the table; drop --allow-writes, or open the table itself to write",
        ));
    }
    let backend = super::export_source::open(&global, &export, table.as_deref()).await?;
    let summary = &backend.export().summary;
    let incremental =
        summary.export_type == crate::model::exports::table_export::ExportType::Incremental;
    needs_terminal()?;
    let name = backend.describe_table("").await?.name;
    let (mut state, history_file) = initial_state(
        &global,
        settings,
        extra_patterns,
        backend.endpoint().to_string(),
    )?;
    state.session.export = Some(summary.title());
    // Its writes are what an incremental export is for: the pane opens on them at once.
    state.open_live = incremental;
    let services = Services {
        history_file,
        connector: None,
        // An export's files have no CloudWatch metrics; the table's are not the export's.
        metrics: None,
        insights: None,
        journal_dir: None,
        // An export's columns are its table's: chosen and remembered alike.
        columns_file: state_dir().map(|dir| crate::tui::column_store::columns_path(&dir)),
    };
    ended(crate::tui::run(backend, None::<Writer>, state, Some(name), services).await)
}

/// The metrics pane's batches, on this connection's CloudWatch client (its endpoint from the
/// SDK's configuration, never `--endpoint-url`).
fn metrics_source(conn: &crate::aws::Connection) -> crate::tui::MetricsSource {
    let client = conn.cloudwatch.clone();
    std::sync::Arc::new(move |table: String, gsis: Vec<String>, window| {
        let client = client.clone();
        Box::pin(async move {
            let plan = crate::model::traffic::metrics::MetricsPlan::new(&table, &gsis, window);
            crate::aws::cloudwatch::metric_data(&client, &plan)
                .await
                .map(|answered| {
                    crate::model::traffic::metrics::report::MetricsReport::build(&plan, &answered)
                })
        })
    })
}

/// The metrics pane's Contributor Insights, on this connection (DynamoDB for the status,
/// CloudWatch for the rules' top keys) as `dynoscope insights` asks for it.
fn insights_source(conn: &crate::aws::Connection) -> crate::tui::InsightsSource {
    let client = conn.cloudwatch.clone();
    let engine = Engine::new(conn);
    std::sync::Arc::new(move |table: String, gsis: Vec<String>, window| {
        let (client, engine) = (client.clone(), engine.clone());
        Box::pin(async move { engine.table_insights(&client, &table, gsis, window).await })
    })
}
