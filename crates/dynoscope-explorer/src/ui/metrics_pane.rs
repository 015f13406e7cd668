//! The metrics pane (`M`): the lines `app::metrics::lines` builds for the open table, styled,
//! from the pane's scroll position; the title says what refreshes and the bottom its keys.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::metrics::lines::{pane_lines, LineKind};
use crate::app::state::{MetricsPane, MetricsStatus};
use crate::model::text::sanitize::sanitize;

/// The pane between the title row and the status bar of `area`.
pub fn pane_area(area: Rect) -> Rect {
    Rect {
        y: area.y + 1,
        height: area.height.saturating_sub(2),
        ..area
    }
}

pub fn draw(frame: &mut Frame, area: Rect, table: &str, pane: &MetricsPane) {
    let area = pane_area(area);
    let status = match &pane.status {
        MetricsStatus::Loading => "loading".to_string(),
        MetricsStatus::Ready => format!("refresh {} · every minute", pane.refreshes),
        MetricsStatus::Denied(_) => "not allowed".to_string(),
        MetricsStatus::Failed(_) => "last refresh failed".to_string(),
    };
    let block = Block::bordered()
        .title(format!(" metrics · {} · {status} ", sanitize(table)))
        .title_bottom(match &pane.insights {
            Some(s) if !s.keys().is_empty() => {
                " ↑↓ key · Enter open its collection · PgUp/PgDn scroll · I hide insights · Esc/M close "
            }
            Some(_) => " ↑↓ PgUp/PgDn scroll · I hide insights · Esc/M close ",
            None => " ↑↓ PgUp/PgDn scroll · I Contributor Insights · Esc/M close ",
        })
        .border_style(theme::border(true));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let lines = pane_lines(pane, area.width.saturating_sub(2));
    let visible = inner.height as usize;
    let first = pane.scroll.min(lines.len().saturating_sub(visible));
    let text: Vec<Line> = lines
        .into_iter()
        .skip(first)
        .take(visible)
        .map(|l| {
            let style = match l.kind {
                LineKind::Heading => theme::header(),
                LineKind::Alarm => theme::error(),
                LineKind::Warn => theme::warning(),
                LineKind::Axis => theme::dim(),
                LineKind::Selected => theme::selected(),
                LineKind::Verdict | LineKind::Plain => ratatui::style::Style::default(),
            };
            Line::styled(l.text, style)
        })
        .collect();
    frame.render_widget(Paragraph::new(text), inner);
}
