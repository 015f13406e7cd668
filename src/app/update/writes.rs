//! Writes (issue 13): stub until the write flow lands.

use crate::app::keymap::Action;
use crate::app::msg::Effect;
use crate::app::state::{Notice, State};

pub(super) fn write_action(state: &mut State, _action: Action) -> Vec<Effect> {
    state.notice = Some(Notice {
        text: "writes are off: start dynoscope with --allow-writes".into(),
        error: true,
    });
    Vec::new()
}
