//! The arguments of the subcommands that set a table up: `seed`, `demo` and
//! `model import`.

use clap::{Args, Subcommand};

use crate::cli::ranges;

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    #[command(after_long_help = super::examples::MODEL_IMPORT)]
    /// Print the config a NoSQL Workbench model implies: [[entity]] key templates from its facets, [[pattern]]s from its access patterns.
    Import {
        /// The model, as NoSQL Workbench exports it (JSON).
        file: std::path::PathBuf,
        /// Also append the printed config to the config file (created if absent).
        #[arg(long)]
        write: bool,
    },
    #[command(after_long_help = super::examples::MODEL_EXPORT)]
    /// Write the single-table design a live table holds, read from a priced sample spread over its key space: a NoSQL Workbench model, a Markdown design document or JSON.
    Export(crate::cli::model_export::ModelExportArgs),
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
    /// Create the table without a stream (no `tail`, `hotkeys --writes` or live pane on it):
    /// DynamoDB Local loads it several times faster.
    #[arg(long, conflicts_with_all = ["model", "churn", "for_duration"])]
    pub no_stream: bool,
}

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Users the demo data set is generated for (each with orders, items and a profile).
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
    /// Start DynamoDB Local on this port (default: a free one); if another program holds it, the demo stops.
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: Option<u16>,
}
