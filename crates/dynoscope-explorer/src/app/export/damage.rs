//! An export's read found data files missing, cut short or damaged: each file's line (the one
//! `scan --export` prints) goes to the request log after the read's pages, the first to the
//! status line with how many more, and the report stays on the session so the title keeps
//! saying the export is incomplete and by how much.

use crate::app::request_log::RequestRow;
use crate::app::state::{Notice, State};
use crate::model::exports::table_export::IntegrityReport;

pub(crate) fn damaged(state: &mut State, request_id: u64, report: IntegrityReport) {
    let lines: Vec<(String, u64)> = report
        .troubled()
        .filter_map(|file| Some((file.message()?, file.read)))
        .collect();
    let Some((first, _)) = lines.first().cloned() else {
        return;
    };
    for (line, read) in &lines {
        state
            .log
            .push(RequestRow::file_problem(request_id, line.clone(), *read));
    }
    let more = match lines.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more data file: see the request log)".to_string(),
        n => format!(" (and {n} more data files: see the request log)"),
    };
    state.notice = Some(Notice {
        text: format!("{first}{more}"),
        error: true,
    });
    state.session.export_damage = Some(report);
}
