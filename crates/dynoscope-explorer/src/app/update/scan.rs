//! The triage scan launcher: editing its fields, confirming, and launching the scan.

use crate::app::input::{Key, KeyCode};

use crate::app::msg::Effect;
use crate::app::reads::launch_scan;
use crate::app::state::{LauncherField, Modal, Notice, ScanLauncher, State};

// ---------------------------------------------------------------- update

pub(super) fn open_launcher(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = v.info.loaded().cloned() else {
        return Vec::new();
    };
    let index = info.target_position(v.view.index.as_deref());
    let mut launcher = ScanLauncher::new(&info, index);
    launcher.plan = launcher.plan(
        &info,
        state.config.price_per_million_reads,
        state.config.confirm_scan_rcu,
    );
    v.modal = Some(Modal::Launcher(launcher));
    Vec::new()
}

pub(super) fn launcher_key(state: &mut State, key: Key) -> Vec<Effect> {
    let price = state.config.price_per_million_reads;
    let confirm_over = state.config.confirm_scan_rcu;
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = v.info.loaded().cloned() else {
        return Vec::new();
    };
    let Some(l) = v.modal.as_mut().and_then(Modal::launcher_mut) else {
        return Vec::new();
    };
    let at = LauncherField::ALL
        .iter()
        .position(|f| *f == l.focus)
        .unwrap_or(0);
    match key.code {
        KeyCode::Esc => {
            v.modal = None;
            return Vec::new();
        }
        KeyCode::Tab | KeyCode::Down => {
            l.focus = LauncherField::ALL[(at + 1) % LauncherField::ALL.len()]
        }
        KeyCode::BackTab | KeyCode::Up => {
            l.focus =
                LauncherField::ALL[(at + LauncherField::ALL.len() - 1) % LauncherField::ALL.len()]
        }
        KeyCode::Left | KeyCode::Right if l.focus.is_selector() => {
            let forward = key.code == KeyCode::Right;
            match l.focus {
                LauncherField::Index => {
                    let n = info.indexes.len() + 1;
                    l.index = if forward {
                        (l.index + 1) % n
                    } else {
                        (l.index + n - 1) % n
                    };
                }
                _ => l.consistent = !l.consistent,
            }
            l.confirming = false;
        }
        KeyCode::Enter => {
            let plan = match &l.plan {
                Ok(p) => p.clone(),
                Err((field, message)) => {
                    state.notice = Some(Notice {
                        text: format!("{}: {message}", field.label()),
                        error: true,
                    });
                    return Vec::new();
                }
            };
            if plan.needs_confirmation && !l.confirming {
                l.confirming = true;
                return Vec::new();
            }
            return launch_scan(state, plan);
        }
        _ => {
            let field = l.focus;
            if let Some(input) = l.input_mut(field) {
                if input.input(key) {
                    l.confirming = false;
                }
            }
        }
    }
    l.plan = l.plan(&info, price, confirm_over);
    Vec::new()
}

/// Pasted text into the launcher's focused field (all one line), as if typed.
pub(super) fn paste(state: &mut State, text: &str) -> Vec<Effect> {
    let (price, confirm_over) = (
        state.config.price_per_million_reads,
        state.config.confirm_scan_rcu,
    );
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = v.info.loaded().cloned() else {
        return Vec::new();
    };
    let Some(l) = v.modal.as_mut().and_then(Modal::launcher_mut) else {
        return Vec::new();
    };
    let field = l.focus;
    if let Some(input) = l.input_mut(field) {
        if crate::app::text_input::paste_area(input, text, false) {
            l.confirming = false;
        }
    }
    l.plan = l.plan(&info, price, confirm_over);
    Vec::new()
}
