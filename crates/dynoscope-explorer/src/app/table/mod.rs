//! The table view, one feature in one folder: the open table (`open_table`: its description,
//! the dialog and the pane over it, what reads taught, the current [`View`]), the view itself
//! (`view`: the loaded items, cursors, filter, columns and detail), its marked items (`marks`),
//! the selected item's related collections (`related`), the views kept for going back
//! (`visited`) and the `g` chord (`chord`); and what its keys do: moving around (`navigation`),
//! the item detail (`detail`), marking (`mark_keys`), copying (`copy`), walking to related
//! collections and back (`walk`), `g r` (`chord_keys`), with the filtered lists and columns
//! derived once per message (`derived`). `ui::table_view` draws it; `update::actions` sends the
//! table's keymap actions here.

mod chord;
pub(crate) mod chord_keys;
pub(crate) mod copy;
pub(crate) mod derived;
pub(crate) mod detail;
pub(crate) mod log_pane;
pub(crate) mod mark_keys;
pub(crate) mod markdown;
mod marks;
pub(crate) mod navigation;
mod open_table;
mod related;
mod view;
mod visited;
pub(crate) mod walk;

pub use chord::{Chords, CursorsBefore, PendingChord, CHORD_TIMEOUT};
pub use marks::Marks;
pub use open_table::{JsonMode, OpenTable, Pane, Prompt};
pub use related::Related;
pub use view::View;
pub use visited::{Visited, MAX_VISITED};

#[cfg(test)]
mod walk_tests;
