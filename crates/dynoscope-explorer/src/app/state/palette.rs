//! The access-pattern palette and its parameter form.

use super::ListCursor;

/// The access-pattern palette: the table's patterns, then a form for the chosen one's
/// parameters.
#[derive(Debug, Clone, Default)]
pub struct Palette {
    /// Positions in `State::patterns` of this table's patterns.
    pub entries: Vec<usize>,
    pub list: ListCursor,
    pub form: Option<ParamForm>,
}

#[derive(Debug, Clone)]
pub struct ParamForm {
    pub pattern: usize,
    pub params: Vec<(String, ratatui_textarea::TextArea<'static>)>,
    pub focus: usize,
    pub error: Option<String>,
    pub completion: Vec<String>,
    /// Per completion, the loaded keys behind it.
    pub completion_counts: Vec<usize>,
    pub selected: usize,
}
