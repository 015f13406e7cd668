//! Switching region (`R`) or profile (`A`) without restarting: a list to choose from, a new
//! connection made in the background, then the same table opened again there (or the table
//! list, from the picker). The request log and its totals carry on.

use crate::app::input::{Key, KeyCode};

use super::open::open_table;
use crate::app::explorer::running_read;
use crate::app::keymap::Action;
use crate::app::msg::{Effect, ReadEffect, SessionEffect, TableEffect};
use crate::app::state::{
    ConnectTarget, ConnectionInfo, Loadable, Notice, Overlay, Screen, State, SwitchKind, Switcher,
    SWITCHER_ROWS,
};
use crate::app::text_input::{edit_line, LineEdit};
use crate::model::formats::aws_profiles::looks_like_region;

pub(super) fn open_switcher(state: &mut State, kind: SwitchKind) -> Vec<Effect> {
    // An export's files are the source: another region or profile would not change them.
    if state.session.export.is_some() {
        state.notice = Some(Notice {
            text: "an export is read from its files: R and A do not apply; restart without --export to switch region or profile".into(),
            error: true,
        });
        return Vec::new();
    }
    if kind == SwitchKind::Profile && state.session.profiles.is_empty() {
        state.notice = Some(Notice {
            text: "no profiles in ~/.aws/config (or AWS_CONFIG_FILE)".into(),
            error: true,
        });
        return Vec::new();
    }
    let mut switcher = Switcher {
        kind,
        filter: String::new(),
        list: Default::default(),
    };
    // Start on the current one.
    let current = match kind {
        SwitchKind::Region => state.session.region.clone(),
        SwitchKind::Profile => state.session.profile.clone(),
    };
    let choices = state.session.choices(&switcher);
    if let Some(at) = choices.iter().position(|c| *c == current) {
        let len = choices.len();
        switcher.list.jump(at, len, SWITCHER_ROWS);
    }
    state.overlay = Some(Overlay::Switcher(switcher));
    Vec::new()
}

/// Keys while the switcher is open; `None` when it is not.
pub(super) fn switcher_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    let Some(Overlay::Switcher(s)) = state.overlay.as_mut() else {
        return None;
    };
    let choices: Vec<String> = state
        .session
        .choices(s)
        .into_iter()
        .map(String::from)
        .collect();
    let len = choices.len();
    match key.code {
        KeyCode::Up => s.list.move_by(-1, len, SWITCHER_ROWS),
        KeyCode::Down => s.list.move_by(1, len, SWITCHER_ROWS),
        _ => match edit_line(&mut s.filter, &key) {
            LineEdit::Cancelled => state.overlay = None,
            LineEdit::Edited => s.list = Default::default(),
            LineEdit::Other => {}
            LineEdit::Submitted => {
                let kind = s.kind;
                // A typed region not in the list is fine when it is spelled like one.
                let chosen = choices.get(s.list.cursor).cloned().or_else(|| {
                    (kind == SwitchKind::Region && looks_like_region(&s.filter))
                        .then(|| s.filter.clone())
                });
                let Some(chosen) = chosen else {
                    return Some(Vec::new());
                };
                state.overlay = None;
                return Some(connect(state, kind, chosen));
            }
        },
    }
    Some(Vec::new())
}

fn connect(state: &mut State, kind: SwitchKind, chosen: String) -> Vec<Effect> {
    let session = &mut state.session;
    let keep_region = session.region_chosen.then(|| session.region.clone());
    let keep_profile = session.profile_chosen.then(|| session.profile.clone());
    let target = match kind {
        SwitchKind::Region => ConnectTarget {
            region: Some(chosen.clone()),
            profile: keep_profile,
        },
        SwitchKind::Profile => ConnectTarget {
            region: keep_region,
            profile: Some(chosen.clone()),
        },
    };
    session.generation += 1;
    let generation = session.generation;
    let label = match kind {
        SwitchKind::Region => format!("region {chosen}"),
        SwitchKind::Profile => format!("profile {chosen}"),
    };
    session.connecting = Some((generation, label.clone()));
    state.notice = Some(Notice {
        text: format!("connecting with {label}…"),
        error: false,
    });
    vec![Effect::Session(SessionEffect::Connect {
        generation,
        target,
    })]
}

pub(super) fn connected(
    state: &mut State,
    generation: u64,
    result: Result<ConnectionInfo, String>,
) -> Vec<Effect> {
    let Some((pending, label)) = state.session.connecting.clone() else {
        return Vec::new();
    };
    if pending != generation {
        return Vec::new();
    }
    state.session.connecting = None;
    let info = match result {
        Ok(info) => info,
        Err(e) => {
            state.notice = Some(Notice {
                text: format!("cannot switch to {label}: {e}"),
                error: true,
            });
            return Vec::new();
        }
    };
    let mut effects: Vec<Effect> = running_read(state)
        .map(|x| Effect::Read(ReadEffect::Cancel(x)))
        .into_iter()
        .collect();
    effects.push(Effect::Session(SessionEffect::UseConnection(generation)));
    let session = &mut state.session;
    if label.starts_with("region") {
        session.region_chosen = true;
    } else {
        session.profile_chosen = true;
    }
    session.region = info.region;
    session.profile = info.profile;
    state.endpoint = info.endpoint;
    // Another region or account: nothing known about the old one's tables applies.
    state.picker.describes.clear();
    let mut text = format!(
        "now {} · profile {}",
        state.session.region, state.session.profile
    );
    // The runner drops its writer on a switch (it was made for the old connection): writes
    // enabled for one account must never reach another without being asked for again.
    if state.writes_enabled {
        state.writes_enabled = false;
        text.push_str(" · writes are off: restart with --allow-writes to write here");
    }
    state.notice = Some(Notice { text, error: false });
    match (state.screen, state.table.take()) {
        (Screen::Table, Some(view)) => effects.extend(open_table(state, view.name)),
        _ => {
            state.picker.tables = Some(Loadable::Loading);
            effects.push(Effect::Tables(TableEffect::List));
        }
    }
    effects
}

/// `R` and `A` on the table screen: the region or the profile switcher.
pub(super) fn switch_action(state: &mut State, action: Action) -> Vec<Effect> {
    let kind = match action {
        Action::SwitchProfile => SwitchKind::Profile,
        _ => SwitchKind::Region,
    };
    open_switcher(state, kind)
}
