//! What is open over the whole screen, above the table and its dialog ([`super::Modal`]): the
//! help, the request shown as sent, or the region/profile switcher. At most one is open; it is
//! the top [`super::Layer`] when open, for the keys (`update::key_event`) and the drawing
//! (`ui::draw`) alike.

use super::{State, Switcher};
use crate::app::request_log::RequestRow;

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    /// The help (`?`), with the rows scrolled off its top.
    Help { scroll: usize },
    /// A request log row exactly as sent (Enter on it), with the rows scrolled off its top.
    Sent { row: Box<RequestRow>, scroll: usize },
    /// The region (`R`) or profile (`A`) switcher.
    Switcher(Switcher),
}

impl State {
    /// The help's scroll, while it is open.
    pub fn help_scroll(&self) -> Option<usize> {
        match &self.overlay {
            Some(Overlay::Help { scroll }) => Some(*scroll),
            _ => None,
        }
    }

    /// The row shown as sent and its scroll, while it is open.
    pub fn sent(&self) -> Option<(&RequestRow, usize)> {
        match &self.overlay {
            Some(Overlay::Sent { row, scroll }) => Some((row, *scroll)),
            _ => None,
        }
    }

    pub fn switcher(&self) -> Option<&Switcher> {
        match &self.overlay {
            Some(Overlay::Switcher(s)) => Some(s),
            _ => None,
        }
    }
}
