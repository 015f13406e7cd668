//! The user's config file, `$XDG_CONFIG_HOME/dynoscope/config.toml` (or
//! `~/.config/dynoscope/config.toml`):
//!
//! ```toml
//! price_per_million_reads = 0.125    # USD per million read request units (on-demand)
//! max_items = 2000000                # stop loading after this many items
//! [keys]
//! quit = ["q", "ctrl-q"]
//! [[entity]]
//! table = "app"                      # optional; omitted = every table
//! pattern = "ORDER#{date}#{orderId}"
//! [[pattern]]                        # named access patterns
//! table = "app"
//! name = "orders-by-status"
//! ```
//!
//! Every mistake is reported on one line naming the file, the line, the key or value at fault
//! and how to fix it, because the message is printed before the terminal UI starts.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use crate::app::keymap::{Action, KeyCombo, Keymap, KeymapError};
use crate::model::capacity::DEFAULT_PRICE_PER_MILLION_READS;
use crate::model::entity::{EntityPattern, PatternError};
use crate::model::limits::{self, RealRange};

/// The keys of an `[[entity]]` table, to tell its "unknown key" errors from top-level ones.
const ENTITY_KEYS: [&str; 2] = ["table", "pattern"];

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

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// USD per million read request units, for cost estimates.
    pub price_per_million_reads: f64,
    /// Stop loading pages once this many items are held.
    pub max_items: Option<usize>,
    /// Scans estimated to read more than this many units ask for confirmation first.
    pub confirm_scan_rcu: f64,
    /// Key overrides by action name, already validated.
    pub keys: BTreeMap<String, Vec<String>>,
    pub entities: Vec<EntityConfig>,
    /// `[[pattern]]` entries, kept raw until named access patterns are implemented.
    pub patterns: Vec<toml::Table>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            price_per_million_reads: DEFAULT_PRICE_PER_MILLION_READS,
            max_items: None,
            confirm_scan_rcu: DEFAULT_CONFIRM_SCAN_RCU,
            keys: BTreeMap::new(),
            entities: Vec::new(),
            patterns: Vec::new(),
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

    /// The default keymap with this config's `[keys]` applied. [`parse`] has already checked
    /// the overrides, so this fails only for a hand-built `Config`.
    pub fn keymap(&self) -> Result<Keymap, ConfigError> {
        Keymap::default()
            .with_overrides(&self.keys)
            .map_err(|err| ConfigError {
                path: default_path().unwrap_or_else(|| PathBuf::from("config.toml")),
                line: None,
                message: format!("in [keys]: {err}"),
            })
    }
}

/// `$XDG_CONFIG_HOME/dynoscope/config.toml`, else `$HOME/.config/dynoscope/config.toml`.
pub fn default_path() -> Option<PathBuf> {
    default_path_from(
        std::env::var_os("XDG_CONFIG_HOME"),
        std::env::var_os("HOME"),
    )
}

fn default_path_from(
    xdg_config_home: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    // The XDG spec says to ignore a relative XDG_CONFIG_HOME.
    let base = xdg_config_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home.filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".config"))
        })?;
    Some(base.join("dynoscope").join("config.toml"))
}

/// Reads the config at the default path; no file there (or no home directory) means defaults.
pub fn load_default() -> Result<Config, ConfigError> {
    match default_path() {
        Some(path) => load_or_default(&path),
        None => Ok(Config::default()),
    }
}

fn load_or_default(path: &Path) -> Result<Config, ConfigError> {
    match std::fs::metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        _ => load(path),
    }
}

/// Reads the config file at `path`; a missing file is an error here.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|err| ConfigError {
        path: path.to_owned(),
        line: None,
        message: format!("cannot read it: {err}"),
    })?;
    parse(&text, path)
}

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

    // Each number must be in its range (see model::limits): the message quotes the value as
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

    config.patterns = raw.pattern;
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

fn describe_pattern_error(err: &PatternError) -> String {
    match err {
        PatternError::UnbalancedBraces { template } => {
            let mut open = false;
            let mut problem = None;
            for c in template.chars() {
                match (c, open) {
                    ('{', false) => open = true,
                    ('}', true) => open = false,
                    ('{', true) => {
                        problem = Some("has a '{' inside another '{…}'; placeholders cannot nest");
                        break;
                    }
                    ('}', false) => {
                        problem = Some("has a '}' with no matching '{'");
                        break;
                    }
                    _ => {}
                }
            }
            let problem = problem.unwrap_or("has an unclosed '{'; close each placeholder with '}'");
            format!("entity pattern '{template}' {problem}")
        }
        PatternError::MissingKind { template } => format!(
            "entity pattern '{template}' must start with a literal kind, as in 'USER#{{id}}'"
        ),
        PatternError::EmptyPlaceholder { template } => format!(
            "entity pattern '{template}' has an empty '{{}}' placeholder; name it, as in '{{id}}'"
        ),
        PatternError::DuplicatePlaceholder { template, name } => format!(
            "entity pattern '{template}' names '{{{name}}}' twice; give each placeholder its own name"
        ),
        PatternError::PartialPlaceholder { template, segment } => format!(
            "entity pattern '{template}': segment '{segment}' mixes text and a placeholder; \
             a placeholder must be a whole segment, as in 'ORDER#{{id}}'"
        ),
    }
}

// Rewrites serde's wording (`unknown field \`x\`, expected one of \`a\`, \`b\``) in the
// config file's terms and squeezes toml's multi-line messages onto one line.
fn describe_toml_error(err: &toml::de::Error, text: &str) -> String {
    let message = one_line(err.message());
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((field, expected)) = rest.split_once('`') {
            let expected: Vec<&str> = expected
                .trim_start_matches(',')
                .trim()
                .trim_start_matches("expected")
                .trim()
                .trim_start_matches("one of")
                .split([',', ' '])
                .filter(|s| !s.is_empty() && *s != "or")
                .map(|s| s.trim_matches('`'))
                .collect();
            let section = if expected == ENTITY_KEYS {
                " in [[entity]]"
            } else {
                ""
            };
            let expected = expected.join(", ");
            return format!("unknown key '{field}'{section}; expected one of {expected}");
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let field = rest.split('`').next().unwrap_or_default();
        return format!("[[entity]] is missing '{field}'; add {field} = \"...\"");
    }
    let message = if message.starts_with("duplicate key") {
        format!("{message}; keep only one")
    } else {
        message
    };
    match err.span() {
        Some(span) => {
            let context = line_text(text, span.start);
            // `invalid type: integer \`5\`, expected a string` names neither key nor fix.
            if let Some((got, expected)) = message
                .strip_prefix("invalid type: ")
                .and_then(|rest| rest.split_once(", expected "))
            {
                if let Some((key, _)) = context.split_once('=') {
                    return format!("{} must be {expected}, got {got}", key.trim());
                }
            }
            if context.is_empty() {
                message
            } else {
                format!("{message} (in '{context}')")
            }
        }
        None => message,
    }
}

fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

// The trimmed source line holding `offset`, shortened for a one-line message.
fn line_text(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    shorten(text[start..end].trim())
}

// What the user wrote at `span`, on one line and shortened.
fn source_text(text: &str, span: Range<usize>) -> String {
    let raw = text.get(span).unwrap_or_default();
    shorten(&raw.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(MAX - 1).collect();
        format!("{cut}…")
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    price_per_million_reads: Option<Spanned<toml::Value>>,
    max_items: Option<Spanned<toml::Value>>,
    confirm_scan_rcu: Option<Spanned<toml::Value>>,
    keys: Option<Spanned<KeysTable>>,
    #[serde(default)]
    entity: Vec<RawEntity>,
    #[serde(default)]
    pattern: Vec<toml::Table>,
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

#[cfg(test)]
mod tests {
    use super::*;

    const PATH: &str = "/home/u/.config/dynoscope/config.toml";

    fn parse_ok(text: &str) -> Config {
        parse(text, Path::new(PATH)).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_a_good_config() {
        let text = r#"
price_per_million_reads = 0.25    # USD per million read request units (on-demand)
max_items = 2000000
[keys]
quit = ["q", "ctrl-q"]
copy = "c"
[[entity]]
table = "app"
pattern = "ORDER#{date}#{orderId}"
[[entity]]
pattern = "USER#{id}"
[[pattern]]
table = "app"
name = "orders-by-status"
index = "GSI1"
"#;
        let config = parse_ok(text);
        assert_eq!(config.price_per_million_reads, 0.25);
        assert_eq!(config.max_items, Some(2_000_000));
        let want_keys: BTreeMap<String, Vec<String>> = [
            ("copy".to_owned(), vec!["c".to_owned()]),
            ("quit".to_owned(), vec!["q".to_owned(), "ctrl-q".to_owned()]),
        ]
        .into();
        assert_eq!(config.keys, want_keys);
        assert_eq!(
            config.entities,
            vec![
                EntityConfig {
                    table: Some("app".into()),
                    pattern: EntityPattern::parse("ORDER#{date}#{orderId}").unwrap(),
                },
                EntityConfig {
                    table: None,
                    pattern: EntityPattern::parse("USER#{id}").unwrap(),
                },
            ]
        );
        assert_eq!(config.patterns.len(), 1);
        assert_eq!(
            config.patterns[0].get("name").and_then(|v| v.as_str()),
            Some("orders-by-status")
        );
        let kinds = |table: &str| -> Vec<String> {
            config
                .entity_patterns_for(table)
                .iter()
                .map(|p| p.kind().to_owned())
                .collect()
        };
        assert_eq!(kinds("app"), ["ORDER", "USER"]);
        assert_eq!(kinds("other"), ["USER"]);

        // An integer price is accepted too, and the empty file is the defaults.
        assert_eq!(
            parse_ok("price_per_million_reads = 1").price_per_million_reads,
            1.0
        );
        assert_eq!(parse_ok(""), Config::default());
        assert_eq!(
            Config::default().price_per_million_reads,
            DEFAULT_PRICE_PER_MILLION_READS
        );
    }

    #[test]
    fn module_doc_example_parses() {
        let doc: String = include_str!("config.rs")
            .lines()
            .skip_while(|l| !l.starts_with("//! ```toml"))
            .skip(1)
            .take_while(|l| !l.starts_with("//! ```"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        let config = parse_ok(&doc);
        assert_eq!(config.price_per_million_reads, 0.125);
        assert_eq!(config.entities.len(), 1);
        assert_eq!(config.patterns.len(), 1);
    }

    #[test]
    fn bad_configs_name_file_line_and_culprit() {
        // (config text, line, fragments the one-line message must contain)
        let cases: &[(&str, usize, &[&str])] = &[
            (
                "max_items = 5\n\ncolour = \"red\"\n",
                3,
                &[
                    "unknown key 'colour'",
                    "expected one of price_per_million_reads, max_items, confirm_scan_rcu, keys, entity, pattern",
                ],
            ),
            (
                "[colour]\nx = 1\n",
                1,
                &["unknown key 'colour'", "expected one of"],
            ),
            (
                "\nprice_per_million_reads = -1\n",
                2,
                &["price_per_million_reads must be a number, more than 0, up to 1000 USD, got -1"],
            ),
            (
                "price_per_million_reads = \"cheap\"\n",
                1,
                &["price_per_million_reads", "got \"cheap\""],
            ),
            ("price_per_million_reads = 0\n", 1, &["more than 0", "got 0"]),
            ("price_per_million_reads = 1e300\n", 1, &["up to 1000 USD", "got 1e300"]),
            ("confirm_scan_rcu = -1\n", 1, &["0 to 1000000000000 read units", "got -1"]),
            ("confirm_scan_rcu = nan\n", 1, &["confirm_scan_rcu", "got nan"]),
            ("max_items = 99999999999\n", 1, &["1 to 1000000000 items", "got 99999999999"]),
            (
                "max_items = -5\n",
                1,
                &["max_items must be a whole number, 1 to 1000000000 items, got -5"],
            ),
            ("max_items = 1.5\n", 1, &["max_items", "got 1.5"]),
            (
                "[keys]\nquit = [\"q\"]\n\n\njump = [\"x\"]\n",
                5,
                &[
                    "unknown action 'jump' in [keys]",
                    "actions are quit, help, up",
                    "tables",
                ],
            ),
            (
                "# keys\n\n\n\n\n[keys]\nquit = [\"q\", \"ctrl-\"]\n",
                7,
                &[
                    "bad key 'ctrl-' for action 'quit'",
                    "write keys like 'q', 'ctrl-c', 'pagedown'",
                ],
            ),
            (
                "[keys]\nquit = [\n  \"q\",\n  \"hyper-q\",\n]\n",
                4,
                &["bad key 'hyper-q' for action 'quit'"],
            ),
            (
                "[keys]\nquit = [\"q\", 5]\n",
                2,
                &["keys for action 'quit' must be strings", "got 5"],
            ),
            (
                "[keys]\nquit = 5\n",
                2,
                &["quit must be a list of keys like [\"q\", \"ctrl-c\"], got integer `5`"],
            ),
            (
                "[keys]\ncopy = [\"x\"]\nquit = [\"q\", \"x\"]\n",
                3,
                &["key 'x' is bound to both 'copy' and 'quit'"],
            ),
            (
                "[[entity]]\ntable = \"app\"\n\n\n\n\n\n\npattern = \"ORDER#{date\"\n",
                9,
                &["entity pattern 'ORDER#{date' has an unclosed '{'"],
            ),
            (
                "[[entity]]\npattern = \"{tenant}#USER\"\n",
                2,
                &["entity pattern '{tenant}#USER'", "literal kind"],
            ),
            (
                "[[entity]]\npattern = \"ORDER#{id}#{id}\"\n",
                2,
                &["'{id}' twice"],
            ),
            (
                "[[entity]]\npattern = \"USER#{id}\"\ntabel = \"app\"\n",
                3,
                &[
                    "unknown key 'tabel' in [[entity]]",
                    "expected one of table, pattern",
                ],
            ),
            ("\n[[entity]]\ntable = \"app\"\n", 2, &["missing 'pattern'"]),
            (
                "max_items = 1\nprice_per_million_reads = \n",
                2,
                &["price_per_million_reads ="],
            ),
            ("[keys\nquit = [\"q\"]\n", 1, &["[keys"]),
            ("max_items = 1\nmax_items = 2\n", 2, &["max_items"]),
        ];
        for (text, line, fragments) in cases {
            let err = parse(text, Path::new(PATH)).unwrap_err();
            let shown = err.to_string();
            assert!(!shown.contains('\n'), "multi-line message: {shown:?}");
            let prefix = format!("config file '{PATH}', line {line}: ");
            assert!(shown.starts_with(&prefix), "{text:?}: {shown}");
            assert_eq!(err.line, Some(*line), "{text:?}: {shown}");
            for fragment in *fragments {
                assert!(
                    shown.contains(fragment),
                    "{text:?}: {shown} lacks {fragment:?}"
                );
            }
        }
    }

    #[test]
    fn key_override_replaces_keys() {
        let config = parse_ok("[keys]\nquit = [\"Q\"]\nload_more = \"j\"\n");
        let keymap = config.keymap().unwrap();
        assert_eq!(keymap.keys_for(Action::Quit), "Q");
        assert_eq!(keymap.keys_for(Action::LoadMore), "j");
        assert_eq!(keymap.keys_for(Action::Down), "down");
        let rows = keymap.help_rows();
        let quit = rows.iter().find(|r| r.action == "quit").unwrap();
        assert_eq!(quit.keys, "Q");
        assert_eq!(quit.help, "Quit dynoscope");
        assert_eq!(Config::default().keymap().unwrap(), Keymap::default());
    }

    #[test]
    fn help_rows_come_from_the_keymap() {
        let rows = parse_ok("").keymap().unwrap().help_rows();
        assert_eq!(rows.len(), Action::ALL.len());
        let back = rows.iter().find(|r| r.action == "back").unwrap();
        assert_eq!(back.keys, "esc");
        assert_eq!(back.help, "Close / go back / cancel the running request");
        let bottom = rows.iter().find(|r| r.action == "bottom").unwrap();
        assert_eq!(bottom.keys, "G, end");
    }

    #[test]
    fn missing_default_file_means_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dynoscope").join("config.toml");
        assert_eq!(load_or_default(&path), Ok(Config::default()));
        let err = load(&path).unwrap_err();
        assert!(err.to_string().contains("cannot read it"), "{err}");
        assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
        assert_eq!(err.line, None);

        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "max_items = 10\n").unwrap();
        assert_eq!(load_or_default(&path).unwrap().max_items, Some(10));
        std::fs::write(&path, "max_items = 0\n").unwrap();
        let err = load_or_default(&path).unwrap_err();
        assert_eq!(err.path, path);
        assert_eq!(err.line, Some(1));
    }

    #[test]
    fn default_path_follows_xdg() {
        let os = |s: &str| Some(std::ffi::OsString::from(s));
        let cases: &[(
            Option<std::ffi::OsString>,
            Option<std::ffi::OsString>,
            Option<&str>,
        )] = &[
            (os("/x"), os("/home/u"), Some("/x/dynoscope/config.toml")),
            (
                None,
                os("/home/u"),
                Some("/home/u/.config/dynoscope/config.toml"),
            ),
            (
                os(""),
                os("/home/u"),
                Some("/home/u/.config/dynoscope/config.toml"),
            ),
            (
                os("relative"),
                os("/home/u"),
                Some("/home/u/.config/dynoscope/config.toml"),
            ),
            (None, None, None),
            (None, os(""), None),
        ];
        for (xdg, home, want) in cases {
            assert_eq!(
                default_path_from(xdg.clone(), home.clone()),
                want.map(PathBuf::from),
                "{xdg:?} {home:?}"
            );
        }
    }
}
