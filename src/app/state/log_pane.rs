//! The request log pane: its height, its selected row, and the request shown as sent.

use crate::app::request_log::RequestRow;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogPane {
    /// Height chosen with `+`/`-`; `None` follows the log's rows (3 to 10).
    pub height: Option<u16>,
    /// The selected row (oldest first) while the log has the focus.
    pub cursor: Option<usize>,
    /// The row whose request is shown exactly as sent (Enter on it).
    pub shown: Option<RequestRow>,
    /// The first row of it in view (it scrolls when longer than the screen).
    pub shown_scroll: usize,
}
