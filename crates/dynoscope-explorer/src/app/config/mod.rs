//! The user's config file (`$XDG_CONFIG_HOME/dynoscope/config.toml`, or
//! `~/.config/dynoscope/config.toml`):
//!
//! ```toml
//! price_per_million_reads = 0.125    # USD per million read request units (on-demand)
//! price_per_gb_export = 0.10         # USD per GB an S3 export reads (`export-start`)
//! max_items = 2000000                # stop loading after this many items
//! [keys]
//! quit = ["q", "ctrl-q"]
//! [[entity]]
//! table = "app"                      # optional; omitted = every table
//! pattern = "ORDER#{date}#{orderId}"
//! [[pattern]]                        # named access patterns
//! table = "app"
//! name = "orders-by-status"
//! [[relation]]                       # a link between collections (inferred ones need none)
//! from = "ORDER#{date}#{orderId}"
//! to = "ORDER#{orderId}"
//! ```
//!
//! Every mistake is reported on one line naming the file, the line, the key or value at fault
//!
//! Pure: the command line reads the file once (`cli::settings`) and hands its text to [`parse`].

mod messages;
mod parse;
mod relations;
mod writes;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

pub use parse::parse;
pub use writes::WriteConfig;

use crate::app::keymap::{Keymap, KeymapError};
use crate::model::design::entity::{EntityPattern, KindRules};
use crate::model::design::relations::RelationRule;
use crate::model::exports::export_start::DEFAULT_PRICE_PER_GB_EXPORT;
use crate::model::traffic::capacity::DEFAULT_PRICE_PER_MILLION_READS;

/// A config problem, shown as one line: `config file '<path>', line <n>: <what and the fix>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    /// 1-based; `None` when the problem is not on a particular line (the file is unreadable).
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "config file '{}'", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// One `[[entity]]` entry: a key template, for one table or (without `table`) for all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityConfig {
    pub table: Option<String>,
    pub pattern: EntityPattern,
}

/// Scans estimated above this many read units (about $0.0013 on demand) ask first.
pub const DEFAULT_CONFIRM_SCAN_RCU: f64 = 10_000.0;

/// The live pane's tail: the last thousand changes.
pub const DEFAULT_LIVE_TAIL_CHANGES: usize = 1000;

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// USD per million read request units, for cost estimates.
    pub price_per_million_reads: f64,
    /// USD per GB an S3 export reads, for `export-start`'s estimate.
    pub price_per_gb_export: f64,
    /// Stop loading pages once this many items are held.
    pub max_items: Option<usize>,
    /// Scans estimated to read more than this many units ask for confirmation first.
    pub confirm_scan_rcu: f64,
    /// Changes the live pane's tail keeps (it also keeps at most 16 MB of them).
    pub live_tail_changes: usize,
    /// Key overrides by action name, already validated.
    pub keys: BTreeMap<String, Vec<String>>,
    pub entities: Vec<EntityConfig>,
    /// `[[table]] entity_attribute`: table name → the attribute naming its items' kinds.
    pub entity_attributes: BTreeMap<String, String>,
    /// `[[pattern]]` entries, kept raw until named access patterns are implemented.
    pub patterns: Vec<toml::Table>,
    /// `[[relation]]` entries: links between collections that inference does not find.
    pub relations: Vec<RelationRule>,
    /// `infer_relations = false` lists only configured relations and items' own keys.
    pub infer_relations: bool,
    /// `history = false`: query history is neither loaded from nor saved to disk.
    pub history: bool,
    /// `[profile.NAME]`/`[endpoint."URL"]` `allow_writes`, `[[table]]` `version_attribute`.
    pub writes: WriteConfig,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            price_per_million_reads: DEFAULT_PRICE_PER_MILLION_READS,
            price_per_gb_export: DEFAULT_PRICE_PER_GB_EXPORT,
            max_items: None,
            confirm_scan_rcu: DEFAULT_CONFIRM_SCAN_RCU,
            live_tail_changes: DEFAULT_LIVE_TAIL_CHANGES,
            keys: BTreeMap::new(),
            entities: Vec::new(),
            entity_attributes: BTreeMap::new(),
            patterns: Vec::new(),
            relations: Vec::new(),
            infer_relations: true,
            history: true,
            writes: WriteConfig::default(),
        }
    }
}

impl Config {
    /// The configured entity templates that apply to `table`, in file order.
    pub fn entity_patterns_for(&self, table: &str) -> Vec<&EntityPattern> {
        self.entities
            .iter()
            .filter(|e| e.table.as_deref().is_none_or(|t| t == table))
            .map(|e| &e.pattern)
            .collect()
    }

    /// How `table`'s item kinds are decided: its `[[entity]]` templates and entity attribute.
    pub fn kind_rules_for(&self, table: &str) -> KindRules {
        KindRules::new(
            self.entity_patterns_for(table)
                .into_iter()
                .cloned()
                .collect(),
            self.entity_attributes.get(table).cloned(),
        )
    }

    /// The configured relations that apply to `table`, in file order.
    pub fn relations_for(&self, table: &str) -> Vec<&RelationRule> {
        self.relations
            .iter()
            .filter(|r| r.applies_to(table))
            .collect()
    }

    /// The default keymap with this config's `[keys]` applied. [`parse`] has already checked
    /// the overrides, so this fails only for a hand-built `Config`.
    pub fn keymap(&self) -> Result<Keymap, KeymapError> {
        Keymap::default().with_overrides(&self.keys)
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
