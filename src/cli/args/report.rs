//! The arguments of the subcommands that report on a table: `hotkeys`, `metrics` and
//! `insights`, and their output formats.

use clap::Args;

use super::ExportArgs;
use crate::cli::ranges;

#[derive(Debug, Clone, Args)]
pub struct HotkeysArgs {
    /// Table to scan (all of it, or the index given with --index).
    #[arg(value_parser = ranges::table_name, required_unless_present = "export")]
    pub table: Option<String>,
    /// Count the partition key of this GSI or LSI instead of the table's. With --export and
    /// no DescribeTable: the index's key attributes, PK[,SK], each side up to four joined by +
    /// (a multi-attribute GSI: 'tournamentId+region,round+bracket').
    #[arg(
        long,
        visible_alias = "index-name",
        value_name = "NAME",
        help_heading = "Reading"
    )]
    pub index: Option<String>,
    #[command(flatten)]
    pub export: ExportArgs,
    /// With --export: print the Athena DDL over the export's S3 data/ prefix and the SQL of
    /// this report (top keys of the table and each GSI) instead of reading the files.
    #[arg(long, requires = "export", help_heading = "Output")]
    pub athena: bool,
    /// Parallel scan segments (1-1000).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = ranges::segments, help_heading = "Reading")]
    pub segments: u32,
    /// Number of keys to list, most items first.
    #[arg(long, default_value_t = 10, value_name = "K", value_parser = ranges::top, help_heading = "Output")]
    pub top: usize,
    /// Distinct partition keys counted exactly; past them memory stays fixed and the report
    /// states its error bounds.
    #[arg(long, default_value_t = 1_000_000, value_name = "N", value_parser = ranges::top, help_heading = "Reading")]
    pub max_exact_keys: usize,
    /// How the report is written: one JSON object, or aligned text for people.
    #[arg(long, value_enum, default_value = "json", help_heading = "Output")]
    pub output: HotkeysOutput,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units (at most one page past it);
    /// the report then covers what was read.
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Rate-limit all segments together to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
    /// Rank keys by the writes the table's stream shows (for --for) instead of by a Scan.
    #[arg(long, help_heading = "Stream")]
    pub writes: bool,
    /// With --writes: how long to count, e.g. 60s or 5m (default 60s).
    #[arg(long = "for", value_name = "DURATION", help_heading = "Stream")]
    pub for_duration: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct MetricsArgs {
    /// The table to report on (its GSIs are reported beside it).
    #[arg(value_parser = ranges::table_name)]
    pub table: String,
    /// How far back to look, e.g. 30m, 3h or 2d (at most 15d).
    #[arg(
        long,
        default_value = "3h",
        value_name = "DURATION",
        help_heading = "Window"
    )]
    pub since: String,
    /// Seconds per datapoint: a whole number of minutes (60, 300, 3600…).
    #[arg(
        long,
        default_value_t = 60,
        value_name = "SECS",
        help_heading = "Window"
    )]
    pub period: u32,
    /// How the report is written: aligned text for people, or one JSON object.
    #[arg(long, value_enum, default_value = "table", help_heading = "Output")]
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
