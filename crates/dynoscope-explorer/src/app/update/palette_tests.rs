//! The palette through `update`: what it lists and why a row is greyed, how typing ranks it,
//! recent rows first, and Enter running exactly what the action's key runs.

use super::{rank, RECENT_BONUS};
use crate::app::fixtures::*;
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::keymap::Action;
use crate::app::msg::{InputMsg, Msg};
use crate::app::state::{Modal, Palette, PaletteEntry, PaletteRow, PaletteScope, State};
use crate::model::design::access_pattern::parse_patterns_file;

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

fn typed(text: &str) -> Vec<Msg> {
    text.chars().map(char).collect()
}

fn palette(s: &State) -> &Palette {
    s.table
        .as_ref()
        .unwrap()
        .palette()
        .expect("the palette is open")
}

fn entries(s: &State) -> Vec<PaletteEntry> {
    palette(s).rows.iter().map(|r| r.entry).collect()
}

fn row(s: &State, action: Action) -> PaletteRow {
    palette(s)
        .rows
        .iter()
        .find(|r| r.entry == PaletteEntry::Action(action))
        .cloned()
        .unwrap_or_else(|| panic!("{action} listed"))
}

fn with_patterns(mut s: State) -> State {
    s.patterns = parse_patterns_file(
        include_str!("../../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    s
}

fn candidate(action: Action, text: &str) -> (PaletteRow, String) {
    let row = PaletteRow {
        entry: PaletteEntry::Action(action),
        label: text.into(),
        detail: String::new(),
        keys: String::new(),
        unavailable: None,
    };
    (row, text.into())
}

#[test]
fn ctrl_p_lists_every_action_with_its_keys_and_the_tables_patterns() {
    let mut s = with_patterns(loaded(false));
    send(&mut s, [ctrl('p')]);
    let p = palette(&s);
    assert_eq!(p.scope, PaletteScope::Everything);
    let actions = entries(&s)
        .iter()
        .filter(|e| matches!(e, PaletteEntry::Action(_)))
        .count();
    // Every action but the palette itself, and the demo table's six patterns.
    assert_eq!(actions, Action::ALL.len() - 1);
    assert_eq!(p.rows.len() - actions, 6);
    let quit = row(&s, Action::Quit);
    assert_eq!(quit.keys, "q, ctrl-c");
    assert_eq!(quit.label, Action::Quit.help());
}

#[test]
fn rows_say_why_an_action_does_nothing_here() {
    let mut s = loaded(false);
    send(&mut s, [ctrl('p')]);
    assert_eq!(
        row(&s, Action::Edit).unavailable.as_deref(),
        Some("needs --allow-writes")
    );
    assert_eq!(
        row(&s, Action::NavBack).unavailable.as_deref(),
        Some("no previous view")
    );
    assert_eq!(
        row(&s, Action::Patterns).unavailable.as_deref(),
        Some("no access patterns for this table")
    );
    // The fixture's table has no stream.
    assert_eq!(
        row(&s, Action::Live).unavailable.as_deref(),
        Some("no stream on this table")
    );
    assert_eq!(row(&s, Action::Rescan).unavailable, None);
    assert_eq!(
        row(&s, Action::LoadMore).unavailable.as_deref(),
        Some("nothing more to read")
    );

    let mut s = loaded(true);
    s.writes_enabled = true;
    s.table.as_mut().unwrap().info = crate::app::state::Loadable::Loaded({
        let mut info = s.table_info().unwrap();
        info.stream = Some("NEW_AND_OLD_IMAGES".into());
        info
    });
    send(&mut s, [ctrl('p')]);
    assert_eq!(row(&s, Action::Edit).unavailable, None);
    assert_eq!(row(&s, Action::Live).unavailable, None);
    assert_eq!(row(&s, Action::LoadMore).unavailable, None);
    assert_eq!(
        row(&s, Action::Undo).unavailable.as_deref(),
        Some("nothing to undo")
    );
}

#[test]
fn typing_filters_by_the_words_of_name_and_description() {
    let mut s = loaded(false);
    send(&mut s, [ctrl('p')]);
    send(&mut s, typed("scan again"));
    assert_eq!(entries(&s)[0], PaletteEntry::Action(Action::Rescan));
    assert!(entries(&s).len() < 5, "{:?}", entries(&s));
    // The action's name counts as words too: `nav back`.
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("nav back"));
    assert_eq!(entries(&s)[0], PaletteEntry::Action(Action::NavBack));
    // Letters in order across a word: "ky dist" finds the key distribution.
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("ky dist"));
    assert_eq!(
        entries(&s)[0],
        PaletteEntry::Action(Action::KeyDistribution)
    );
    // Nothing matches: no rows; Backspace widens again.
    send(&mut s, typed("zzq"));
    assert!(entries(&s).is_empty());
    send(&mut s, (0..3).map(|_| press(KeyCode::Backspace)));
    assert_eq!(
        entries(&s)[0],
        PaletteEntry::Action(Action::KeyDistribution)
    );
}

#[test]
fn ranking_prefers_whole_words_then_recent_then_the_keymaps_order() {
    let candidates = || {
        vec![
            candidate(Action::Copy, "Show changes as numbers"),
            candidate(Action::Rescan, "Scan again from the start"),
            candidate(Action::ScanLauncher, "Launch a parallel scan"),
            candidate(Action::Quit, "Quit dynoscope"),
        ]
    };
    let order = |rows: Vec<PaletteRow>| rows.into_iter().map(|r| r.entry).collect::<Vec<_>>();
    use PaletteEntry::Action as A;
    // Whole words first, the keymap's order between equals; "Quit" does not match.
    assert_eq!(
        order(rank(candidates(), "scan", &[])),
        [A(Action::Rescan), A(Action::ScanLauncher), A(Action::Copy)]
    );
    // A recent row leads among similar matches, not over a much better one.
    assert_eq!(
        order(rank(candidates(), "scan", &[A(Action::ScanLauncher)])),
        [A(Action::ScanLauncher), A(Action::Rescan), A(Action::Copy)]
    );
    let whole = crate::model::text::fuzzy::score("scan", "Scan again").unwrap();
    let scattered = crate::model::text::fuzzy::score("scan", "Show changes as numbers").unwrap();
    assert!(scattered + RECENT_BONUS < whole);
    assert_eq!(
        order(rank(candidates(), "scan", &[A(Action::Copy)]))[0],
        A(Action::Rescan)
    );
    // Nothing typed: the most recent first, then the keymap's order.
    assert_eq!(
        order(rank(
            candidates(),
            "",
            &[A(Action::Quit), A(Action::Rescan)]
        )),
        [
            A(Action::Quit),
            A(Action::Rescan),
            A(Action::Copy),
            A(Action::ScanLauncher)
        ]
    );
}

#[test]
fn what_the_palette_ran_comes_first_next_time() {
    let mut s = loaded(false);
    send(&mut s, [ctrl('p')]);
    send(&mut s, typed("order the collections"));
    send(&mut s, [press(KeyCode::Enter)]);
    send(&mut s, [ctrl('p')]);
    send(&mut s, typed("key distribution"));
    send(&mut s, [press(KeyCode::Enter), press(KeyCode::Esc)]);
    send(&mut s, [ctrl('p')]);
    assert_eq!(
        entries(&s)[..2],
        [
            PaletteEntry::Action(Action::KeyDistribution),
            PaletteEntry::Action(Action::CollectionOrder)
        ]
    );
}

/// Enter on a row does what the action's key does: the same effects, the same dialog.
#[test]
fn enter_runs_the_action_its_key_runs() {
    for (key, words, action) in [
        (char('r'), "scan again", Action::Rescan),
        (char('x'), "export", Action::Export),
        (char('?'), "help", Action::Help),
        (char('S'), "parallel scan", Action::ScanLauncher),
        (char('o'), "order the collections", Action::CollectionOrder),
    ] {
        let before = loaded(true);
        let mut by_key = before.clone();
        let key_effects = send(&mut by_key, [key]);

        let mut by_palette = before.clone();
        send(&mut by_palette, [ctrl('p')]);
        send(&mut by_palette, typed(words));
        assert_eq!(
            palette(&by_palette).highlighted(),
            Some(PaletteEntry::Action(action)),
            "{words}"
        );
        let palette_effects = send(&mut by_palette, [press(KeyCode::Enter)]);

        assert_eq!(
            format!("{palette_effects:?}"),
            format!("{key_effects:?}"),
            "{action}"
        );
        let shown = |s: &State| {
            let t = s.table.as_ref().unwrap();
            format!(
                "{:?} {:?} {:?} {:?}",
                t.modal, s.overlay, t.view.ordering, s.notice
            )
        };
        assert_eq!(shown(&by_palette), shown(&by_key), "{action}");
        assert_eq!(by_palette.recent, [PaletteEntry::Action(action)]);
    }
}

#[test]
fn p_opens_the_palette_on_the_patterns_only() {
    let mut s = with_patterns(loaded(false));
    send(&mut s, [char('P')]);
    assert_eq!(palette(&s).scope, PaletteScope::Patterns);
    assert_eq!(entries(&s).len(), 6);
    assert!(entries(&s)
        .iter()
        .all(|e| matches!(e, PaletteEntry::Pattern(_))));
    // Typing filters them by name.
    send(&mut s, typed("user orders"));
    let first = entries(&s)[0];
    let PaletteEntry::Pattern(i) = first else {
        panic!("{first:?}")
    };
    assert_eq!(s.patterns[i].name, "user-orders");
    // Ctrl-P lists them among the actions, runnable by name.
    send(&mut s, [press(KeyCode::Esc), ctrl('p')]);
    send(&mut s, typed("user orders"));
    assert_eq!(entries(&s)[0], first);
    send(&mut s, [press(KeyCode::Enter)]);
    let form = palette(&s)
        .form
        .as_ref()
        .expect("its parameters are asked for");
    assert_eq!(form.pattern, i);
    // Esc closes the parameter's completions, then the form, then the palette.
    assert!(!form.completion.is_empty(), "loaded keys complete it");
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(palette(&s).form.as_ref().unwrap().completion.is_empty());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(palette(&s).form.is_none());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(!matches!(
        s.table.as_ref().unwrap().modal,
        Some(Modal::Palette(_))
    ));
}
