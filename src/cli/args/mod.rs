//! Command-line interface. The headless subcommands are a scripting interface: their flags and
//! output formats are kept stable.

use clap::{Args, Parser, Subcommand};

use super::ranges;

pub(super) mod examples;
mod read;
mod report;
mod setup;

pub use read::{ExportArgs, QueryArgs, ReadArgs, RunArgs, ScanArgs, SortArgs};
pub use report::{HotkeysArgs, HotkeysOutput, MetricsArgs, ReportOutput};
pub use setup::{DemoArgs, ModelCommand, SeedArgs};

#[derive(Debug, Parser)]
#[command(
    name = "dynoscope",
    version,
    about = "A terminal explorer for DynamoDB single-table designs"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Table to open in the explorer (omit for the table picker). With --export: the table whose key schema DescribeTable gives (default: the one the export names).
    #[arg(value_parser = ranges::table_name)]
    pub table: Option<String>,
    /// Open the explorer on an S3 export's items instead of a live table (read-only).
    #[command(flatten)]
    pub export: ExportArgs,
    /// Open TABLE with the live pane (W) already open: its stream's writes as they happen.
    // Not `requires = "table"`: explore::check_live says what to do on an export instead.
    #[arg(long)]
    pub live: bool,
    /// The explorer session's read budget: every read it sends (opening a table, pages,
    /// queries, Ctrl-S key samples, the re-read after a refused write) is admitted against it,
    /// and stops once N read units are consumed (at most one request past it). Before a
    /// subcommand it is refused: give the subcommand its own.
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Rate-limit the explorer session's reads together to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
    /// The explorer session's bulk writes (the B dialog's runs and U's undo of them) spend at
    /// most N write units in all, each item reserved at its worst case before it is sent
    /// (needs --allow-writes). Before a subcommand it is refused: give `partiql` its own.
    #[arg(long, value_name = "N", value_parser = crate::cli::bulk_cmd::write_units)]
    pub max_wcu: Option<f64>,
    /// Rate-limit the explorer session's bulk writes to N write units per second; the bulk
    /// preview's time estimate uses it (needs --allow-writes).
    #[arg(long, value_name = "N", value_parser = crate::cli::bulk_cmd::write_units)]
    pub wcu_per_second: Option<f64>,
}

impl Cli {
    /// Whether this run opens the interactive explorer (no subcommand, or `demo` with its UI).
    pub fn opens_explorer(&self) -> bool {
        match &self.command {
            None => true,
            Some(Command::Demo(args)) => !args.no_ui,
            Some(_) => false,
        }
    }
}

#[derive(Debug, Clone, Args, Default)]
pub struct GlobalArgs {
    /// Named profile from ~/.aws/config (default: AWS_PROFILE or 'default').
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        help_heading = "Global options"
    )]
    pub profile: Option<String>,
    /// AWS region (default: AWS_REGION or the profile's region).
    #[arg(long, global = true, value_name = "NAME", value_parser = ranges::region, help_heading = "Global options")]
    pub region: Option<String>,
    /// DynamoDB endpoint, e.g. http://localhost:8000 for DynamoDB Local.
    #[arg(
        long,
        global = true,
        value_name = "URL",
        help_heading = "Global options"
    )]
    pub endpoint_url: Option<String>,
    /// Seconds one HTTP attempt may take before the SDK retries it.
    #[arg(long, global = true, value_name = "SECS", value_parser = ranges::timeout, help_heading = "Global options")]
    pub timeout: Option<f64>,
    /// Items the explorer keeps at most; past it statistics keep counting but items are not
    /// kept (default: sized to available memory).
    #[arg(long, global = true, value_name = "N", value_parser = ranges::max_items, help_heading = "Global options")]
    pub max_items: Option<usize>,
    /// A file of [[pattern]] access patterns (added to the config file's).
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        help_heading = "Global options"
    )]
    pub patterns: Option<std::path::PathBuf>,
    /// Attempts per request, including the first (the SDK retries throttling and 5xx).
    #[arg(long, global = true, value_name = "N", value_parser = ranges::max_attempts, help_heading = "Global options")]
    pub max_attempts: Option<u32>,
    /// Let the explorer write (edit, create, delete, undo), every write conditional and
    /// audited; without it nothing is written.
    #[arg(long, global = true, help_heading = "Global options")]
    pub allow_writes: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List table names, one per line.
    #[command(after_long_help = examples::TABLES)]
    Tables,
    /// Describe a table as JSON: keys, attribute types, indexes, billing, size, TTL, stream
    /// (--sample adds synthetic-key advice from a key sample).
    #[command(after_long_help = examples::DESCRIBE)]
    Describe {
        /// The table to describe.
        #[arg(value_parser = ranges::table_name)]
        table: String,
        /// Also read a key sample spread over the table (priced and said first) and add
        /// `synthetic_keys`: key values that concatenate attributes the items carry, and the
        /// multi-attribute GSI key that would serve the same patterns without them.
        #[arg(long)]
        sample: bool,
        /// Read units the sample may spend (default 10).
        #[arg(long, value_name = "N", value_parser = ranges::max_rcu, requires = "sample")]
        max_rcu: Option<f64>,
    },
    /// Query an item collection (or an index), streaming items to stdout.
    #[command(after_long_help = examples::QUERY)]
    Query(Box<QueryArgs>),
    /// Scan a table or index, optionally in parallel segments, streaming items to stdout.
    #[command(after_long_help = examples::SCAN)]
    Scan(ScanArgs),
    /// Run a PartiQL SELECT as the Query or Scan it means (scans need --allow-scan; --explain
    /// says what it reads, in every dialect, and sends nothing).
    #[command(after_long_help = examples::PARTIQL)]
    Partiql(Box<super::partiql_cmd::PartiqlArgs>),
    /// Copy a slice of a table (a query, a SELECT, a sample or all of it) into a new table of
    /// the same keys and indexes on a local endpoint, reading under --max-rcu.
    #[command(after_long_help = examples::CLONE)]
    Clone(Box<super::clone_cmd::CloneArgs>),
    /// Undo a bulk UPDATE or DELETE from its journal (conditional; a dry run without --yes).
    #[command(after_long_help = examples::UNDO)]
    Undo(super::undo_cmd::UndoArgs),
    /// Hot-partition triage: scan a table or index and rank its partition keys by items.
    #[command(after_long_help = examples::HOTKEYS)]
    Hotkeys(HotkeysArgs),
    /// CloudWatch metrics of a table and each GSI: capacity, throttles by reason, latency.
    #[command(after_long_help = examples::METRICS)]
    Metrics(MetricsArgs),
    /// Contributor Insights of a table and each GSI: its mode and the top keys (never enables it).
    #[command(after_long_help = examples::INSIGHTS)]
    Insights(MetricsArgs),
    /// A read-only MCP server on stdio for coding agents: every read priced and under one
    /// session budget (--max-rcu), every page bounded, every call logged.
    #[command(after_long_help = examples::MCP)]
    Mcp(super::mcp::McpArgs),
    /// Why the table throttles: metrics, reasons and hot keys as verdicts (exit 3: throttling now).
    #[command(after_long_help = examples::DIAGNOSE)]
    Diagnose(super::diagnose::DiagnoseArgs),
    /// Start an S3 export (billed): prints its aws-cli command and cost; sends it with --yes.
    #[command(after_long_help = examples::EXPORT_START)]
    ExportStart(super::export_start::ExportStartArgs),
    /// Follow a table's changes from its DynamoDB stream, one JSON object per line.
    #[command(after_long_help = examples::TAIL)]
    Tail(super::tail::TailArgs),
    /// Run a named access pattern from the config file or --patterns FILE.
    #[command(after_long_help = examples::RUN)]
    Run(RunArgs),
    /// Check a table against its access patterns: `patterns check TABLE` (exit 3: one failed).
    #[command(subcommand, after_long_help = examples::PATTERNS)]
    Patterns(super::patterns_check::PatternsCommand),
    /// Create and load the demo single-table data set (local endpoints only).
    #[command(after_long_help = examples::SEED)]
    Seed(SeedArgs),
    /// Start DynamoDB Local, load the demo data and open the explorer on it.
    #[command(after_long_help = examples::DEMO)]
    Demo(DemoArgs),
    /// Read a NoSQL Workbench data model: `model import FILE.json [--write]`.
    #[command(subcommand, after_long_help = examples::MODEL)]
    Model(ModelCommand),
    /// Print a shell completion script: `dynoscope completions bash > ~/.local/share/bash-completion/completions/dynoscope`.
    #[command(after_long_help = examples::COMPLETIONS)]
    Completions {
        /// The shell to write the script for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `dynoscope man > dynoscope.1`.
    #[command(after_long_help = examples::MAN)]
    Man,
}

#[cfg(test)]
#[path = "help_tests.rs"]
mod help_tests;
