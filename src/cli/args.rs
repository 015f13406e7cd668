//! Command-line interface. The headless subcommands are a scripting interface: their flags and
//! output formats are kept stable.

use clap::{Args, Parser, Subcommand};

use super::output::OutputFormat;
use super::ranges;

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
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// AWS region (default: AWS_REGION or the profile's region).
    #[arg(long, global = true, value_name = "NAME", value_parser = ranges::region)]
    pub region: Option<String>,
    /// DynamoDB endpoint, e.g. http://localhost:8000 for DynamoDB Local.
    #[arg(long, global = true, value_name = "URL")]
    pub endpoint_url: Option<String>,
    /// Seconds one HTTP attempt may take before the SDK retries it.
    #[arg(long, global = true, value_name = "SECS", value_parser = ranges::timeout)]
    pub timeout: Option<f64>,
    /// Items the explorer keeps at most; past it statistics keep counting but items are not
    /// kept (default: sized to available memory).
    #[arg(long, global = true, value_name = "N", value_parser = ranges::max_items)]
    pub max_items: Option<usize>,
    /// A file of [[pattern]] access patterns (added to the config file's).
    #[arg(long, global = true, value_name = "FILE")]
    pub patterns: Option<std::path::PathBuf>,
    /// Attempts per request, including the first (the SDK retries throttling and 5xx).
    #[arg(long, global = true, value_name = "N", value_parser = ranges::max_attempts)]
    pub max_attempts: Option<u32>,
    /// Let the explorer write (edit, create, delete, undo), every write conditional and
    /// audited; without it nothing is written.
    #[arg(long, global = true)]
    pub allow_writes: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List table names, one per line.
    Tables,
    /// Describe a table as JSON: keys, attribute types, indexes, billing, size, TTL, stream.
    Describe {
        #[arg(value_parser = ranges::table_name)]
        table: String,
    },
    /// Query an item collection (or an index), streaming items to stdout.
    Query(Box<QueryArgs>),
    /// Scan a table or index, optionally in parallel segments, streaming items to stdout.
    Scan(ScanArgs),
    /// Run a PartiQL SELECT as the Query or Scan it means (scans need --allow-scan; --explain
    /// says what it reads, in every dialect, and sends nothing).
    Partiql(Box<super::partiql_cmd::PartiqlArgs>),
    /// Copy a slice of a table (a query, a SELECT, a sample or all of it) into a new table of
    /// the same keys and indexes on a local endpoint, reading under --max-rcu.
    Clone(Box<super::clone_cmd::CloneArgs>),
    /// Undo a bulk UPDATE or DELETE from its journal (conditional; a dry run without --yes).
    Undo(super::undo_cmd::UndoArgs),
    /// Hot-partition triage: scan a table or index and rank its partition keys by items.
    Hotkeys(HotkeysArgs),
    /// CloudWatch metrics of a table and each GSI: capacity, throttles by reason, latency.
    Metrics(MetricsArgs),
    /// Contributor Insights of a table and each GSI: its mode and the top keys (never enables it).
    Insights(MetricsArgs),
    /// A read-only MCP server on stdio for coding agents: every read priced and under one
    /// session budget (--max-rcu), every page bounded, every call logged.
    Mcp(super::mcp::McpArgs),
    /// Why the table throttles: metrics, reasons and hot keys as verdicts (exit 3: throttling now).
    Diagnose(super::diagnose::DiagnoseArgs),
    /// Start an S3 export (billed): prints its aws-cli command and cost; sends it with --yes.
    ExportStart(super::export_start::ExportStartArgs),
    /// Follow a table's changes from its DynamoDB stream, one JSON object per line.
    Tail(super::tail::TailArgs),
    /// Run a named access pattern from the config file or --patterns FILE.
    Run(RunArgs),
    /// Check a table against its access patterns: `patterns check TABLE` (exit 3: one failed).
    #[command(subcommand)]
    Patterns(super::patterns_check::PatternsCommand),
    /// Create and load the demo single-table data set (local endpoints only).
    Seed(SeedArgs),
    /// Start DynamoDB Local, load the demo data and open the explorer on it.
    Demo(DemoArgs),
    /// Read a NoSQL Workbench data model: `model import FILE.json [--write]`.
    #[command(subcommand)]
    Model(ModelCommand),
    /// Print a shell completion script: `dynoscope completions bash > ~/.local/share/bash-completion/completions/dynoscope`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `dynoscope man > dynoscope.1`.
    Man,
}

#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// Query a GSI or LSI instead of the table.
    #[arg(long, visible_alias = "index-name", value_name = "NAME")]
    pub index: Option<String>,
    /// Stop after N items in total (across pages and segments).
    #[arg(long, value_name = "N", value_parser = ranges::limit)]
    pub limit: Option<usize>,
    /// Strongly consistent reads (not available on GSIs).
    #[arg(long, visible_alias = "consistent-read")]
    pub consistent: bool,
    /// FilterExpression, applied after the read (it does not reduce consumed capacity).
    #[arg(long, visible_alias = "filter-expression", value_name = "EXPR")]
    pub filter: Option<String>,
    /// ProjectionExpression: the attributes to return.
    #[arg(long, visible_alias = "projection-expression", value_name = "EXPR")]
    pub projection: Option<String>,
    /// ExpressionAttributeNames as JSON, e.g. '{"#s":"status"}'.
    #[arg(
        long,
        visible_alias = "expression-attribute-names",
        value_name = "JSON"
    )]
    pub names: Option<String>,
    /// ExpressionAttributeValues as plain JSON, e.g. '{":s":"SHIPPED",":n":5}'.
    #[arg(
        long,
        value_name = "JSON",
        conflicts_with = "expression_attribute_values"
    )]
    pub values: Option<String>,
    /// ExpressionAttributeValues as DynamoDB JSON (the aws-cli spelling), e.g. '{":s":{"S":"SHIPPED"}}'.
    #[arg(long, value_name = "JSON")]
    pub expression_attribute_values: Option<String>,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated (default: the key attributes, then every
    /// attribute of the first page).
    #[arg(long, value_name = "A,B,…", value_parser = ranges::columns)]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long)]
    pub stats: bool,
    /// DynamoDB's per-request Limit (items evaluated per page).
    #[arg(long, value_name = "N", value_parser = ranges::page_size)]
    pub page_size: Option<i32>,
    /// Stop cleanly once consumed capacity reaches N read units (at most one page past it),
    /// reporting what was read.
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Rate-limit all segments together to N read units per second, in every second and on
    /// average, so a triage scan cannot starve production traffic.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
}

#[derive(Debug, Clone, Args)]
pub struct QueryArgs {
    #[arg(value_parser = ranges::table_name)]
    pub table: String,
    /// Partition key value (typed by the key's attribute type; binary keys take base64).
    #[arg(
        long,
        value_name = "VALUE",
        required_unless_present = "key_condition_expression",
        allow_negative_numbers = true
    )]
    pub pk: Option<String>,
    #[command(flatten)]
    pub sort: SortArgs,
    /// Newest first: descending sort-key order (ScanIndexForward=false).
    #[arg(long, visible_alias = "no-scan-index-forward")]
    pub desc: bool,
    /// Query every write shard: `{shard}` in --pk is replaced by each number of this inclusive
    /// range (e.g. 0..9), in parallel, and the results are merged in sort-key order.
    #[arg(long, value_name = "FIRST..LAST", requires = "pk")]
    pub pk_shards: Option<String>,
    /// KeyConditionExpression in the aws-cli spelling.
    #[arg(long, value_name = "EXPR", conflicts_with = "pk")]
    pub key_condition_expression: Option<String>,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Debug, Clone, Args, Default)]
#[group(multiple = false)]
pub struct SortArgs {
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub sk_eq: Option<String>,
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub sk_lt: Option<String>,
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub sk_le: Option<String>,
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub sk_gt: Option<String>,
    #[arg(long, value_name = "V", allow_negative_numbers = true)]
    pub sk_ge: Option<String>,
    #[arg(long, num_args = 2, value_names = ["LOW", "HIGH"], allow_negative_numbers = true)]
    pub sk_between: Option<Vec<String>>,
    #[arg(long, value_name = "PREFIX")]
    pub sk_begins: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ScanArgs {
    /// Table to scan (with --export: the export's table, for DescribeTable).
    #[arg(value_parser = ranges::table_name, required_unless_present = "export")]
    pub table: Option<String>,
    /// Parallel scan segments (1-1000); each runs in its own task. With --export: data files
    /// read in parallel.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = ranges::segments)]
    pub segments: u32,
    #[command(flatten)]
    pub export: ExportArgs,
    #[command(flatten)]
    pub read: ReadArgs,
}

#[derive(Debug, Clone, Args)]
pub struct HotkeysArgs {
    /// Table to scan (all of it, or the index given with --index).
    #[arg(value_parser = ranges::table_name, required_unless_present = "export")]
    pub table: Option<String>,
    /// Count the partition key of this GSI or LSI instead of the table's. With --export and
    /// no DescribeTable: the index's key attributes, PK[,SK].
    #[arg(long, visible_alias = "index-name", value_name = "NAME")]
    pub index: Option<String>,
    #[command(flatten)]
    pub export: ExportArgs,
    /// With --export: print the Athena DDL over the export's S3 data/ prefix and the SQL of
    /// this report (top keys of the table and each GSI) instead of reading the files.
    #[arg(long, requires = "export")]
    pub athena: bool,
    /// Parallel scan segments (1-1000).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = ranges::segments)]
    pub segments: u32,
    /// Number of keys to list, most items first.
    #[arg(long, default_value_t = 10, value_name = "K", value_parser = ranges::top)]
    pub top: usize,
    /// Distinct partition keys counted exactly; past them memory stays fixed and the report
    /// states its error bounds.
    #[arg(long, default_value_t = 1_000_000, value_name = "N", value_parser = ranges::top)]
    pub max_exact_keys: usize,
    #[arg(long, value_enum, default_value = "json")]
    pub output: HotkeysOutput,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long)]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units (at most one page past it);
    /// the report then covers what was read.
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Rate-limit all segments together to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
    /// Rank keys by the writes the table's stream shows (for --for) instead of by a Scan.
    #[arg(long)]
    pub writes: bool,
    /// With --writes: how long to count, e.g. 60s or 5m (default 60s).
    #[arg(long = "for", value_name = "DURATION")]
    pub for_duration: Option<String>,
}

/// Reading a DynamoDB S3 export's files instead of the table: no read capacity spent.
#[derive(Debug, Clone, Args, Default)]
pub struct ExportArgs {
    /// Read this S3 export instead of the table: its folder (holding manifest-summary.json),
    /// or a folder above one AWSDynamoDB/<export id>/, on disk or as s3://BUCKET/PREFIX/….
    #[arg(long, value_name = "PATH")]
    pub export: Option<String>,
    /// With --export: the table's key attributes, PK[,SK], when DescribeTable cannot be read (otherwise they are inferred from the items, and said so).
    #[arg(long, value_name = "PK[,SK]", requires = "export")]
    pub key: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct MetricsArgs {
    #[arg(value_parser = ranges::table_name)]
    pub table: String,
    /// How far back to look, e.g. 30m, 3h or 2d (at most 15d).
    #[arg(long, default_value = "3h", value_name = "DURATION")]
    pub since: String,
    /// Seconds per datapoint: a whole number of minutes (60, 300, 3600…).
    #[arg(long, default_value_t = 60, value_name = "SECS")]
    pub period: u32,
    #[arg(long, value_enum, default_value = "table")]
    pub output: ReportOutput,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportOutput {
    /// One JSON object.
    Json,
    /// Lines for people.
    Table,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HotkeysOutput {
    /// One JSON object.
    Json,
    /// Aligned columns, a histogram and the warnings, for people.
    Table,
}

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Print the config a NoSQL Workbench model implies: [[entity]] key templates from its facets, [[pattern]]s from its access patterns.
    Import {
        /// The model, as NoSQL Workbench exports it (JSON).
        file: std::path::PathBuf,
        /// Also append the printed config to the config file (created if absent).
        #[arg(long)]
        write: bool,
    },
}

#[derive(Debug, Clone, Args)]
pub struct SeedArgs {
    /// Table to create and load.
    #[arg(long, default_value = "app", value_name = "NAME", value_parser = ranges::table_name)]
    pub table: String,
    /// Number of ordinary users to generate.
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = ranges::users)]
    pub users: u32,
    /// Instead of the demo data: create the tables of this NoSQL Workbench model (keys, GSIs,
    /// on demand) and load their TableData.
    #[arg(long, value_name = "FILE.json", conflicts_with_all = ["table", "users", "churn", "for_duration"])]
    pub model: Option<std::path::PathBuf>,
    /// Instead of only loading: write RATE changes a second to the table (loaded first if it
    /// is missing), over many keys plus a hot tenant and the sharded status key.
    #[arg(long, value_name = "RATE")]
    pub churn: Option<f64>,
    /// With --churn: stop after this long, e.g. 30s (default: until Ctrl-C).
    #[arg(long = "for", value_name = "DURATION")]
    pub for_duration: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = ranges::users)]
    pub users: u32,
    /// Load the data and print the endpoint, without opening the explorer (keeps running until Ctrl-C).
    #[arg(long)]
    pub no_ui: bool,
    /// Also write RATE changes a second to the demo table in the background (see seed --churn).
    #[arg(long, value_name = "RATE")]
    pub churn: Option<f64>,
    /// Open the demo table with the live pane (W) already open.
    #[arg(long, conflicts_with = "no_ui")]
    pub live: bool,
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The pattern's name.
    pub pattern: String,
    /// A parameter of the pattern, NAME=VALUE (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Run against this table instead of the one the pattern names.
    #[arg(long, value_name = "NAME", value_parser = ranges::table_name)]
    pub table: Option<String>,
    /// Stop after N items (overrides the pattern's limit).
    #[arg(long, value_name = "N", value_parser = ranges::limit)]
    pub limit: Option<usize>,
    #[arg(long, value_enum, default_value = "jsonl")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated.
    #[arg(long, value_name = "A,B,…", value_parser = ranges::columns)]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long)]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units (all shards together; at
    /// most one page past it).
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu)]
    pub max_rcu: Option<f64>,
    /// Rate-limit all shards together to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second)]
    pub rcu_per_second: Option<f64>,
}
