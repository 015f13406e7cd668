//! One request exactly as it was sent: the operation's `X-Amz-Target` and the JSON body of its
//! last attempt, pretty-printed with its members in the order they were sent.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::request_log::RequestRow;
use crate::app::sent_view::{sent_lines, sent_popup, sent_rows};

/// The request from row `scroll` of its wrapped text; when it is longer than the popup, the
/// title says which rows are shown and the bottom border what is cut off below.
pub fn draw(frame: &mut Frame, area: Rect, row: &RequestRow, scroll: usize) {
    let popup = sent_popup(area);
    let rows = sent_rows(popup);
    let all = sent_lines(row, popup.width.saturating_sub(2) as usize);
    let scroll = scroll.min(all.len().saturating_sub(rows));
    let end = (scroll + rows).min(all.len());
    let lines: Vec<Line> = all[scroll..end]
        .iter()
        .map(|(text, dim)| {
            if *dim {
                Line::styled(text.clone(), theme::dim())
            } else {
                Line::raw(text.clone())
            }
        })
        .collect();
    let cut = all.len() > rows;
    let title = if cut {
        format!(
            " Request {} as sent · rows {}–{end} of {} · ↑↓ PgUp PgDn · Esc closes ",
            row.number,
            scroll + 1,
            all.len()
        )
    } else {
        format!(" Request {} as sent · any key closes ", row.number)
    };
    let mut block = Block::bordered()
        .title(title)
        .border_style(theme::border(true));
    if end < all.len() {
        block = block.title_bottom(format!(" ▼ {} more rows below ", all.len() - end));
    } else if scroll > 0 {
        block = block.title_bottom(" ▲ end of the request ");
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    use super::draw;
    use crate::app::request_log::RequestRow;

    #[test]
    fn a_write_row_shows_its_own_operation_and_body() {
        let mut row = RequestRow::from_write(
            7,
            "UpdateItem",
            1,
            Default::default(),
            Duration::from_millis(3),
            &Default::default(),
            Some(r##"{"TableName":"app","ConditionExpression":"#a0 = :v0"}"##.into()),
        );
        row.number = 7;
        let mut terminal = Terminal::new(TestBackend::new(80, 12)).unwrap();
        terminal.draw(|f| draw(f, f.area(), &row, 0)).unwrap();
        let text = crate::ui::snapshot_tests::buffer_text(&terminal);
        assert!(
            text.contains("X-Amz-Target: DynamoDB_20120810.UpdateItem "),
            "{text}"
        );
        assert!(!text.contains("segment"), "{text}");
        assert!(
            text.contains(r##""ConditionExpression": "#a0 = :v0""##),
            "{text}"
        );
        insta::assert_snapshot!("write_row_as_sent", terminal.backend());
    }

    /// A body longer than the screen: the title says which rows show, the border what is
    /// below, and scrolled to its end the last member shows.
    #[test]
    fn a_long_body_scrolls_and_marks_the_cut() {
        let items: Vec<String> = (0..40)
            .map(|i| format!(r#"{{"PutRequest":{{"Item":{{"PK":{{"S":"USER#{i}"}}}}}}}}"#))
            .collect();
        let body = format!(
            r#"{{"RequestItems":{{"app":[{}]}},"last":"THE END"}}"#,
            items.join(",")
        );
        let mut row = RequestRow::from_write(
            3,
            "BatchWriteItem",
            40,
            Default::default(),
            Duration::from_millis(3),
            &Default::default(),
            Some(body.into()),
        );
        row.number = 3;
        let mut terminal = Terminal::new(TestBackend::new(80, 16)).unwrap();
        terminal.draw(|f| draw(f, f.area(), &row, 0)).unwrap();
        let top = crate::ui::snapshot_tests::buffer_text(&terminal);
        assert!(top.contains("rows 1–10 of "), "{top}");
        assert!(top.contains("more rows below"), "{top}");
        assert!(!top.contains("THE END"), "{top}");
        terminal
            .draw(|f| draw(f, f.area(), &row, usize::MAX))
            .unwrap();
        let bottom = crate::ui::snapshot_tests::buffer_text(&terminal);
        assert!(bottom.contains(r#""last": "THE END""#), "{bottom}");
        assert!(bottom.contains("end of the request"), "{bottom}");
        insta::assert_snapshot!("long_request_scrolled_to_its_end", terminal.backend());
    }
}
