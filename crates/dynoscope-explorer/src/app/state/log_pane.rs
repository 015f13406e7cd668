//! The request log pane: its height and its selected row (the request shown as sent is an
//! [`super::Overlay`]).

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogPane {
    /// Height chosen with `+`/`-`; `None` follows the log's rows (3 to 10).
    pub height: Option<u16>,
    /// The selected row (oldest first) while the log has the focus.
    pub cursor: Option<usize>,
}
