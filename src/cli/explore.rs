//! Start-up of the explorer: settings, the connection and `--max-items`, then the terminal loop.

use std::io::IsTerminal;
use std::sync::Arc;

use super::args::GlobalArgs;
use super::settings::Settings;
use super::CliError;
use crate::app::state::{ConnectTarget, ConnectionInfo, Session, State};
use crate::aws::write::{AuditLog, Writer};
use crate::aws::Engine;
use crate::model::access_pattern::AccessPattern;
use crate::model::aws_profiles::profile_names;
use crate::model::limits;
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
        .and_then(|path| std::fs::read_to_string(path).ok())
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
/// command line.
fn connector(base: GlobalArgs) -> Connector<Engine> {
    Arc::new(move |target: ConnectTarget| {
        let mut global = base.clone();
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
            Ok((Engine::new(&conn), info))
        })
    })
}

/// Opens the explorer on `table`, or on the table picker; `extra_patterns` join the access
/// patterns of the config file and `--patterns`; `live`: with the live pane open.
pub async fn explore(
    global: GlobalArgs,
    settings: Settings,
    table: Option<String>,
    extra_patterns: Vec<AccessPattern>,
    live: bool,
) -> Result<(), CliError> {
    let Settings {
        config,
        mut patterns,
    } = settings;
    let keymap = config
        .keymap()
        .map_err(|e| CliError::bad_input(format!("config file, in [keys]: {e}")))?;
    if !std::io::stdout().is_terminal() {
        return Err(CliError::bad_input(
            "the explorer needs a terminal on stdout; for scripts use the subcommands (dynoscope --help)",
        ));
    }
    patterns.extend(extra_patterns);
    let conn = super::connect(&global).await?;
    // Query history is read once here, for every table and endpoint, and written by the
    // terminal loop after each query; `history = false` does neither.
    let history_file = state_dir()
        .filter(|_| config.history)
        .map(|dir| history_store::history_path(&dir));
    let mut state = State::new(config, keymap, conn.endpoint.clone(), 80, 24);
    state.session = session(&global, &conn);
    state.history = history_file
        .as_deref()
        .map(history_store::load)
        .unwrap_or_default();
    state.patterns = patterns;
    state.open_live = live;
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
        Some(Writer::new(&conn, AuditLog::in_dir(&dir)))
    } else {
        None
    };
    state.writes_enabled = writer.is_some();
    let services = Services {
        history_file,
        connector: Some(connector(global.clone())),
        metrics: Some(metrics_source(&conn)),
    };
    match crate::tui::run(Engine::new(&conn), writer, state, table, services).await {
        Ok(None) => Ok(()),
        // As a shell reports a process a signal killed: 128 + its number.
        Ok(Some(by)) => Err(CliError::new(
            128 + by.number as u8,
            format!("interrupted by {}", by.name),
        )),
        Err(e) => Err(CliError::service(format!("terminal error: {e}"))),
    }
}

/// The metrics pane's batches, on this connection's CloudWatch client (its endpoint from the
/// SDK's configuration, never `--endpoint-url`).
fn metrics_source(conn: &crate::aws::Connection) -> crate::tui::MetricsSource {
    let client = conn.cloudwatch.clone();
    std::sync::Arc::new(move |table: String, gsis: Vec<String>, window| {
        let client = client.clone();
        Box::pin(async move {
            let plan = crate::model::metrics::MetricsPlan::new(&table, &gsis, window);
            crate::aws::cloudwatch::metric_data(&client, &plan)
                .await
                .map(|answered| {
                    crate::model::metrics::report::MetricsReport::build(&plan, &answered)
                })
        })
    })
}
