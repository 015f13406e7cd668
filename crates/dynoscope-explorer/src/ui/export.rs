//! The export dialog: scope (with how many items each writes), format, CSV columns, path.

use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::format::{count as counted, thousands};
use super::theme;
use crate::app::state::{CsvChoice, ExportDialog, ExportField, ExportScope, ExportStage};
use crate::model::text::sanitize::sanitize;

pub(super) fn draw_export(frame: &mut Frame, area: Rect, d: &ExportDialog) {
    let width = 76.min(area.width);
    let error = d.error.as_deref().map_or_else(Vec::new, |e| {
        super::dialog::message(e, " ", usize::from(width.saturating_sub(2)), theme::error())
    });
    let extra = d.completions.len().min(4) as u16 + error.len() as u16;
    // The design document asks for its path alone: no scope, format or columns.
    let height = (if d.design { 5 } else { 14 } + extra).min(area.height);
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let focus = |field: ExportField| {
        if d.field == field && d.stage == ExportStage::Editing {
            theme::selected()
        } else {
            Default::default()
        }
    };
    let mut lines = vec![Line::styled(" What", theme::header())];
    if d.design {
        let loaded = counted(d.counts[3].unwrap_or(0) as u64, "item");
        lines.push(Line::raw(format!(
            "  the design document of everything loaded ({loaded}): Markdown"
        )));
    }
    for (scope, count) in ExportScope::ALL
        .into_iter()
        .zip(d.counts)
        .filter(|_| !d.design)
    {
        let chosen = scope == d.scope;
        let marker = if chosen { "(•)" } else { "( )" };
        let count = match count {
            Some(n) if scope == ExportScope::Stream => {
                format!("{} loaded + the rest", thousands(n as u64))
            }
            Some(n) => counted(n as u64, "item"),
            None => "nothing".into(),
        };
        let style = match (chosen, count == "nothing") {
            (true, _) => focus(ExportField::Scope),
            (false, true) => theme::dim(),
            (false, false) => Default::default(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  {marker} {:<32}", scope.label()), style),
            Span::styled(count, theme::dim()),
        ]));
    }
    lines.extend((!d.design).then(|| {
        Line::from(vec![
            Span::styled(" Format   ", theme::header()),
            Span::styled(
                format!("◂ {} ▸", d.format.name()),
                focus(ExportField::Format),
            ),
        ])
    }));
    if d.format == crate::model::exports::export::ExportFormat::Csv && !d.design {
        let columns = match d.columns {
            CsvChoice::Shown => "key attributes + the items pane's columns",
            CsvChoice::All => "all attributes",
        };
        lines.push(Line::from(vec![
            Span::styled(" Columns  ", theme::header()),
            Span::styled(format!("◂ {columns} ▸"), focus(ExportField::Columns)),
        ]));
    }
    lines.push(Line::from(vec![
        Span::styled(" Path     ", theme::header()),
        Span::styled(sanitize(&d.path).into_owned(), focus(ExportField::Path)),
        Span::styled(
            if d.field == ExportField::Path {
                "█"
            } else {
                ""
            },
            theme::dim(),
        ),
    ]));
    for dir in d.completions.iter().take(4) {
        lines.push(Line::styled(
            format!("          {}", sanitize(dir)),
            theme::dim(),
        ));
    }
    lines.extend(error);
    let hint = match d.stage {
        ExportStage::Editing if d.design => " Tab completes · Ctrl-U clears · Enter writes · Esc ",
        ExportStage::Editing => {
            " ↑↓ field · ←→ choose · Tab completes · Ctrl-U clears · Enter exports · Esc "
        }
        ExportStage::Checking => " checking the path… ",
        ExportStage::ConfirmOverwrite => {
            " the file exists: y replaces it, any other key goes back "
        }
    };
    let border = if d.stage == ExportStage::ConfirmOverwrite {
        theme::warning()
    } else {
        theme::border(true)
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(
            Block::bordered()
                .title(if d.design {
                    " Design document "
                } else {
                    " Export "
                })
                .title_bottom(hint)
                .border_style(border),
        ),
        popup,
    );
}
