//! One request exactly as it was sent: the operation's `X-Amz-Target` and the JSON body of its
//! last attempt, pretty-printed with its members in the order they were sent.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::theme;
use crate::app::request_log::RequestRow;
use crate::model::sanitize::sanitize;

pub fn draw(frame: &mut Frame, area: Rect, row: &RequestRow) {
    let popup = area.centered(
        Constraint::Length(area.width.saturating_sub(8).max(area.width.min(30))),
        Constraint::Length(area.height.saturating_sub(4).max(area.height.min(5))),
    );
    let target = match row.write {
        Some(write) => format!("POST / · X-Amz-Target: DynamoDB_20120810.{write}"),
        None => format!(
            "POST / · X-Amz-Target: DynamoDB_20120810.{} · segment {} · page {}",
            row.operation.as_str(),
            row.segment,
            row.page
        ),
    };
    let mut lines = vec![Line::styled(target, theme::dim()), Line::raw("")];
    match row.sent.as_deref() {
        Some(body) => {
            // Pretty-printed for reading; the members and values are the ones that were sent.
            let text = serde_json::from_str::<serde_json::Value>(body)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| body.to_string());
            lines.extend(text.lines().map(|l| Line::raw(sanitize(l).into_owned())));
        }
        None => lines.push(Line::styled(
            "the request body was not recorded for this row",
            theme::dim(),
        )),
    }
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }).block(
            Block::bordered()
                .title(format!(" Request {} as sent · any key closes ", row.number))
                .border_style(theme::border(true)),
        ),
        popup,
    );
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
        terminal.draw(|f| draw(f, f.area(), &row)).unwrap();
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
}
