//! The action palette (`Ctrl-P`): every action of the keymap and the open table's access
//! patterns, filtered by what is typed, and a form for a chosen pattern's parameters. `P`
//! opens the same palette showing the patterns only.

use super::ListCursor;
use crate::app::keymap::Action;

/// What the palette lists: everything, or (`P`) the access patterns only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PaletteScope {
    #[default]
    Everything,
    Patterns,
}

/// Something the palette runs: an action, as its key would, or an access pattern by its
/// position in `State::patterns`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PaletteEntry {
    Action(Action),
    Pattern(usize),
}

/// One row of the palette, as `update` ranked it for what is typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaletteRow {
    pub entry: PaletteEntry,
    /// The action's help text, or `pattern NAME` (untrusted: the config file's; drawn through
    /// the sanitiser).
    pub label: String,
    /// A pattern's key template and description, shown after its last check; empty for an
    /// action.
    pub detail: String,
    /// The keys bound to it (`q, ctrl-c`), empty for a pattern or an unbound action.
    pub keys: String,
    /// Why it does nothing useful here (`needs --allow-writes`); the row is greyed.
    pub unavailable: Option<String>,
}

/// The palette: what is typed, the rows that match it (ranked), then a form for the chosen
/// pattern's parameters.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    pub scope: PaletteScope,
    pub query: String,
    pub rows: Vec<PaletteRow>,
    pub list: ListCursor,
    pub form: Option<ParamForm>,
}

impl Palette {
    /// The highlighted row's entry.
    pub fn highlighted(&self) -> Option<PaletteEntry> {
        self.rows.get(self.list.cursor).map(|r| r.entry)
    }
}

#[derive(Debug, Clone)]
pub struct ParamForm {
    pub pattern: usize,
    pub params: Vec<(String, ratatui_textarea::TextArea<'static>)>,
    pub focus: usize,
    pub error: Option<String>,
    pub completion: Vec<String>,
    /// Per completion, the loaded keys behind it.
    pub completion_counts: Vec<usize>,
    pub selected: usize,
}
