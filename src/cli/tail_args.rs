//! `tail`'s arguments and output formats.

use clap::Args;

/// How `tail` writes changes. A change is not an item row (event, keys, two images), so the
/// item formats `csv` and `json` are not offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChangeOutput {
    /// One change per line as plain JSON (exact numbers, base64 binary, sets as arrays).
    Jsonl,
    /// One change per line, its keys and images in DynamoDB JSON.
    #[value(name = "ddb-jsonl")]
    DdbJsonl,
    /// Aligned columns for people; text is sanitised and truncated.
    Table,
}

#[derive(Debug, Clone, Args)]
pub struct TailArgs {
    /// Table whose stream to read (with --export: the export's table, for DescribeTable).
    #[arg(value_parser = super::ranges::table_name, required_unless_present = "export")]
    pub table: Option<String>,
    /// Print an incremental S3 export's changes (in write-time order) instead of a stream's.
    #[command(flatten)]
    pub export: super::args::ExportArgs,
    /// Start this long ago instead of now, e.g. 10m (at most 24h, the stream's retention).
    #[arg(
        long,
        value_name = "DURATION",
        conflicts_with = "trim_horizon",
        help_heading = "Stream"
    )]
    pub since: Option<String>,
    /// Start at the oldest record the stream still holds (up to 24 hours back).
    #[arg(long, help_heading = "Stream")]
    pub trim_horizon: bool,
    /// Only changes to items with this partition key value (text; N as written, B as base64).
    #[arg(long, value_name = "PK", help_heading = "Stream")]
    pub follow_key: Option<String>,
    /// How each change is written: one JSON object a line (plain or DynamoDB JSON), or aligned text.
    #[arg(long, value_enum, default_value = "jsonl", help_heading = "Output")]
    pub output: ChangeOutput,
    /// Stop after this long, e.g. 30s or 5m.
    #[arg(
        long,
        value_name = "DURATION",
        conflicts_with = "count",
        help_heading = "Stream"
    )]
    pub until: Option<String>,
    /// Stop after N changes have been written (after --follow-key).
    #[arg(long, value_name = "N", help_heading = "Stream")]
    pub count: Option<u64>,
    /// Records per GetRecords call (its Limit, 1-1000; default 1000).
    #[arg(long, value_name = "N", help_heading = "Stream")]
    pub page_size: Option<i32>,
    /// Print statistics as one JSON object on the last line of stderr.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
}
