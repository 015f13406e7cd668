//! The table screen's keymap actions, each sent to the file of the feature it belongs to. Only
//! routing here: what an action does lives with its feature, so a new action is one arm here
//! and its code there.

use super::{bulk, open, session, walk, writes};
use super::{copy, distribution, index_chooser, palette, picker, prompts, reads, scan};
use super::{detail, export, insights, live, log_pane, marks, metrics, navigation};
use crate::app::explorer::{open_help, quit};
use crate::app::keymap::Action;
use crate::app::msg::Effect;
use crate::app::query_form::open_query_form;
use crate::app::state::{PaletteScope, State};

pub(super) fn table_action(state: &mut State, action: Action) -> Vec<Effect> {
    use Action::*;
    match action {
        // The explorer itself: quitting, the help, the table picker, region and profile.
        Quit => quit(state),
        Help => open_help(state),
        Tables => picker::leave_table(state),
        SwitchRegion | SwitchProfile => session::switch_action(state, action),
        // Moving around the table.
        Up | Down | PageUp | PageDown | Top | Bottom | Left | Right | NextPane | PrevPane
        | Open | Back => navigation::navigate(state, action),
        // How the table is shown.
        ToggleJson | ToggleWrap => detail::view_action(state, action),
        CollectionOrder | NavBack => walk::walk_action(state, action),
        LogTaller | LogShorter => log_pane::resize_action(state, action),
        // Reads: more of the same read, or a new scan.
        LoadMore => reads::load_more(state, false),
        LoadAll => reads::load_more(state, true),
        Rescan => open::new_scan(state),
        // Dialogs that choose what to read next.
        Filter | QueryPk => prompts::open_prompt(state, action),
        ChooseIndex => index_chooser::open_chooser(state),
        QueryBuilder => open_query_form(state),
        Patterns => palette::open_palette(state, PaletteScope::Patterns),
        ActionPalette => palette::open_palette(state, PaletteScope::Everything),
        ScanLauncher => scan::open_launcher(state),
        KeyDistribution => distribution::open_distribution(state),
        // The panes over the table.
        Live => live::open_live(state),
        Metrics => metrics::open_metrics(state),
        Insights => insights::open_with_insights(state),
        // What is loaded, out of the explorer: marks, the clipboard, a file.
        Mark | MarkAll | InvertMarks | ClearMarks => marks::mark_action(state, action),
        Copy => copy::copy(state),
        CopyMarkdown => crate::app::table::markdown::copy_markdown(state),
        Columns => crate::app::column_choice::keys::open(state),
        Export => export::open_export(state),
        DesignDocument => crate::app::export::design::open_design(state),
        // Writes (`--allow-writes`).
        Edit | EditDynamo | NewItem | Delete | Undo => writes::write_action(state, action),
        BulkWrite => bulk::open(state),
    }
}
