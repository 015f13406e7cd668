//! Draw functions: each reads `State` and renders only what is visible.

mod bulk;
mod collections;
mod column_chooser;
mod detail;
mod dialog;
mod export;
pub mod format;
mod help;
mod index_chooser;
mod items;
pub mod json_view;
mod live;
mod live_tail;
mod metrics_pane;
mod palette;
mod palette_check;
mod picker;
mod prompt;
mod query_form;
mod related;
mod request_log;
mod scan;
mod sent_request;
mod status;
mod switcher;
mod table_view;
pub mod theme;
mod write;

#[cfg(test)]
mod builder_snapshot_tests;
#[cfg(test)]
mod bulk_snapshot_tests;
#[cfg(test)]
mod columns_snapshot_tests;
#[cfg(test)]
mod export_snapshot_tests;
#[cfg(test)]
mod hostile_tests;
#[cfg(test)]
mod index_snapshot_tests;
#[cfg(test)]
mod live_size_tests;
#[cfg(test)]
mod live_snapshot_tests;
#[cfg(test)]
mod metrics_snapshot_tests;
#[cfg(test)]
mod multi_attribute_snapshot_tests;
#[cfg(test)]
mod palette_check_snapshot_tests;
#[cfg(test)]
mod palette_snapshot_tests;
#[cfg(test)]
mod query_form_partiql_snapshot_tests;
#[cfg(test)]
mod size_tests;
#[cfg(test)]
mod snapshot_tests;
#[cfg(test)]
mod walk_tests;

use ratatui::Frame;

use crate::app::state::{Layer, Overlay, Screen, State};

/// Draws what is open bottom up: the same [`State::layers`] the keys go through top down, so
/// what takes the keys is what is drawn on top.
pub fn draw(frame: &mut Frame, state: &State) {
    let area = frame.area();
    for layer in state.layers().into_iter().rev() {
        match layer {
            Layer::Screen => match state.screen {
                Screen::Picker => picker::draw(frame, area, state),
                Screen::Table => table_view::draw(frame, area, state),
            },
            Layer::Live | Layer::Metrics => table_view::draw_pane(frame, area, state),
            Layer::Modal => table_view::draw_modal(frame, area, state),
            // The question is the status bar's line, drawn with the screen or the pane.
            Layer::ExportCancel => {}
            Layer::Overlay => draw_overlay(frame, area, state),
        }
    }
}

fn draw_overlay(frame: &mut Frame, area: ratatui::layout::Rect, state: &State) {
    match &state.overlay {
        Some(Overlay::Help { .. }) => help::draw(frame, area, state),
        Some(Overlay::Sent { row, scroll }) => sent_request::draw(frame, area, row, *scroll),
        Some(Overlay::Switcher(_)) => switcher::draw(frame, area, state),
        None => {}
    }
}
