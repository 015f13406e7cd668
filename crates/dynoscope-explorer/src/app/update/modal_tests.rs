//! The one dialog over a table (`Modal`) and the one overlay over everything (`Overlay`): the
//! keys go to the dialog that is drawn, and the budget prompt a read asks for by itself
//! replaces only a one-line prompt.

use crate::app::input::KeyCode;

use super::scan_tests::{launch_budgeted, segment_page};
use crate::app::fixtures::*;
use crate::app::state::{IndexChooser, Modal, Prompt, State};
use crate::model::engine::DoneOutcome;

/// A budgeted scan upgraded by `L` while its first page loads, with `modal` open over it when
/// the page ends: the read then asks for a new budget by itself.
fn budget_asked_over(modal: Modal) -> State {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    let id = launch_budgeted(&mut s, "10");
    let view = s.table.as_mut().unwrap();
    view.view.read.as_mut().unwrap().continuous = true;
    view.modal = Some(modal);
    let items = demo_items();
    send(
        &mut s,
        [
            segment_page(id, 0, items[..50].to_vec(), true, 1_000),
            done(id),
        ],
    );
    s
}

fn done(id: u64) -> crate::app::msg::Msg {
    super::scan_tests::done(id, DoneOutcome::Complete)
}

#[test]
fn the_budget_prompt_takes_over_a_one_line_prompt() {
    let s = budget_asked_over(Modal::FilterPrompt(Prompt::default()));
    let view = s.table.as_ref().unwrap();
    assert!(view.budget_prompt().is_some(), "{:?}", view.modal);
}

#[test]
fn the_budget_prompt_leaves_a_dialog_open_and_n_asks_again_once_it_is_closed() {
    let mut s = budget_asked_over(Modal::IndexChooser(IndexChooser::default()));
    let view = s.table.as_ref().unwrap();
    assert!(view.index_chooser().is_some(), "the chooser keeps the keys");
    assert!(view.budget_prompt().is_none());
    // Esc goes to the chooser that is drawn, not to a prompt hidden under it.
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().modal.is_none());
    let effects = send(&mut s, [char('n')]);
    assert!(effects.is_empty(), "nothing is read without a budget");
    assert_eq!(
        s.table.as_ref().unwrap().budget_prompt().unwrap().text,
        "10"
    );
}

#[test]
fn keys_go_to_the_open_dialog_only() {
    let (mut s, _) = opened();
    // `/` opens the filter prompt; typed keys edit it and apply as typed.
    send(&mut s, [char('/')]);
    assert!(s.table.as_ref().unwrap().filter_prompt().is_some());
    send(&mut s, [char('q')]);
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.view.filter, "q", "q is text in the prompt, not quit");
    assert!(!s.quit);
}

/// Over everything sits at most one overlay, and it takes the keys: `?` in the region
/// switcher is typed into its filter, not the help opened over it; Esc closes it and the
/// table's keys work again.
#[test]
fn the_one_overlay_takes_the_keys_it_is_drawn_for() {
    use crate::app::state::Overlay;
    let mut s = loaded(false);
    send(&mut s, [char('R')]);
    assert!(matches!(s.overlay, Some(Overlay::Switcher(_))));
    send(&mut s, [char('?')]);
    assert_eq!(s.switcher().map(|w| w.filter.as_str()), Some("?"));
    assert!(s.help_scroll().is_none());
    send(&mut s, [press(KeyCode::Esc), char('?')]);
    assert_eq!(s.overlay, Some(Overlay::Help { scroll: 0 }));
}
