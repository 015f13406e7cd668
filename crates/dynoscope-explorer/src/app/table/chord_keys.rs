//! The `g` prefix (see `table::chord`): `g` goes to the top at once and waits a moment for
//! `r`, which follows the selected related collection from where the cursor was.
//!
//! Why not wait for the second key before moving: `g` has always gone to the top at once, and
//! a `g` that only moves after a timeout feels broken; restoring the cursors on `r` costs one
//! frame showing the top.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::derived::refilter_items;
use super::navigation::move_cursor;
use super::walk::{follow_related, refresh_related};
use crate::app::msg::{Effect, Timer, TimerEffect};
use crate::app::state::{CursorsBefore, PendingChord, State, CHORD_TIMEOUT};

/// `g`: to the top, and the chord armed.
pub(crate) fn top_and_arm(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    let before = CursorsBefore {
        collections: view.view.collections,
        items: view.view.items,
        detail_scroll: view.view.detail_scroll,
        related: view.view.related.list,
    };
    let mut effects = move_cursor(state, isize::MIN / 2);
    state.chord.generation += 1;
    let generation = state.chord.generation;
    state.chord.pending = Some(PendingChord { generation, before });
    effects.push(Effect::Timer(TimerEffect::After {
        timer: Timer::Chord(generation),
        delay: CHORD_TIMEOUT,
    }));
    effects
}

/// The key after `g`: `r` follows, `g` is `g g` (already at the top); `None` for any other
/// key, which is then handled as itself.
pub(crate) fn chord_key(state: &mut State, key: &Key) -> Option<Vec<Effect>> {
    let pending = state.chord.pending.take()?;
    let plain = key.modifiers.difference(Modifiers::SHIFT).is_empty();
    match key.code {
        KeyCode::Char('r') if plain => {
            restore(state, pending.before);
            Some(follow_related(state))
        }
        KeyCode::Char('g') if plain => Some(Vec::new()),
        _ => None,
    }
}

pub(crate) fn chord_expired(state: &mut State, generation: u64) {
    if state
        .chord
        .pending
        .is_some_and(|p| p.generation == generation)
    {
        state.chord.pending = None;
    }
}

fn restore(state: &mut State, before: CursorsBefore) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let moved_collection = view.view.collections != before.collections;
    view.view.collections = before.collections;
    view.view.items = before.items;
    view.view.detail_scroll = before.detail_scroll;
    if moved_collection {
        refilter_items(state);
    }
    // The links of the item selected before `g`, with the link selected then: they need the
    // restored collection's items now, not after the message.
    super::derived::refresh(state);
    refresh_related(state);
    if let Some(view) = state.table.as_mut() {
        if before.related.cursor < view.view.related.links.len() {
            view.view.related.list = before.related;
        }
    }
}
