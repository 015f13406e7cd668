//! One key with its modifiers, as the config file writes it (`ctrl-c`, `pagedown`, `G`).

use std::fmt;
use std::str::FromStr;

use crate::app::input::{Key, KeyCode, Modifiers};
use thiserror::Error;

use super::KEY_SYNTAX_HINT;

/// Why a key string such as `ctrl-` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad key '{key}'; {KEY_SYNTAX_HINT}")]
pub struct KeyParseError {
    pub key: String,
}

/// One key with its modifiers, normalised so it compares equal to what terminals report:
/// characters carry their case and never SHIFT (`G`, not `shift-g`), shift-tab is `BackTab`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyCombo {
    code: KeyCode,
    modifiers: Modifiers,
}

const MODIFIER_MASK: Modifiers = Modifiers::CONTROL
    .union(Modifiers::ALT)
    .union(Modifiers::SHIFT);

impl KeyCombo {
    pub fn new(code: KeyCode, modifiers: Modifiers) -> KeyCombo {
        normalise(code, modifiers)
    }

    pub fn code(&self) -> KeyCode {
        self.code
    }

    pub fn modifiers(&self) -> Modifiers {
        self.modifiers
    }

    /// Reads `q`, `G`, `ctrl-c`, `alt-x`, `shift-tab`, `backtab`, `enter`, `esc`, `pagedown`,
    /// `f5`, `space`, `/`… Modifier and key names ignore case; a single character keeps it.
    pub fn parse(text: &str) -> Result<KeyCombo, KeyParseError> {
        let bad = || KeyParseError {
            key: text.to_owned(),
        };
        let mut rest = text;
        let mut modifiers = Modifiers::NONE;
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
        if modifiers.contains(Modifiers::SHIFT) {
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

    /// Whether the pressed `key` is this combo (`tui/` passes presses only, never releases).
    pub fn matches(&self, key: &Key) -> bool {
        normalise(key.code, key.modifiers) == *self
    }
}

// Strips one `ctrl-`/`alt-`/`shift-` (or `+`) prefix, case-insensitively.
fn split_modifier(text: &str) -> Option<(Modifiers, &str)> {
    let (head, tail) = text.split_once(['-', '+'])?;
    let modifier = match head.to_ascii_lowercase().as_str() {
        "ctrl" | "control" => Modifiers::CONTROL,
        "alt" | "meta" | "option" => Modifiers::ALT,
        "shift" => Modifiers::SHIFT,
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
fn normalise(code: KeyCode, modifiers: Modifiers) -> KeyCombo {
    let mut modifiers = modifiers & MODIFIER_MASK;
    let code = match code {
        KeyCode::Tab if modifiers.contains(Modifiers::SHIFT) => KeyCode::BackTab,
        other => other,
    };
    if matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
        modifiers.remove(Modifiers::SHIFT);
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
        if self.modifiers.contains(Modifiers::CONTROL) {
            f.write_str("ctrl-")?;
        }
        if self.modifiers.contains(Modifiers::ALT) {
            f.write_str("alt-")?;
        }
        if self.modifiers.contains(Modifiers::SHIFT) {
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
