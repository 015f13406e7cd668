//! The terminal's input as the explorer reads it: a key pressed with its modifiers, the mouse
//! wheel. `tui/` converts the terminal library's events into these (key presses only), so
//! `app/` and everything it tests name no terminal crate.

use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign};

/// One key press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub modifiers: Modifiers,
}

impl Key {
    pub const fn new(code: KeyCode, modifiers: Modifiers) -> Key {
        Key { code, modifiers }
    }
}

/// Which key, with the names terminals use (shift-tab is `BackTab`; a shifted character is
/// the character itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Backspace,
    Enter,
    Left,
    Right,
    Up,
    Down,
    Home,
    End,
    PageUp,
    PageDown,
    Tab,
    BackTab,
    Delete,
    Insert,
    F(u8),
    Char(char),
    Null,
    Esc,
    /// A key no binding can name (caps lock, a media key, a lone modifier…).
    Other,
}

/// The modifiers held with a key, as a set. Terminals with the keyboard protocol report
/// super, hyper and meta too; they are kept so "no modifier" means none at all.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Modifiers(u8);

impl Modifiers {
    pub const NONE: Modifiers = Modifiers(0);
    pub const SHIFT: Modifiers = Modifiers(1);
    pub const CONTROL: Modifiers = Modifiers(1 << 1);
    pub const ALT: Modifiers = Modifiers(1 << 2);
    pub const SUPER: Modifiers = Modifiers(1 << 3);
    pub const HYPER: Modifiers = Modifiers(1 << 4);
    pub const META: Modifiers = Modifiers(1 << 5);

    const NAMES: [(Modifiers, &'static str); 6] = [
        (Modifiers::SHIFT, "SHIFT"),
        (Modifiers::CONTROL, "CONTROL"),
        (Modifiers::ALT, "ALT"),
        (Modifiers::SUPER, "SUPER"),
        (Modifiers::HYPER, "HYPER"),
        (Modifiers::META, "META"),
    ];

    /// Whether every modifier of `other` is held.
    pub const fn contains(self, other: Modifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any modifier of `other` is held.
    pub const fn intersects(self, other: Modifiers) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn union(self, other: Modifiers) -> Modifiers {
        Modifiers(self.0 | other.0)
    }

    pub const fn intersection(self, other: Modifiers) -> Modifiers {
        Modifiers(self.0 & other.0)
    }

    pub const fn difference(self, other: Modifiers) -> Modifiers {
        Modifiers(self.0 & !other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn insert(&mut self, other: Modifiers) {
        *self = self.union(other);
    }

    pub fn remove(&mut self, other: Modifiers) {
        *self = self.difference(other);
    }
}

impl BitOr for Modifiers {
    type Output = Modifiers;

    fn bitor(self, other: Modifiers) -> Modifiers {
        self.union(other)
    }
}

impl BitOrAssign for Modifiers {
    fn bitor_assign(&mut self, other: Modifiers) {
        self.insert(other);
    }
}

impl BitAnd for Modifiers {
    type Output = Modifiers;

    fn bitand(self, other: Modifiers) -> Modifiers {
        self.intersection(other)
    }
}

impl fmt::Debug for Modifiers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let held: Vec<&str> = Modifiers::NAMES
            .iter()
            .filter(|(m, _)| self.contains(*m))
            .map(|(_, name)| *name)
            .collect();
        if held.is_empty() {
            f.write_str("Modifiers(NONE)")
        } else {
            write!(f, "Modifiers({})", held.join(" | "))
        }
    }
}

/// The text areas' own key type, made as `ratatui_textarea` makes it from a terminal's key:
/// shift-tab is a shifted tab, and keys it has no name for do nothing.
impl From<Key> for ratatui_textarea::Input {
    fn from(key: Key) -> ratatui_textarea::Input {
        use ratatui_textarea::Key as T;
        let held = |m| key.modifiers.contains(m);
        let code = match key.code {
            KeyCode::Char(c) => T::Char(c),
            KeyCode::Backspace => T::Backspace,
            KeyCode::Enter => T::Enter,
            KeyCode::Left => T::Left,
            KeyCode::Right => T::Right,
            KeyCode::Up => T::Up,
            KeyCode::Down => T::Down,
            KeyCode::Tab | KeyCode::BackTab => T::Tab,
            KeyCode::Delete => T::Delete,
            KeyCode::Home => T::Home,
            KeyCode::End => T::End,
            KeyCode::PageUp => T::PageUp,
            KeyCode::PageDown => T::PageDown,
            KeyCode::Esc => T::Esc,
            KeyCode::F(n) => T::F(n),
            KeyCode::Insert | KeyCode::Null | KeyCode::Other => T::Null,
        };
        ratatui_textarea::Input {
            key: code,
            ctrl: held(Modifiers::CONTROL),
            alt: held(Modifiers::ALT),
            shift: key.code == KeyCode::BackTab || held(Modifiers::SHIFT),
        }
    }
}

/// A mouse event; only the wheel does anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mouse {
    pub kind: MouseKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseKind {
    ScrollUp,
    ScrollDown,
    /// A click, a drag, a move or a sideways scroll.
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_are_a_set() {
        let mut held = Modifiers::CONTROL | Modifiers::SHIFT;
        assert!(held.contains(Modifiers::CONTROL));
        assert!(held.contains(Modifiers::NONE));
        assert!(!held.contains(Modifiers::ALT));
        assert_eq!(held & Modifiers::SHIFT, Modifiers::SHIFT);
        assert!(held
            .difference(Modifiers::SHIFT | Modifiers::CONTROL)
            .is_empty());
        held.remove(Modifiers::SHIFT);
        assert_eq!(held, Modifiers::CONTROL);
        held |= Modifiers::SUPER;
        assert_eq!(format!("{held:?}"), "Modifiers(CONTROL | SUPER)");
        assert_eq!(format!("{:?}", Modifiers::NONE), "Modifiers(NONE)");
    }
}
