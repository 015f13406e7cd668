//! `X` (and the palette's "design document"): the open table's design document, as
//! `model export --output markdown` writes it, from the items already loaded, to a file the
//! user names. It is the export dialog (`x`) with one scope (everything loaded) and one format:
//! the same path checks, temporary file, progress and cancel. Nothing is read for it: what is
//! loaded is what the document rests on, and it says how many items that is.

use crate::app::msg::Effect;
use crate::app::state::{ExportField, ExportScope, Modal, State};
use crate::model::exports::export::utc_stamp;

pub(crate) fn open_design(state: &mut State) -> Vec<Effect> {
    let effects = super::keys::open_export(state);
    if let Some(d) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut())
        .and_then(Modal::export_mut)
    {
        d.design = true;
        d.scope = ExportScope::Loaded;
        d.field = ExportField::Path;
    }
    effects
}

/// `./<table>-design-<utc timestamp>.md`, the table name kept to what any file system takes.
pub(crate) fn design_path(table: &str, unix_seconds: u64) -> String {
    let safe: String = table
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                true => c,
                false => '_',
            },
        )
        .collect();
    format!("./{safe}-design-{}.md", utc_stamp(unix_seconds))
}
