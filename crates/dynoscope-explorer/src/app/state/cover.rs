//! The pane that covers the open table's own panes and its dialog: the live pane (`W`) or the
//! metrics pane (`M`). It is one slot, so at most one is open and "what covers the table" has
//! one answer: opening one closes the other. A closed live pane's stream stops after the message
//! (`app::live::keys::stop_if_closed`); a closed metrics pane's refresh finds no pane of its
//! generation and asks CloudWatch nothing more.

use super::{Layer, LiveView, MetricsPane, OpenTable};

/// Both boxed: the panes are hundreds of bytes to a kilobyte, which an open table would carry
/// while neither is open.
#[derive(Debug, Clone)]
pub enum CoverPane {
    /// The table's writes from its stream.
    Live(Box<LiveView>),
    /// CloudWatch's series, Contributor Insights and the verdicts.
    Metrics(Box<MetricsPane>),
}

impl CoverPane {
    /// Its place in [`super::State::layers`].
    pub fn layer(&self) -> Layer {
        match self {
            CoverPane::Live(_) => Layer::Live,
            CoverPane::Metrics(_) => Layer::Metrics,
        }
    }
}

impl OpenTable {
    pub fn live(&self) -> Option<&LiveView> {
        match &self.cover {
            Some(CoverPane::Live(live)) => Some(live),
            _ => None,
        }
    }

    pub fn live_mut(&mut self) -> Option<&mut LiveView> {
        match &mut self.cover {
            Some(CoverPane::Live(live)) => Some(live),
            _ => None,
        }
    }

    pub fn metrics(&self) -> Option<&MetricsPane> {
        match &self.cover {
            Some(CoverPane::Metrics(pane)) => Some(pane),
            _ => None,
        }
    }

    pub fn metrics_mut(&mut self) -> Option<&mut MetricsPane> {
        match &mut self.cover {
            Some(CoverPane::Metrics(pane)) => Some(pane),
            _ => None,
        }
    }
}
