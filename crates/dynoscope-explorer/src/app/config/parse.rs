//! Config text to a checked `Config`: every value in its range, every key override valid.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::Path;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::messages::{describe_pattern_error, describe_toml_error, line_of, source_text};
use super::relations::{relation_rules, RawRelation};
use super::{Config, ConfigError, EntityConfig};
use crate::app::keymap::{Action, KeyCombo, Keymap, KeymapError};
use crate::model::design::entity::EntityPattern;
use crate::model::exports::export_start::DEFAULT_PRICE_PER_GB_EXPORT;
use crate::model::input::limits::{self, RealRange};
use crate::model::traffic::capacity::DEFAULT_PRICE_PER_MILLION_READS;

/// The keys of an `[[entity]]` table, to tell its "unknown key" errors from top-level ones.
pub(super) const ENTITY_KEYS: [&str; 2] = ["table", "pattern"];

/// Parses and validates config text; `path_for_messages` only names the file in errors.
pub fn parse(text: &str, path_for_messages: &Path) -> Result<Config, ConfigError> {
    let error = |span: Option<Range<usize>>, message: String| ConfigError {
        path: path_for_messages.to_owned(),
        line: span.map(|s| line_of(text, s.start)),
        message,
    };
    let raw: RawConfig =
        toml::from_str(text).map_err(|err| error(err.span(), describe_toml_error(&err, text)))?;
    let mut config = Config::default();

    // Each number must be in its range (see model::input::limits): the message quotes the value as
    // written and gives the range.
    let real = |value: &Spanned<toml::Value>, name: &str, range: RealRange, hint: &str| {
        let number = match value.get_ref() {
            toml::Value::Float(f) => Some(*f),
            toml::Value::Integer(i) => Some(*i as f64),
            _ => None,
        };
        number.filter(|v| range.contains(*v)).ok_or_else(|| {
            error(
                Some(value.span()),
                format!(
                    "{name} must be a number, {}, got {}{hint}",
                    range.describe(),
                    source_text(text, value.span())
                ),
            )
        })
    };
    if let Some(price) = &raw.price_per_million_reads {
        config.price_per_million_reads = real(
            price,
            "price_per_million_reads",
            limits::PRICE_PER_MILLION_READS,
            &format!(
                "; on-demand reads cost {DEFAULT_PRICE_PER_MILLION_READS} USD per million in us-east-1"
            ),
        )?;
    }
    if let Some(price) = &raw.price_per_gb_export {
        config.price_per_gb_export = real(
            price,
            "price_per_gb_export",
            limits::PRICE_PER_GB_EXPORT,
            &format!("; an export costs {DEFAULT_PRICE_PER_GB_EXPORT:.2} USD per GB in us-east-1"),
        )?;
    }
    if let Some(limit) = &raw.confirm_scan_rcu {
        config.confirm_scan_rcu = real(
            limit,
            "confirm_scan_rcu",
            limits::CONFIRM_SCAN_RCU,
            " (0 asks every time)",
        )?;
    }
    if let Some(max) = raw.max_items {
        let value = match max.get_ref() {
            toml::Value::Integer(i) => u64::try_from(*i)
                .ok()
                .filter(|n| limits::MAX_ITEMS.contains(*n))
                .and_then(|n| usize::try_from(n).ok()),
            _ => None,
        };
        config.max_items = Some(value.ok_or_else(|| {
            error(
                Some(max.span()),
                format!(
                    "max_items must be a whole number, {}, got {}; \
                     remove it to size the limit to the memory available",
                    limits::MAX_ITEMS.describe(),
                    source_text(text, max.span())
                ),
            )
        })?);
    }

    if let Some(n) = &raw.live_tail_changes {
        let value = match n.get_ref() {
            toml::Value::Integer(i) => u64::try_from(*i)
                .ok()
                .filter(|n| limits::LIVE_TAIL_CHANGES.contains(*n)),
            _ => None,
        };
        config.live_tail_changes = value.ok_or_else(|| {
            error(
                Some(n.span()),
                format!(
                    "live_tail_changes must be a whole number, {}, got {}",
                    limits::LIVE_TAIL_CHANGES.describe(),
                    source_text(text, n.span())
                ),
            )
        })? as usize;
    }

    if let Some(keys) = &raw.keys {
        config.keys = check_keys(keys.get_ref(), text, &error)?;
    }

    for entity in raw.entity {
        let template = entity.pattern.get_ref();
        let pattern = EntityPattern::parse(template)
            .map_err(|err| error(Some(entity.pattern.span()), describe_pattern_error(&err)))?;
        config.entities.push(EntityConfig {
            table: entity.table,
            pattern,
        });
    }

    config.relations = relation_rules(raw.relation, &error)?;
    config.infer_relations = raw.infer_relations.unwrap_or(true);
    config.history = raw.history.unwrap_or(true);
    config.patterns = raw.pattern;
    config.entity_attributes = super::writes::entity_attributes(&raw.table);
    config.writes = super::writes::write_config(raw.profile, raw.endpoint, raw.table);
    Ok(config)
}

type KeysTable = BTreeMap<Spanned<String>, Spanned<RawKeys>>;

// Checks each `[keys]` entry on its own (so the error points at the entry), then the overrides
// together (two actions claiming one key).
fn check_keys(
    keys: &KeysTable,
    text: &str,
    error: &dyn Fn(Option<Range<usize>>, String) -> ConfigError,
) -> Result<BTreeMap<String, Vec<String>>, ConfigError> {
    let mut overrides = BTreeMap::new();
    let mut spans: Vec<(String, Range<usize>, KeyCombo)> = Vec::new();
    for (name, value) in keys {
        let action = Action::from_name(name.get_ref()).ok_or_else(|| {
            error(
                Some(name.span()),
                format!(
                    "unknown action '{}' in [keys]; actions are {}",
                    name.get_ref(),
                    Action::names_list()
                ),
            )
        })?;
        let entries: Vec<(String, Range<usize>)> = match value.get_ref() {
            RawKeys::One(key) => vec![(key.clone(), value.span())],
            RawKeys::Many(list) => list
                .iter()
                .map(|item| match item.get_ref() {
                    toml::Value::String(s) => Ok((s.clone(), item.span())),
                    _ => Err(error(
                        Some(item.span()),
                        format!(
                            "keys for action '{action}' must be strings like \"q\" or \
                             \"ctrl-c\", got {}",
                            source_text(text, item.span())
                        ),
                    )),
                })
                .collect::<Result<_, _>>()?,
        };
        for (key, span) in &entries {
            let combo = KeyCombo::parse(key).map_err(|_| {
                let bad = KeymapError::BadKey {
                    action: action.name().to_owned(),
                    key: key.clone(),
                };
                error(Some(span.clone()), bad.to_string())
            })?;
            spans.push((action.name().to_owned(), span.clone(), combo));
        }
        overrides.insert(
            action.name().to_owned(),
            entries.into_iter().map(|(key, _)| key).collect(),
        );
    }
    match Keymap::default().with_overrides(&overrides) {
        Ok(_) => Ok(overrides),
        Err(err) => {
            let span = match &err {
                KeymapError::Conflict { key, second, .. } => spans
                    .iter()
                    .find(|(action, _, combo)| action == second && combo.to_string() == *key)
                    .map(|(_, span, _)| span.clone()),
                _ => None,
            };
            Err(error(span, format!("in [keys]: {err}")))
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    price_per_million_reads: Option<Spanned<toml::Value>>,
    price_per_gb_export: Option<Spanned<toml::Value>>,
    max_items: Option<Spanned<toml::Value>>,
    confirm_scan_rcu: Option<Spanned<toml::Value>>,
    live_tail_changes: Option<Spanned<toml::Value>>,
    keys: Option<Spanned<KeysTable>>,
    #[serde(default)]
    entity: Vec<RawEntity>,
    #[serde(default)]
    pattern: Vec<toml::Table>,
    #[serde(default)]
    relation: Vec<Spanned<RawRelation>>,
    infer_relations: Option<bool>,
    history: Option<bool>,
    profile: Option<BTreeMap<String, super::writes::RawWriteTarget>>,
    endpoint: Option<BTreeMap<String, super::writes::RawWriteTarget>>,
    #[serde(default)]
    table: Vec<super::writes::RawTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntity {
    table: Option<String>,
    pattern: Spanned<String>,
}

/// An action's keys: a list, or a single key string.
enum RawKeys {
    One(String),
    Many(Vec<Spanned<toml::Value>>),
}

impl<'de> Deserialize<'de> for RawKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawKeys, D::Error> {
        struct KeysVisitor;

        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = RawKeys;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a list of keys like [\"q\", \"ctrl-c\"]")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawKeys, E> {
                Ok(RawKeys::One(v.to_owned()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some(key) = seq.next_element()? {
                    keys.push(key);
                }
                Ok(RawKeys::Many(keys))
            }
        }

        deserializer.deserialize_any(KeysVisitor)
    }
}
