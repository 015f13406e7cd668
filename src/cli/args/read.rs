//! The arguments of the subcommands that read items: `query`, `scan`, `run`, and an S3
//! export read in place of the table (`--export`).

use clap::Args;

use crate::cli::output::OutputFormat;
use crate::cli::ranges;

#[derive(Debug, Clone, Args)]
pub struct ReadArgs {
    /// Query a GSI or LSI instead of the table.
    #[arg(
        long,
        visible_alias = "index-name",
        value_name = "NAME",
        help_heading = "Reading"
    )]
    pub index: Option<String>,
    /// Stop after N items in total (across pages and segments).
    #[arg(long, value_name = "N", value_parser = ranges::limit, help_heading = "Reading")]
    pub limit: Option<usize>,
    /// Strongly consistent reads (not available on GSIs).
    #[arg(long, visible_alias = "consistent-read", help_heading = "Reading")]
    pub consistent: bool,
    /// FilterExpression, applied after the read (it does not reduce consumed capacity).
    #[arg(
        long,
        visible_alias = "filter-expression",
        value_name = "EXPR",
        help_heading = "Reading"
    )]
    pub filter: Option<String>,
    /// ProjectionExpression: the attributes to return.
    #[arg(
        long,
        visible_alias = "projection-expression",
        value_name = "EXPR",
        help_heading = "Reading"
    )]
    pub projection: Option<String>,
    /// ExpressionAttributeNames as JSON, e.g. '{"#s":"status"}'.
    #[arg(
        long,
        visible_alias = "expression-attribute-names",
        value_name = "JSON",
        help_heading = "Reading"
    )]
    pub names: Option<String>,
    /// ExpressionAttributeValues as plain JSON, e.g. '{":s":"SHIPPED",":n":5}'.
    #[arg(
        long,
        value_name = "JSON",
        conflicts_with = "expression_attribute_values",
        help_heading = "Reading"
    )]
    pub values: Option<String>,
    /// ExpressionAttributeValues as DynamoDB JSON (the aws-cli spelling), e.g. '{":s":{"S":"SHIPPED"}}'.
    #[arg(long, value_name = "JSON", help_heading = "Reading")]
    pub expression_attribute_values: Option<String>,
    /// How items are written to stdout.
    #[arg(long, value_enum, default_value = "jsonl", help_heading = "Output")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated (default: the key attributes, then every
    /// attribute of the first page).
    #[arg(long, value_name = "A,B,…", value_parser = ranges::columns, help_heading = "Output")]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// DynamoDB's per-request Limit (items evaluated per page).
    #[arg(long, value_name = "N", value_parser = ranges::page_size, help_heading = "Reading")]
    pub page_size: Option<i32>,
    /// Stop cleanly once consumed capacity reaches N read units (at most one page past it),
    /// reporting what was read.
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Rate-limit all segments together to N read units per second, in every second and on
    /// average, so a triage scan cannot starve production traffic.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
}

#[derive(Debug, Clone, Args)]
pub struct QueryArgs {
    /// The table to query.
    #[arg(value_parser = ranges::table_name)]
    pub table: String,
    /// Partition key value (typed by the key's attribute type; binary keys take base64).
    /// Repeat it for an index whose partition key is several attributes: one value each, in
    /// key-schema order (`describe` lists them).
    #[arg(
        long,
        value_name = "VALUE",
        required_unless_present = "key_condition_expression",
        allow_negative_numbers = true,
        help_heading = "Key condition"
    )]
    pub pk: Vec<String>,
    #[command(flatten)]
    pub sort: SortArgs,
    /// Newest first: descending sort-key order (ScanIndexForward=false).
    #[arg(
        long,
        visible_alias = "no-scan-index-forward",
        help_heading = "Reading"
    )]
    pub desc: bool,
    /// Query every write shard: `{shard}` in --pk is replaced by each number of this inclusive
    /// range (e.g. 0..9), in parallel, and the results are merged in sort-key order.
    #[arg(
        long,
        value_name = "FIRST..LAST",
        requires = "pk",
        help_heading = "Key condition"
    )]
    pub pk_shards: Option<String>,
    /// KeyConditionExpression in the aws-cli spelling.
    #[arg(
        long,
        value_name = "EXPR",
        conflicts_with = "pk",
        help_heading = "Key condition"
    )]
    pub key_condition_expression: Option<String>,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// The sort-key condition: `--sk-eq` repeated gives equalities on the first sort attributes in
/// key-schema order, then at most one of the other flags applies to the next one.
#[derive(Debug, Clone, Args, Default)]
pub struct SortArgs {
    /// Sort key equals V (typed by the sort key's attribute type). Repeat it for an index whose
    /// sort key is several attributes: equalities on the first ones, in key-schema order.
    #[arg(
        long,
        value_name = "V",
        allow_negative_numbers = true,
        help_heading = "Key condition"
    )]
    pub sk_eq: Vec<String>,
    /// Sort key less than V (after any --sk-eq: the next sort attribute).
    #[arg(
        long,
        value_name = "V",
        allow_negative_numbers = true,
        group = "sk_range",
        help_heading = "Key condition"
    )]
    pub sk_lt: Option<String>,
    /// Sort key less than or equal to V.
    #[arg(
        long,
        value_name = "V",
        allow_negative_numbers = true,
        group = "sk_range",
        help_heading = "Key condition"
    )]
    pub sk_le: Option<String>,
    /// Sort key greater than V.
    #[arg(
        long,
        value_name = "V",
        allow_negative_numbers = true,
        group = "sk_range",
        help_heading = "Key condition"
    )]
    pub sk_gt: Option<String>,
    /// Sort key greater than or equal to V.
    #[arg(
        long,
        value_name = "V",
        allow_negative_numbers = true,
        group = "sk_range",
        help_heading = "Key condition"
    )]
    pub sk_ge: Option<String>,
    /// Sort key between LOW and HIGH, both included (LOW must sort first).
    #[arg(long, num_args = 2, value_names = ["LOW", "HIGH"], allow_negative_numbers = true, group = "sk_range", help_heading = "Key condition")]
    pub sk_between: Option<Vec<String>>,
    /// Sort key begins with PREFIX (strings and binary only), e.g. ORDER#.
    #[arg(
        long,
        value_name = "PREFIX",
        group = "sk_range",
        help_heading = "Key condition"
    )]
    pub sk_begins: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct ScanArgs {
    /// Table to scan (with --export: the export's table, for DescribeTable).
    #[arg(value_parser = ranges::table_name, required_unless_present = "export")]
    pub table: Option<String>,
    /// Parallel scan segments (1-1000); each runs in its own task. With --export: data files
    /// read in parallel.
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = ranges::segments, help_heading = "Reading")]
    pub segments: u32,
    #[command(flatten)]
    pub export: ExportArgs,
    #[command(flatten)]
    pub read: ReadArgs,
}

/// Reading a DynamoDB S3 export's files instead of the table: no read capacity spent.
#[derive(Debug, Clone, Args, Default)]
pub struct ExportArgs {
    /// Read this S3 export instead of the table: its folder (holding manifest-summary.json),
    /// or a folder above one AWSDynamoDB/<export id>/, on disk or as s3://BUCKET/PREFIX/….
    #[arg(long, value_name = "PATH", help_heading = "Export")]
    pub export: Option<String>,
    /// With --export: the table's key attributes, PK[,SK], when DescribeTable cannot be read (otherwise they are inferred from the items, and said so).
    #[arg(
        long,
        value_name = "PK[,SK]",
        requires = "export",
        help_heading = "Export"
    )]
    pub key: Option<String>,
}

#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The pattern's name.
    pub pattern: String,
    /// A parameter of the pattern, NAME=VALUE (repeatable).
    #[arg(
        long = "param",
        value_name = "NAME=VALUE",
        help_heading = "Key condition"
    )]
    pub params: Vec<String>,
    /// Run against this table instead of the one the pattern names.
    #[arg(long, value_name = "NAME", value_parser = ranges::table_name)]
    pub table: Option<String>,
    /// Stop after N items (overrides the pattern's limit).
    #[arg(long, value_name = "N", value_parser = ranges::limit, help_heading = "Reading")]
    pub limit: Option<usize>,
    /// How items are written to stdout.
    #[arg(long, value_enum, default_value = "jsonl", help_heading = "Output")]
    pub output: OutputFormat,
    /// With --output csv: the columns, comma-separated.
    #[arg(long, value_name = "A,B,…", value_parser = ranges::columns, help_heading = "Output")]
    pub columns: Option<String>,
    /// Print request statistics as one JSON object on the last line of stderr.
    #[arg(long, help_heading = "Output")]
    pub stats: bool,
    /// Stop cleanly once consumed capacity reaches N read units (all shards together; at
    /// most one page past it).
    #[arg(long, value_name = "N", value_parser = ranges::max_rcu, help_heading = "Capacity")]
    pub max_rcu: Option<f64>,
    /// Rate-limit all shards together to N read units per second.
    #[arg(long, value_name = "N", value_parser = ranges::rcu_per_second, help_heading = "Capacity")]
    pub rcu_per_second: Option<f64>,
}
