//! The one dialog open over a table. At most one is open, and it is one [`super::Layer`] of
//! the list both the key routing (`update::key_event`) and the drawing (`ui::draw`) go through:
//! a dialog can never be drawn on top while another receives the keys. Opening one replaces
//! the one open, except the budget prompt a read asks for by itself (see
//! [`Modal::yields_to_budget`]).

use super::{
    BulkDialog, DistributionView, ExportDialog, IndexChooser, OpenTable, Palette, Prompt,
    QueryForm, ScanLauncher, WriteFlow,
};

// One per open table, never held in bulk: smaller than the ten `Option`s it replaced.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Modal {
    /// A write on its way: preview, confirmation, conflict (and while the editor has it).
    Write(WriteFlow),
    /// The export dialog (`x`).
    Export(ExportDialog),
    /// The bulk dialog (`B`): its action, preview, run and undo (`U` after a run).
    Bulk(BulkDialog),
    /// The query form (`:` or `Q`).
    QueryForm(QueryForm),
    /// The access-pattern palette.
    Palette(Palette),
    /// The scan launcher.
    Launcher(ScanLauncher),
    /// The key distribution of what was loaded.
    Distribution(DistributionView),
    /// The index chooser (`i`): nothing is read until Enter.
    IndexChooser(IndexChooser),
    /// Asks for a new capacity budget before a budgeted read resumes.
    BudgetPrompt(Prompt),
    /// Query a partition key.
    PkPrompt(Prompt),
    /// Filter the loaded items (applied as it is typed).
    FilterPrompt(Prompt),
    /// The column chooser (`C`): nothing changes until Enter.
    Columns(crate::app::column_choice::ColumnChooser),
}

impl Modal {
    /// A read that stopped for a new budget asks for it over no dialog or a one-line prompt
    /// (which the budget prompt has always taken the keys from); any other dialog keeps the
    /// keys, and `n` asks again once it is closed.
    pub fn yields_to_budget(modal: Option<&Modal>) -> bool {
        matches!(
            modal,
            None | Some(Modal::PkPrompt(_) | Modal::FilterPrompt(_) | Modal::BudgetPrompt(_))
        )
    }
}

/// Typed access to the open dialog: `modal.query_form_mut()` borrows only the `modal` field, so
/// update code can keep using the view's other fields; `view.query_form()` is for readers.
macro_rules! modal_access {
    ($($variant:ident($ty:ty) => $get:ident, $get_mut:ident;)*) => {
        impl Modal {
            $(
                pub fn $get(&self) -> Option<&$ty> {
                    match self {
                        Modal::$variant(x) => Some(x),
                        _ => None,
                    }
                }

                pub fn $get_mut(&mut self) -> Option<&mut $ty> {
                    match self {
                        Modal::$variant(x) => Some(x),
                        _ => None,
                    }
                }
            )*
        }

        impl OpenTable {
            $(
                pub fn $get(&self) -> Option<&$ty> {
                    self.modal.as_ref().and_then(Modal::$get)
                }
            )*
        }
    };
}

modal_access! {
    Write(WriteFlow) => write, write_mut;
    Export(ExportDialog) => export, export_mut;
    Bulk(BulkDialog) => bulk, bulk_mut;
    QueryForm(QueryForm) => query_form, query_form_mut;
    Palette(Palette) => palette, palette_mut;
    Launcher(ScanLauncher) => launcher, launcher_mut;
    Distribution(DistributionView) => distribution, distribution_mut;
    IndexChooser(IndexChooser) => index_chooser, index_chooser_mut;
    BudgetPrompt(Prompt) => budget_prompt, budget_prompt_mut;
    PkPrompt(Prompt) => pk_prompt, pk_prompt_mut;
    FilterPrompt(Prompt) => filter_prompt, filter_prompt_mut;
    Columns(crate::app::column_choice::ColumnChooser) => columns, columns_mut;
}
