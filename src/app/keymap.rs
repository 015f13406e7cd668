//! Key bindings: which key triggers which [`Action`].
//!
//! The defaults live in `assets/keymap.toml` as data (one entry per action, with its help text),
//! so the help screen, the status-bar hints and the lookup all come from one table. The user's
//! config file can replace the keys of any action (see [`Keymap::with_overrides`]).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::Deserialize;
use thiserror::Error;

/// The default keymap, as shipped.
pub const DEFAULT_KEYMAP_TOML: &str = include_str!("../../assets/keymap.toml");

/// How to write a key, for error messages.
pub const KEY_SYNTAX_HINT: &str = "write keys like 'q', 'ctrl-c', 'pagedown'";

/// Everything a key can do in the explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Left,
    Right,
    NextPane,
    PrevPane,
    Open,
    Back,
    Filter,
    Copy,
    ToggleJson,
    LoadMore,
    LoadAll,
    QueryPk,
    CycleIndex,
    Rescan,
    Tables,
    QueryBuilder,
    Patterns,
    ScanLauncher,
    KeyDistribution,
}

impl Action {
    /// Every action, in declaration order.
    pub const ALL: [Action; 27] = [
        Action::Quit,
        Action::Help,
        Action::Up,
        Action::Down,
        Action::PageUp,
        Action::PageDown,
        Action::Top,
        Action::Bottom,
        Action::Left,
        Action::Right,
        Action::NextPane,
        Action::PrevPane,
        Action::Open,
        Action::Back,
        Action::Filter,
        Action::Copy,
        Action::ToggleJson,
        Action::LoadMore,
        Action::LoadAll,
        Action::QueryPk,
        Action::CycleIndex,
        Action::Rescan,
        Action::Tables,
        Action::QueryBuilder,
        Action::Patterns,
        Action::ScanLauncher,
        Action::KeyDistribution,
    ];

    /// The snake_case name used in `keymap.toml` and the `[keys]` table of the config file.
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "help",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::Left => "left",
            Action::Right => "right",
            Action::NextPane => "next_pane",
            Action::PrevPane => "prev_pane",
            Action::Open => "open",
            Action::Back => "back",
            Action::Filter => "filter",
            Action::Copy => "copy",
            Action::ToggleJson => "toggle_json",
            Action::LoadMore => "load_more",
            Action::LoadAll => "load_all",
            Action::QueryPk => "query_pk",
            Action::CycleIndex => "cycle_index",
            Action::Rescan => "rescan",
            Action::Tables => "tables",
            Action::QueryBuilder => "query_builder",
            Action::Patterns => "patterns",
            Action::ScanLauncher => "scan_launcher",
            Action::KeyDistribution => "key_distribution",
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.name() == name)
    }

    /// All action names, comma-separated, for error messages.
    pub fn names_list() -> String {
        Action::ALL.map(Action::name).join(", ")
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a key string such as `ctrl-` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad key '{key}'; {KEY_SYNTAX_HINT}")]
pub struct KeyParseError {
    pub key: String,
}

/// One key with its modifiers, normalised so it compares equal to what crossterm reports:
/// characters carry their case and never SHIFT (`G`, not `shift-g`), shift-tab is `BackTab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyCombo {
    code: KeyCode,
    modifiers: KeyModifiers,
}

const MODIFIER_MASK: KeyModifiers = KeyModifiers::CONTROL
    .union(KeyModifiers::ALT)
    .union(KeyModifiers::SHIFT);

impl KeyCombo {
    pub fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyCombo {
        normalise(code, modifiers)
    }

    pub fn code(&self) -> KeyCode {
        self.code
    }

    pub fn modifiers(&self) -> KeyModifiers {
        self.modifiers
    }

    /// Reads `q`, `G`, `ctrl-c`, `alt-x`, `shift-tab`, `backtab`, `enter`, `esc`, `pagedown`,
    /// `f5`, `space`, `/`… Modifier and key names ignore case; a single character keeps it.
    pub fn parse(text: &str) -> Result<KeyCombo, KeyParseError> {
        let bad = || KeyParseError {
            key: text.to_owned(),
        };
        let mut rest = text;
        let mut modifiers = KeyModifiers::NONE;
        while let Some((prefix, after)) = split_modifier(rest) {
            if after.is_empty() {
                return Err(bad());
            }
            modifiers |= prefix;
            rest = after;
        }
        if rest.is_empty() {
            return Err(bad());
        }
        let code = if rest.chars().count() == 1 {
            let c = rest.chars().next().unwrap_or(' ');
            if c.is_control() {
                return Err(bad());
            }
            KeyCode::Char(c)
        } else {
            named_key(&rest.to_ascii_lowercase()).ok_or_else(bad)?
        };
        if modifiers.contains(KeyModifiers::SHIFT) {
            if let KeyCode::Char(c) = code {
                // `shift-g` is `G`; for anything but a letter the shifted character depends on
                // the keyboard layout, so it has to be written as itself.
                if !c.is_alphabetic() {
                    return Err(bad());
                }
                let upper = c.to_uppercase().next().unwrap_or(c);
                return Ok(normalise(KeyCode::Char(upper), modifiers));
            }
        }
        Ok(normalise(code, modifiers))
    }

    /// Whether crossterm's `key` is this combo. Release events never match.
    pub fn matches(&self, key: &KeyEvent) -> bool {
        key.kind != KeyEventKind::Release && normalise(key.code, key.modifiers) == *self
    }
}

// Strips one `ctrl-`/`alt-`/`shift-` (or `+`) prefix, case-insensitively.
fn split_modifier(text: &str) -> Option<(KeyModifiers, &str)> {
    let (head, tail) = text.split_once(['-', '+'])?;
    let modifier = match head.to_ascii_lowercase().as_str() {
        "ctrl" | "control" => KeyModifiers::CONTROL,
        "alt" | "meta" | "option" => KeyModifiers::ALT,
        "shift" => KeyModifiers::SHIFT,
        _ => return None,
    };
    Some((modifier, tail))
}

fn named_key(name: &str) -> Option<KeyCode> {
    let code = match name {
        "enter" | "return" => KeyCode::Enter,
        "esc" | "escape" => KeyCode::Esc,
        "tab" => KeyCode::Tab,
        "backtab" => KeyCode::BackTab,
        "space" => KeyCode::Char(' '),
        "up" => KeyCode::Up,
        "down" => KeyCode::Down,
        "left" => KeyCode::Left,
        "right" => KeyCode::Right,
        "pageup" | "pgup" => KeyCode::PageUp,
        "pagedown" | "pgdn" => KeyCode::PageDown,
        "home" => KeyCode::Home,
        "end" => KeyCode::End,
        "insert" | "ins" => KeyCode::Insert,
        "delete" | "del" => KeyCode::Delete,
        "backspace" => KeyCode::Backspace,
        _ => {
            let n: u8 = name.strip_prefix('f')?.parse().ok()?;
            if !(1..=12).contains(&n) || name.starts_with("f0") {
                return None;
            }
            KeyCode::F(n)
        }
    };
    Some(code)
}

// Terminals report shifted characters as the character itself, sometimes with SHIFT set and
// sometimes not, and shift-tab as BackTab (with or without SHIFT, or as Tab with SHIFT).
fn normalise(code: KeyCode, modifiers: KeyModifiers) -> KeyCombo {
    let mut modifiers = modifiers & MODIFIER_MASK;
    let code = match code {
        KeyCode::Tab if modifiers.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
        other => other,
    };
    if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
        modifiers.remove(KeyModifiers::SHIFT);
    }
    KeyCombo { code, modifiers }
}

impl FromStr for KeyCombo {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<KeyCombo, KeyParseError> {
        KeyCombo::parse(s)
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            f.write_str("shift-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "f{n}"),
            KeyCode::Enter => f.write_str("enter"),
            KeyCode::Esc => f.write_str("esc"),
            KeyCode::Tab => f.write_str("tab"),
            KeyCode::BackTab => f.write_str("shift-tab"),
            KeyCode::Up => f.write_str("up"),
            KeyCode::Down => f.write_str("down"),
            KeyCode::Left => f.write_str("left"),
            KeyCode::Right => f.write_str("right"),
            KeyCode::PageUp => f.write_str("pgup"),
            KeyCode::PageDown => f.write_str("pgdn"),
            KeyCode::Home => f.write_str("home"),
            KeyCode::End => f.write_str("end"),
            KeyCode::Insert => f.write_str("ins"),
            KeyCode::Delete => f.write_str("del"),
            KeyCode::Backspace => f.write_str("backspace"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// Why a keymap (the shipped one or the user's overrides) was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeymapError {
    #[error("unknown action '{name}'; actions are {}", Action::names_list())]
    UnknownAction { name: String },
    #[error("bad key '{key}' for action '{action}'; {KEY_SYNTAX_HINT}")]
    BadKey { action: String, key: String },
    #[error(
        "key '{key}' is bound to both '{first}' and '{second}'; give each key only one action"
    )]
    Conflict {
        key: String,
        first: &'static str,
        second: &'static str,
    },
    #[error("the built-in keymap is invalid: {0}")]
    Asset(String),
}

/// One line of the help screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpRow {
    /// The action's keys, e.g. `q, ctrl-c`; empty when the user unbound it.
    pub keys: String,
    pub action: &'static str,
    pub help: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Binding {
    action: Action,
    keys: Vec<KeyCombo>,
    help: String,
}

/// Which keys trigger which action, in the order of `assets/keymap.toml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AssetFile {
    binding: Vec<AssetBinding>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AssetBinding {
    action: String,
    keys: Vec<String>,
    help: String,
}

impl Default for Keymap {
    /// The shipped keymap. A unit test proves the asset parses, so this cannot fail.
    fn default() -> Keymap {
        match Keymap::from_toml(DEFAULT_KEYMAP_TOML) {
            Ok(keymap) => keymap,
            Err(err) => panic!("{err}"),
        }
    }
}

impl Keymap {
    /// Reads a keymap in the format of `assets/keymap.toml`.
    pub fn from_toml(text: &str) -> Result<Keymap, KeymapError> {
        let asset: AssetFile = toml::from_str(text)
            .map_err(|err| KeymapError::Asset(err.message().replace('\n', " ")))?;
        let mut bindings: Vec<Binding> = Vec::new();
        for entry in asset.binding {
            let action =
                Action::from_name(&entry.action).ok_or_else(|| KeymapError::UnknownAction {
                    name: entry.action.clone(),
                })?;
            if bindings.iter().any(|b| b.action == action) {
                return Err(KeymapError::Asset(format!(
                    "action '{action}' is listed twice"
                )));
            }
            let keys = parse_keys(action, &entry.keys)?;
            for key in &keys {
                if let Some(other) = bindings.iter().find(|b| b.keys.contains(key)) {
                    return Err(KeymapError::Conflict {
                        key: key.to_string(),
                        first: other.action.name(),
                        second: action.name(),
                    });
                }
            }
            bindings.push(Binding {
                action,
                keys,
                help: entry.help,
            });
        }
        Ok(Keymap { bindings })
    }

    /// Replaces the keys of each action named in `overrides` (action name to key strings). A
    /// key an override takes is removed from the action that had it by default, so `down =
    /// ["s"]` and `load_more = ["j"]` both work; two overrides claiming one key are an error.
    pub fn with_overrides(
        mut self,
        overrides: &BTreeMap<String, Vec<String>>,
    ) -> Result<Keymap, KeymapError> {
        let mut claimed: Vec<(KeyCombo, Action)> = Vec::new();
        let mut replaced: Vec<(Action, Vec<KeyCombo>)> = Vec::new();
        for (name, keys) in overrides {
            let action = Action::from_name(name)
                .ok_or_else(|| KeymapError::UnknownAction { name: name.clone() })?;
            let keys = parse_keys(action, keys)?;
            for key in &keys {
                if let Some((_, other)) = claimed.iter().find(|(k, _)| k == key) {
                    return Err(KeymapError::Conflict {
                        key: key.to_string(),
                        first: other.name(),
                        second: action.name(),
                    });
                }
                claimed.push((*key, action));
            }
            replaced.push((action, keys));
        }
        for binding in &mut self.bindings {
            binding
                .keys
                .retain(|key| !claimed.iter().any(|(k, _)| k == key));
        }
        for (action, keys) in replaced {
            match self.bindings.iter_mut().find(|b| b.action == action) {
                Some(binding) => binding.keys = keys,
                None => self.bindings.push(Binding {
                    action,
                    keys,
                    help: String::new(),
                }),
            }
        }
        Ok(self)
    }

    /// The action `key` triggers, if any.
    pub fn action(&self, key: &KeyEvent) -> Option<Action> {
        self.bindings
            .iter()
            .find(|b| b.keys.iter().any(|k| k.matches(key)))
            .map(|b| b.action)
    }

    /// The keys bound to `action`.
    pub fn keys(&self, action: Action) -> &[KeyCombo] {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map_or(&[], |b| b.keys.as_slice())
    }

    /// The keys of `action` for a status-bar hint, e.g. `q/ctrl-c`; empty when unbound.
    pub fn keys_for(&self, action: Action) -> String {
        join_keys(self.keys(action), "/")
    }

    /// The help screen's rows, in the order of `assets/keymap.toml`.
    pub fn help_rows(&self) -> Vec<HelpRow> {
        self.bindings
            .iter()
            .map(|b| HelpRow {
                keys: join_keys(&b.keys, ", "),
                action: b.action.name(),
                help: b.help.clone(),
            })
            .collect()
    }
}

fn parse_keys(action: Action, keys: &[String]) -> Result<Vec<KeyCombo>, KeymapError> {
    let mut combos: Vec<KeyCombo> = Vec::with_capacity(keys.len());
    for text in keys {
        let combo = KeyCombo::parse(text).map_err(|_| KeymapError::BadKey {
            action: action.name().to_owned(),
            key: text.clone(),
        })?;
        if !combos.contains(&combo) {
            combos.push(combo);
        }
    }
    Ok(combos)
}

fn join_keys(keys: &[KeyCombo], separator: &str) -> String {
    keys.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    fn combo(text: &str) -> KeyCombo {
        KeyCombo::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn default_asset_parses_and_binds_every_action() {
        let keymap = Keymap::from_toml(DEFAULT_KEYMAP_TOML).unwrap();
        for action in Action::ALL {
            assert!(
                !keymap.keys(action).is_empty(),
                "{action} has no default key"
            );
            assert!(
                keymap.help_rows().iter().any(|r| r.action == action.name()),
                "{action} has no help row"
            );
        }
        assert_eq!(keymap.help_rows().len(), Action::ALL.len());
        assert!(keymap.help_rows().iter().all(|r| !r.help.is_empty()));
        assert_eq!(Keymap::default(), keymap);
    }

    #[test]
    fn action_names_round_trip() {
        for action in Action::ALL {
            assert_eq!(Action::from_name(action.name()), Some(action));
        }
        assert_eq!(Action::from_name("PageUp"), None);
        assert_eq!(Action::from_name("page_up"), Some(Action::PageUp));
        assert!(Action::names_list().starts_with("quit, help, up"));
    }

    #[test]
    fn parses_key_strings() {
        let none = KeyModifiers::NONE;
        let ctrl = KeyModifiers::CONTROL;
        let cases: &[(&str, KeyCode, KeyModifiers, &str)] = &[
            ("q", KeyCode::Char('q'), none, "q"),
            ("G", KeyCode::Char('G'), none, "G"),
            ("shift-g", KeyCode::Char('G'), none, "G"),
            ("ctrl-c", KeyCode::Char('c'), ctrl, "ctrl-c"),
            ("Ctrl+C", KeyCode::Char('C'), ctrl, "ctrl-C"),
            ("alt-x", KeyCode::Char('x'), KeyModifiers::ALT, "alt-x"),
            ("shift-tab", KeyCode::BackTab, none, "shift-tab"),
            ("backtab", KeyCode::BackTab, none, "shift-tab"),
            ("enter", KeyCode::Enter, none, "enter"),
            ("Esc", KeyCode::Esc, none, "esc"),
            ("tab", KeyCode::Tab, none, "tab"),
            ("up", KeyCode::Up, none, "up"),
            ("down", KeyCode::Down, none, "down"),
            ("left", KeyCode::Left, none, "left"),
            ("right", KeyCode::Right, none, "right"),
            ("pageup", KeyCode::PageUp, none, "pgup"),
            ("pagedown", KeyCode::PageDown, none, "pgdn"),
            ("pgdn", KeyCode::PageDown, none, "pgdn"),
            ("home", KeyCode::Home, none, "home"),
            ("end", KeyCode::End, none, "end"),
            ("f1", KeyCode::F(1), none, "f1"),
            ("F12", KeyCode::F(12), none, "f12"),
            ("space", KeyCode::Char(' '), none, "space"),
            ("/", KeyCode::Char('/'), none, "/"),
            ("?", KeyCode::Char('?'), none, "?"),
            ("-", KeyCode::Char('-'), none, "-"),
            ("ctrl--", KeyCode::Char('-'), ctrl, "ctrl--"),
            ("shift-up", KeyCode::Up, KeyModifiers::SHIFT, "shift-up"),
            (
                "ctrl-alt-d",
                KeyCode::Char('d'),
                ctrl.union(KeyModifiers::ALT),
                "ctrl-alt-d",
            ),
        ];
        for (text, code, modifiers, shown) in cases {
            let parsed = combo(text);
            assert_eq!(parsed.code(), *code, "{text}");
            assert_eq!(parsed.modifiers(), *modifiers, "{text}");
            assert_eq!(parsed.to_string(), *shown, "{text}");
            assert_eq!(combo(shown), parsed, "display of {text} parses back");
        }
    }

    #[test]
    fn rejects_bad_key_strings() {
        for text in [
            "", "ctrl-", "ctrl", "hyper-x", "pagedwn", "f0", "f13", "f01", "shift-1", "\t", "ab",
        ] {
            let err = KeyCombo::parse(text).unwrap_err();
            assert_eq!(err.key, text);
            assert!(err.to_string().contains("'ctrl-c'"), "{err}");
        }
    }

    #[test]
    fn matches_what_crossterm_reports() {
        let keymap = Keymap::default();
        let shift = KeyModifiers::SHIFT;
        let cases: &[(KeyEvent, Option<Action>)] = &[
            (
                press(KeyCode::Char('q'), KeyModifiers::NONE),
                Some(Action::Quit),
            ),
            (
                press(KeyCode::Char('c'), KeyModifiers::CONTROL),
                Some(Action::Quit),
            ),
            (press(KeyCode::Char('c'), KeyModifiers::NONE), None),
            (press(KeyCode::Char('G'), shift), Some(Action::Bottom)),
            (
                press(KeyCode::Char('G'), KeyModifiers::NONE),
                Some(Action::Bottom),
            ),
            (
                press(KeyCode::Char('g'), KeyModifiers::NONE),
                Some(Action::Top),
            ),
            (press(KeyCode::Char('L'), shift), Some(Action::LoadAll)),
            (press(KeyCode::Char('T'), shift), Some(Action::Tables)),
            (press(KeyCode::Char('?'), shift), Some(Action::Help)),
            (press(KeyCode::BackTab, shift), Some(Action::PrevPane)),
            (
                press(KeyCode::BackTab, KeyModifiers::NONE),
                Some(Action::PrevPane),
            ),
            (press(KeyCode::Tab, shift), Some(Action::PrevPane)),
            (
                press(KeyCode::Tab, KeyModifiers::NONE),
                Some(Action::NextPane),
            ),
            (press(KeyCode::Up, KeyModifiers::NONE), Some(Action::Up)),
            (press(KeyCode::Up, shift), None),
            (
                press(KeyCode::PageDown, KeyModifiers::NONE),
                Some(Action::PageDown),
            ),
            (
                press(KeyCode::Char('f'), KeyModifiers::CONTROL),
                Some(Action::PageDown),
            ),
            (press(KeyCode::Esc, KeyModifiers::NONE), Some(Action::Back)),
            (
                press(KeyCode::Enter, KeyModifiers::NONE),
                Some(Action::Open),
            ),
            (
                press(KeyCode::Char('/'), KeyModifiers::NONE),
                Some(Action::Filter),
            ),
            (press(KeyCode::F(1), KeyModifiers::NONE), Some(Action::Help)),
            (
                press(KeyCode::Char('q'), KeyModifiers::SUPER),
                Some(Action::Quit),
            ),
        ];
        for (event, want) in cases {
            assert_eq!(keymap.action(event), *want, "{event:?}");
        }
        let mut release = press(KeyCode::Char('q'), KeyModifiers::NONE);
        release.kind = KeyEventKind::Release;
        assert_eq!(keymap.action(&release), None);
    }

    fn overrides(pairs: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
        pairs
            .iter()
            .map(|(action, keys)| {
                (
                    (*action).to_owned(),
                    keys.iter().map(|k| (*k).to_owned()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn override_replaces_an_actions_keys() {
        let keymap = Keymap::default()
            .with_overrides(&overrides(&[("quit", &["Q", "ctrl-q"])]))
            .unwrap();
        assert_eq!(keymap.keys_for(Action::Quit), "Q/ctrl-q");
        let q = press(KeyCode::Char('q'), KeyModifiers::NONE);
        assert_eq!(keymap.action(&q), None);
        let ctrl_q = press(KeyCode::Char('q'), KeyModifiers::CONTROL);
        assert_eq!(keymap.action(&ctrl_q), Some(Action::Quit));
        assert_eq!(keymap.keys_for(Action::Down), "down/j");
    }

    #[test]
    fn override_takes_a_key_from_its_default_action() {
        let keymap = Keymap::default()
            .with_overrides(&overrides(&[("load_more", &["j"]), ("tables", &[])]))
            .unwrap();
        let j = press(KeyCode::Char('j'), KeyModifiers::NONE);
        assert_eq!(keymap.action(&j), Some(Action::LoadMore));
        assert_eq!(keymap.keys_for(Action::Down), "down");
        assert_eq!(keymap.keys_for(Action::Tables), "");
        let row = keymap
            .help_rows()
            .into_iter()
            .find(|r| r.action == "tables");
        assert_eq!(row.map(|r| r.keys), Some(String::new()));
    }

    #[test]
    fn rejects_bad_overrides() {
        type Overrides<'a> = &'a [(&'a str, &'a [&'a str])];
        let cases: &[(Overrides, KeymapError)] = &[
            (
                &[("jump", &["x"])],
                KeymapError::UnknownAction {
                    name: "jump".into(),
                },
            ),
            (
                &[("quit", &["q", "ctrl-"])],
                KeymapError::BadKey {
                    action: "quit".into(),
                    key: "ctrl-".into(),
                },
            ),
            (
                &[("copy", &["x"]), ("quit", &["x"])],
                KeymapError::Conflict {
                    key: "x".into(),
                    first: "copy",
                    second: "quit",
                },
            ),
        ];
        for (pairs, want) in cases {
            let err = Keymap::default()
                .with_overrides(&overrides(pairs))
                .unwrap_err();
            assert_eq!(err, *want);
        }
        let err = KeymapError::UnknownAction {
            name: "jump".into(),
        };
        assert!(
            err.to_string().contains("actions are quit, help, up"),
            "{err}"
        );
    }

    #[test]
    fn help_rows_follow_the_asset() {
        let rows = Keymap::default().help_rows();
        assert_eq!(
            rows[0],
            HelpRow {
                keys: "q, ctrl-c".into(),
                action: "quit",
                help: "Quit dynoscope".into(),
            }
        );
        let names: Vec<&str> = rows.iter().map(|r| r.action).collect();
        assert_eq!(&names[..4], ["quit", "help", "up", "down"]);
        assert_eq!(names.last(), Some(&"tables"));
        let prev = rows.iter().find(|r| r.action == "prev_pane").unwrap();
        assert_eq!(prev.keys, "shift-tab");
        let page = rows.iter().find(|r| r.action == "page_down").unwrap();
        assert_eq!(page.keys, "pgdn, ctrl-f");
    }

    #[test]
    fn asset_problems_are_reported() {
        let dup = "[[binding]]\naction = \"quit\"\nkeys = [\"q\"]\nhelp = \"a\"\n\
                   [[binding]]\naction = \"copy\"\nkeys = [\"q\"]\nhelp = \"b\"\n";
        assert!(matches!(
            Keymap::from_toml(dup),
            Err(KeymapError::Conflict { .. })
        ));
        assert!(matches!(
            Keymap::from_toml("[[binding]]\naction = \"quit\"\n"),
            Err(KeymapError::Asset(_))
        ));
    }
}
