//! What every dialog shares: its messages (an error, a refusal, a problem) wrapped at words to
//! the dialog's inner width, so the end of a message is never drawn outside its border, and
//! the dialog counts its height from the rows returned.

use ratatui::style::Style;
use ratatui::text::Line;

use crate::model::text::sanitize::sanitize;
use crate::model::text::wrap::word_wrap;

/// `text` (untrusted: sanitised here) as rows of at most `width` columns, `indent` included.
pub(super) fn message(text: &str, indent: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    let room = width.saturating_sub(indent.chars().count()).max(1);
    word_wrap(&sanitize(text), room)
        .into_iter()
        .map(|row| Line::styled(format!("{indent}{row}"), style))
        .collect()
}
