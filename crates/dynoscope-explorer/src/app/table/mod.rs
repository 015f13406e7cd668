//! The table view, one feature in one folder: the open table (`open_table`: its description,
//! the dialog and the pane over it, what reads taught, the current [`View`]), the view itself
//! (`view`: the loaded items, cursors, filter, columns and detail), its marked items (`marks`),
//! the selected item's related collections (`related`), the views kept for going back
//! (`visited`) and the `g` chord (`chord`). `ui::table_view` draws it.

mod chord;
mod marks;
mod open_table;
mod related;
mod view;
mod visited;

pub use chord::{Chords, CursorsBefore, PendingChord, CHORD_TIMEOUT};
pub use marks::Marks;
pub use open_table::{JsonMode, OpenTable, Pane, Prompt};
pub use related::Related;
pub use view::View;
pub use visited::{Visited, MAX_VISITED};
