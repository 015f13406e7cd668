//! What every feature may ask of the explorer as a whole: the terminal's area and the table's
//! layout (page sizes, visible rows), the help, quitting, and whether a read is running. A leaf:
//! it names the state, the layout and the effects, never the dispatcher (`update`) nor a
//! feature, so a key goes down from the router into its feature and never back up
//! (`tests/layers/app_modules.rs` keeps it so).

use ratatui::layout::Rect;

use crate::app::layout::{explorer_layout, TableLayout};
use crate::app::msg::{Effect, ReadEffect, TerminalEffect};
use crate::app::state::{Overlay, State};

/// The whole terminal, for the layout arithmetic `update` needs (page sizes, visible rows).
pub(crate) fn area(state: &State) -> Rect {
    Rect::new(0, 0, state.width, state.height)
}

/// The table view's panes at the terminal's size.
pub(crate) fn layout(state: &State) -> TableLayout {
    explorer_layout(state, area(state))
}

/// `?`: the help over everything, from its top.
pub(crate) fn open_help(state: &mut State) -> Vec<Effect> {
    state.overlay = Some(Overlay::Help { scroll: 0 });
    Vec::new()
}

/// Quits, cancelling the running read.
pub(crate) fn quit(state: &mut State) -> Vec<Effect> {
    state.quit = true;
    let mut effects: Vec<Effect> = running_read(state)
        .map(|x| Effect::Read(ReadEffect::Cancel(x)))
        .into_iter()
        .collect();
    effects.push(Effect::Terminal(TerminalEffect::Quit));
    effects
}

/// The request id of the open table's read while it runs.
pub(crate) fn running_read(state: &State) -> Option<u64> {
    let read = state.table.as_ref()?.view.read.as_ref()?;
    read.running.then_some(read.id)
}
