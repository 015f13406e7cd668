//! The bulk dialog (`B`): the action's fields, the preview (`partiql`'s dry-run text), the
//! run's progress and tally with its conflicts and journal, and the undo's preview (`U`).
//! Item text and paths go through the sanitiser.

use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};
use ratatui::Frame;

use super::theme;
use crate::app::state::{
    resume_command, BulkChoice, BulkDialog, BulkEnded, BulkField, BulkRun, BulkStage,
};
use crate::model::design::schema::TableInfo;
use crate::model::formats::json::{append_dynamo_json, append_plain_json};
use crate::model::text::sanitize::{sanitize, truncate_display};
use crate::model::text::wording::count;
use crate::model::traffic::capacity::format_units;
use crate::model::write::key_of;

/// Conflicts and failures listed by key; the journal holds them all.
const LISTED: usize = 8;

fn title(d: &BulkDialog) -> String {
    match &d.stage {
        BulkStage::Edit { .. } | BulkStage::Preview { .. } if d.scope == "listed" => format!(
            " Bulk write: {} listed (none marked) ",
            count(d.items.len() as u64, "item")
        ),
        BulkStage::Edit { .. } | BulkStage::Preview { .. } => format!(
            " Bulk write: {} {} ",
            count(d.items.len() as u64, "item"),
            d.scope
        ),
        BulkStage::UndoPreview { .. } => " Undo the last bulk run? ".into(),
        BulkStage::Run(run) => {
            let what = if run.undo {
                "Undo".to_string()
            } else {
                format!("Bulk {}", run.verb())
            };
            match &run.ended {
                None if run.stopping => format!(" {what}: stopping… "),
                None => format!(" {what}: running… "),
                Some(BulkEnded::Complete) => format!(" {what}: done "),
                Some(BulkEnded::Stopped(_)) => format!(" {what}: stopped "),
                Some(BulkEnded::Failed(_)) => format!(" {what}: failed "),
            }
        }
    }
}

fn hint(d: &BulkDialog, writes: bool) -> &'static str {
    match &d.stage {
        BulkStage::Edit { .. } => " Tab next field · ←/→ action · Enter preview · Esc closes ",
        BulkStage::Preview { .. } if !writes => " Esc back to the action ",
        BulkStage::Preview { .. } => {
            " Enter runs it, each item only if unchanged since loaded · Esc back "
        }
        BulkStage::UndoPreview { .. } if !writes => " Esc drops the undo ",
        BulkStage::UndoPreview { .. } => " Enter restores them · Esc drops the undo ",
        BulkStage::Run(run) if run.running() && run.stopping => " stopping before the next item… ",
        BulkStage::Run(run) if run.running() => " Esc stops before the next item ",
        BulkStage::Run(run) if !run.undo && !run.written.is_empty() => {
            " Esc closes · U undoes the run "
        }
        BulkStage::Run(_) => " Esc closes ",
    }
}

fn field_line(label: &str, text: &str, focused: bool, width: usize) -> Line<'static> {
    let style = if focused {
        theme::selected()
    } else {
        Style::default()
    };
    let shown = truncate_display(&sanitize(text), width.saturating_sub(16)).into_owned();
    let cursor = if focused { "▏" } else { "" };
    Line::from(vec![
        Span::styled(format!(" {label:<11}"), theme::header()),
        Span::styled(format!("{shown}{cursor}"), style),
    ])
}

fn edit_body(d: &BulkDialog, error: Option<&String>, width: usize) -> Vec<Line<'static>> {
    let mut spans = vec![Span::styled(format!(" {:<11}", "Action"), theme::header())];
    for (choice, name) in [
        (BulkChoice::Set, "Set an attribute"),
        (BulkChoice::Remove, "Remove an attribute"),
        (BulkChoice::Delete, "Delete the items"),
    ] {
        let style = match (choice == d.choice, d.field == BulkField::Action) {
            (true, true) => theme::selected(),
            (true, false) => theme::header(),
            _ => theme::dim(),
        };
        let mark = if choice == d.choice { "●" } else { "○" };
        spans.push(Span::styled(format!("{mark} {name}"), style));
        spans.push(Span::raw("  "));
    }
    let mut lines = vec![Line::from(spans)];
    let fields = d.fields();
    if fields.contains(&BulkField::Name) {
        lines.push(field_line(
            "Attribute",
            &d.name,
            d.field == BulkField::Name,
            width,
        ));
    }
    if fields.contains(&BulkField::Value) {
        lines.push(field_line(
            "Value",
            &d.value,
            d.field == BulkField::Value,
            width,
        ));
        lines.push(Line::styled(
            "            \"DONE\", 12.5, true, null, [..] or DynamoDB JSON: {\"SS\":[\"a\"]}, {\"B\":\"AAE=\"}",
            theme::dim(),
        ));
    }
    if d.choice == BulkChoice::Delete {
        lines.push(Line::styled(
            " Each item is deleted only if it is still as loaded.",
            theme::dim(),
        ));
    }
    if let Some(e) = error {
        lines.push(Line::raw(""));
        lines.extend(super::dialog::message(e, " ", width, theme::error()));
    }
    lines
}

/// The preview's text, each line wrapped at words under its own indent: nothing of it is cut.
fn text_lines(text: &str, width: usize) -> Vec<Line<'static>> {
    text.lines()
        .flat_map(|l| {
            let body = l.trim_start();
            let indent = format!(" {}", &l[..l.len() - body.len()]);
            super::dialog::message(body, &indent, width, Style::default())
        })
        .collect()
}

fn key_text(d: &BulkRun, index: usize, info: Option<&TableInfo>) -> String {
    let item = &d.items[index].before;
    let mut out = String::new();
    match info {
        Some(info) => append_dynamo_json(&mut out, &key_of(item, &info.keys)),
        None => append_dynamo_json(&mut out, item),
    }
    out
}

fn run_body(run: &BulkRun, info: Option<&TableInfo>, width: usize) -> Vec<Line<'static>> {
    let p = &run.progress;
    let mut lines = Vec::new();
    let (done_word, conflict_word) = if run.undo {
        ("restored", "changed since the run")
    } else {
        ("written", "conflicts skipped")
    };
    lines.push(Line::styled(
        format!(
            " {} of {}: {} {done_word}, {} unchanged, {} {conflict_word}, {} failed · {} WCU",
            p.finished(),
            count(run.total as u64, "item"),
            p.done,
            p.unchanged,
            p.conflicts,
            p.failed,
            format_units(p.units)
        ),
        theme::header(),
    ));
    let bar_width = width.saturating_sub(40).clamp(10, 40);
    let filled = (p.finished() * bar_width)
        .checked_div(run.total)
        .unwrap_or(bar_width);
    let mut timing = format!(
        " [{}{}] {:.1} s",
        "█".repeat(filled),
        "░".repeat(bar_width - filled.min(bar_width)),
        p.elapsed_ms as f64 / 1000.0
    );
    if run.running() {
        if let Some(eta) = p.eta_secs(run.total) {
            timing.push_str(&format!(" · about {eta:.1} s left"));
        }
    }
    if p.throttles > 0 {
        timing.push_str(&format!(" · {} throttled attempts retried", p.throttles));
    }
    lines.push(Line::raw(timing));
    if let Some(journal) = &run.journal {
        lines.push(Line::raw(format!(
            " journal: {}",
            truncate_display(&sanitize(journal), width.saturating_sub(10))
        )));
    }
    match &run.ended {
        None if run.stopping => lines.push(Line::styled(
            " stopping: the item in flight ends and is journaled, then the run stops",
            theme::warning(),
        )),
        None => {}
        Some(BulkEnded::Complete) => lines.push(Line::styled(" done.", theme::header())),
        Some(BulkEnded::Stopped(why) | BulkEnded::Failed(why)) => {
            lines.extend(super::dialog::message(
                &format!("stopped: {why}"),
                " ",
                width,
                theme::error(),
            ));
            let next = match (&run.journal, run.undo) {
                (_, true) => {
                    "U again restores the rest (items already restored are recognised)".to_string()
                }
                (Some(journal), false) => format!(
                    "continue it with: {}",
                    resume_command(run.verb(), info.map_or("", |i| i.name.as_str()), journal)
                ),
                (None, false) => "nothing was written".to_string(),
            };
            lines.extend(super::dialog::message(&next, " ", width, theme::warning()));
        }
    }
    if !run.conflicts.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!(
                " {} changed since {} and left alone:",
                count(run.conflicts.len() as u64, "item"),
                if run.undo { "the run" } else { "loaded" }
            ),
            theme::warning(),
        ));
        for (index, current) in run.conflicts.iter().take(LISTED) {
            let mut now = String::new();
            match current {
                Some(item) => append_plain_json(&mut now, item),
                None => now.push_str("(gone)"),
            }
            let row = format!("   {} now {now}", key_text(run, *index, info));
            lines.push(Line::raw(
                truncate_display(&sanitize(&row), width).into_owned(),
            ));
        }
        if run.conflicts.len() > LISTED {
            lines.push(Line::styled(
                format!(
                    "   … and {} more (in the journal)",
                    run.conflicts.len() - LISTED
                ),
                theme::dim(),
            ));
        }
    }
    if !run.failures.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!(" {} not written:", count(run.failures.len() as u64, "item")),
            theme::error(),
        ));
        for (index, why) in run.failures.iter().take(LISTED) {
            let row = format!("   {}: {why}", key_text(run, *index, info));
            lines.push(Line::raw(
                truncate_display(&sanitize(&row), width).into_owned(),
            ));
        }
    }
    lines
}

fn body(
    d: &BulkDialog,
    info: Option<&TableInfo>,
    writes: bool,
    width: usize,
) -> Vec<Line<'static>> {
    match &d.stage {
        BulkStage::Edit { error } => edit_body(d, error.as_ref(), width),
        BulkStage::Preview { text, .. } | BulkStage::UndoPreview { text, .. } => {
            let mut lines = text_lines(text, width);
            lines.push(Line::raw(""));
            if writes && matches!(d.stage, BulkStage::UndoPreview { .. }) {
                lines.push(Line::styled(
                    " nothing is written until Enter",
                    theme::dim(),
                ));
            } else if writes {
                lines.push(Line::styled(
                    " nothing is written until Enter; a journal under the state directory records every item",
                    theme::dim(),
                ));
            } else {
                lines.extend(super::dialog::message(
                    "writes are off: nothing is sent. Start dynoscope with --allow-writes (and --max-wcu/--wcu-per-second to budget it) to run it",
                    " ",
                    width,
                    theme::error(),
                ));
            }
            lines
        }
        BulkStage::Run(run) => run_body(run, info, width),
    }
}

pub(super) fn draw_bulk(
    frame: &mut Frame,
    area: Rect,
    d: &BulkDialog,
    info: Option<&TableInfo>,
    writes: bool,
) {
    let width = area.width.saturating_sub(4).min(110);
    let inner = width.saturating_sub(4) as usize;
    let lines = body(d, info, writes, inner);
    let height = (lines.len() as u16 + 2).clamp(6, area.height.saturating_sub(2));
    let popup = area.centered(Constraint::Length(width), Constraint::Length(height));
    let scroll = d.scroll.min(lines.len().saturating_sub(1));
    let border = match &d.stage {
        BulkStage::Run(run)
            if matches!(
                run.ended,
                Some(BulkEnded::Stopped(_) | BulkEnded::Failed(_))
            ) =>
        {
            theme::error()
        }
        _ => theme::warning(),
    };
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).scroll((scroll as u16, 0)).block(
            Block::bordered()
                .title(title(d))
                .title_bottom(hint(d, writes))
                .border_style(border),
        ),
        popup,
    );
}
