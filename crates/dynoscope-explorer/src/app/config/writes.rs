//! Where writes are allowed and how each table's items are versioned:
//!
//! ```toml
//! [profile.dev]                     # writes on whenever --profile dev (or AWS_PROFILE=dev)
//! allow_writes = true
//! [endpoint."http://localhost:8000"] # writes on for this endpoint
//! allow_writes = true
//! [[table]]
//! name = "app"
//! version_attribute = "version"      # conditions compare it; every write increments it
//! entity_attribute = "kind"          # (not a write setting) the attribute naming item kinds
//! ```

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Config;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteConfig {
    /// Profiles and endpoints with `allow_writes = true`.
    pub profiles: Vec<String>,
    pub endpoints: Vec<String>,
    /// Table name → its version attribute.
    pub version_attributes: BTreeMap<String, String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWriteTarget {
    #[serde(default)]
    allow_writes: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTable {
    name: String,
    version_attribute: Option<String>,
    /// The attribute that names each item's entity kind (see `model::design::entity::KindRules`).
    entity_attribute: Option<String>,
}

/// `[[table]] entity_attribute`: table name → the attribute naming its items' kinds.
pub(super) fn entity_attributes(tables: &[RawTable]) -> BTreeMap<String, String> {
    tables
        .iter()
        .filter_map(|t| Some((t.name.clone(), t.entity_attribute.clone()?)))
        .collect()
}

pub(super) fn write_config(
    profiles: Option<BTreeMap<String, RawWriteTarget>>,
    endpoints: Option<BTreeMap<String, RawWriteTarget>>,
    tables: Vec<RawTable>,
) -> WriteConfig {
    let allowed = |m: Option<BTreeMap<String, RawWriteTarget>>| -> Vec<String> {
        m.unwrap_or_default()
            .into_iter()
            .filter(|(_, t)| t.allow_writes)
            .map(|(name, _)| name)
            .collect()
    };
    WriteConfig {
        profiles: allowed(profiles),
        endpoints: allowed(endpoints),
        version_attributes: tables
            .into_iter()
            .filter_map(|t| Some((t.name, t.version_attribute?)))
            .collect(),
    }
}

/// An endpoint as written and as shown compare equal without a trailing slash.
fn same_endpoint(a: &str, b: &str) -> bool {
    a.trim_end_matches('/')
        .eq_ignore_ascii_case(b.trim_end_matches('/'))
}

impl Config {
    /// Whether the config turns writes on for this profile or endpoint.
    pub fn allows_writes(&self, profile: Option<&str>, endpoint: &str) -> bool {
        let w = &self.writes;
        profile.is_some_and(|p| w.profiles.iter().any(|q| q == p))
            || w.endpoints.iter().any(|e| same_endpoint(e, endpoint))
    }

    pub fn version_attribute(&self, table: &str) -> Option<&str> {
        self.writes
            .version_attributes
            .get(table)
            .map(String::as_str)
    }
}
