//! What is open, as one ordered list: the key router (`update::key_event`), the mouse wheel and
//! the drawer (`ui::draw`) all read [`State::layers`], so "who gets this key" and "what is drawn
//! on top" have one answer. The values themselves stay where they live (`State::overlay`,
//! `OpenTable::modal`, the live or metrics pane in `OpenTable::cover`, the export's cancel
//! question); this is the one place that orders them.

use super::State;

/// One thing that can take keys, topmost first in [`State::layers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The help, the request as sent or the switcher ([`super::Overlay`]), over everything.
    Overlay,
    /// The export's "cancel it?" question; its line is the status bar's, so it draws nothing.
    ExportCancel,
    /// The live pane (`W`), in place of the table's panes and over its dialog.
    Live,
    /// The metrics pane (`M`), likewise.
    Metrics,
    /// The one dialog over the table ([`super::Modal`]).
    Modal,
    /// The screen: the table picker, or the open table's panes.
    Screen,
}

impl Layer {
    /// The layers the mouse wheel scrolls (the first of them in the list does); the overlays
    /// and dialogs do not scroll, so the wheel reaches the pane beneath them.
    pub fn scrolls(self) -> bool {
        matches!(self, Layer::Live | Layer::Metrics | Layer::Screen)
    }
}

impl State {
    /// Every layer open, topmost first: a key goes to the first, and on to the next while a
    /// layer passes it on; drawing goes the other way, so the first is drawn last, on top. The
    /// list ends at the screen, or at a pane that covers the table.
    pub fn layers(&self) -> Vec<Layer> {
        let table = self.table.as_ref();
        let mut layers = Vec::with_capacity(3);
        if self.overlay.is_some() {
            layers.push(Layer::Overlay);
        }
        if table
            .and_then(|t| t.export_job.as_ref())
            .is_some_and(|j| j.confirm_cancel)
        {
            layers.push(Layer::ExportCancel);
        }
        // A pane replaces the table: its dialog and panes are neither drawn nor given keys
        // while it is open.
        if let Some(cover) = table.and_then(|t| t.cover.as_ref()) {
            layers.push(cover.layer());
            return layers;
        }
        if table.is_some_and(|t| t.modal.is_some()) {
            layers.push(Layer::Modal);
        }
        layers.push(Layer::Screen);
        layers
    }
}
