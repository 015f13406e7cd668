//! Key bindings: which key triggers which [`Action`].
//!
//! The defaults are data: one table in [`action`] gives every action its name, keys and help
//! text, so the help screen, the status-bar hints and the lookup all come from it. The user's
//! config file can replace the keys of any action (see [`Keymap::with_overrides`]).

mod action;
mod combo;

use std::collections::BTreeMap;

use crate::app::input::Key;
use thiserror::Error;

pub use action::Action;
pub use combo::{KeyCombo, KeyParseError};

/// How to write a key, for error messages.
pub const KEY_SYNTAX_HINT: &str = "write keys like 'q', 'ctrl-c', 'pagedown'";

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
    #[error(
        "key '{key}' for '{taker}' was the only key of '{action}', which would have none; give '{action}' a key of its own in [keys] (or '{action} = []' to leave it unbound)"
    )]
    Orphaned {
        key: String,
        taker: &'static str,
        action: &'static str,
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

/// Which keys trigger which action, in the order of the action table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    bindings: Vec<Binding>,
}

impl Default for Keymap {
    /// The shipped keymap. A unit test proves the table is valid, so this cannot fail.
    fn default() -> Keymap {
        let rows = Action::ALL.map(|a| (a, a.default_keys(), a.help()));
        match Keymap::from_rows(&rows) {
            Ok(keymap) => keymap,
            Err(err) => panic!("{err}"),
        }
    }
}

impl Keymap {
    /// A keymap from rows of (action, keys, help), in help order: each action once, each
    /// key to one action.
    pub fn from_rows(rows: &[(Action, &[&str], &str)]) -> Result<Keymap, KeymapError> {
        let mut bindings: Vec<Binding> = Vec::new();
        for &(action, keys, help) in rows {
            if bindings.iter().any(|b| b.action == action) {
                return Err(KeymapError::Asset(format!(
                    "action '{action}' is listed twice"
                )));
            }
            let keys: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            let keys = parse_keys(action, &keys)?;
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
                help: help.to_string(),
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
            let taken = binding
                .keys
                .iter()
                .find_map(|key| claimed.iter().find(|(k, _)| k == key).copied());
            binding
                .keys
                .retain(|key| !claimed.iter().any(|(k, _)| k == key));
            // Taking an action's last key silently would leave it unreachable; an action the
            // overrides name themselves gets its new keys below (or none, if asked for).
            if let Some((key, taker)) = taken {
                let named = replaced.iter().any(|(a, _)| *a == binding.action);
                if binding.keys.is_empty() && !named {
                    return Err(KeymapError::Orphaned {
                        key: key.to_string(),
                        taker: taker.name(),
                        action: binding.action.name(),
                    });
                }
            }
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
    pub fn action(&self, key: &Key) -> Option<Action> {
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

    /// The help screen's rows, in the order of the action table.
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
#[path = "keymap_tests.rs"]
mod tests;
