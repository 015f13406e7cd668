//! The live pane's geometry, shared by drawing and by `update` (which pages the tail list and
//! keeps its cursor visible). A pure function of the terminal size.

use ratatui::layout::{Constraint, Layout, Rect};

pub struct LiveLayout {
    /// The bordered pane: everything between the title bar and the status bar.
    pub pane: Rect,
    /// Events/s and WCU/s with their sparklines, and the totals: three rows.
    pub rates: Rect,
    /// Warnings and notes: two rows.
    pub notes: Rect,
    /// The rankings: a title row, a header row and the keys.
    pub rankings: Rect,
    /// The tail list: a header row and the changes.
    pub tail: Rect,
}

pub const RATE_ROWS: u16 = 3;
pub const NOTE_ROWS: u16 = 2;

pub fn live_layout(area: Rect) -> LiveLayout {
    let [_title, pane, _status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(1),
    ])
    .areas(area);
    let inner = Rect {
        x: pane.x + 1,
        y: pane.y + 1,
        width: pane.width.saturating_sub(2),
        height: pane.height.saturating_sub(2),
    };
    let keys = (inner.height / 5).clamp(2, 10);
    let [rates, notes, rankings, tail] = Layout::vertical([
        Constraint::Length(RATE_ROWS),
        Constraint::Length(NOTE_ROWS),
        Constraint::Length(2 + keys),
        Constraint::Min(2),
    ])
    .areas(inner);
    LiveLayout {
        pane,
        rates,
        notes,
        rankings,
        tail,
    }
}

/// Changes the tail list shows at once.
pub fn tail_rows(layout: &LiveLayout) -> usize {
    layout.tail.height.saturating_sub(1) as usize
}

/// Keys each ranking shows at once.
pub fn ranking_rows(layout: &LiveLayout) -> usize {
    layout.rankings.height.saturating_sub(2) as usize
}

/// Lines the change detail shows at once (it covers the pane's inside).
pub fn detail_rows(layout: &LiveLayout) -> usize {
    layout.pane.height.saturating_sub(2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_100x30_the_tail_gets_what_the_rates_and_rankings_leave() {
        let l = live_layout(Rect::new(0, 0, 100, 30));
        assert_eq!((l.pane.y, l.pane.height), (1, 28));
        assert_eq!(l.rates.height + l.notes.height, 5);
        assert_eq!(ranking_rows(&l), 5);
        assert_eq!(tail_rows(&l), 13);
        let tiny = live_layout(Rect::new(0, 0, 40, 8));
        assert!(tail_rows(&tiny) <= 1, "nothing overflows a tiny terminal");
    }
}
