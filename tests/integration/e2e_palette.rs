//! End to end: the action palette (`Ctrl-P`) in the real binary against DynamoDB Local. A
//! newcomer types part of a description, sees why an action does nothing here, and Enter runs
//! the action as its key would.

use crate::common;

use common::pty::Session;
use common::*;

#[test]
fn ctrl_p_finds_an_action_by_its_description_and_enter_runs_it() {
    let table = shared_demo(30).to_string();
    let mut s = Session::start(&[&table]);
    s.wait_for("a first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });

    s.keys("\u{10}");
    s.wait_for("the palette", |s| {
        s.contains(" Actions ") && s.contains("matches")
    });
    // Without --allow-writes the edit is listed greyed, with the reason.
    s.keys("edit the item");
    let screen = s.wait_text("needs --allow-writes");
    assert!(screen.contains("Edit the item as JSON"), "{screen}");

    // Ctrl-U clears what is typed; part of a description finds the key distribution.
    s.keys("\u{15}");
    s.keys("distribution loaded");
    // The count right after the popup's border: "1 match" is also the end of "51 matches",
    // which the screen shows until the typed words arrive.
    let screen = s.wait_for("one match", |s| {
        s.contains("› distribution loaded") && s.contains("│1 match")
    });
    assert!(
        screen.contains("Key distribution of the loaded items"),
        "{screen}"
    );
    s.keys("\r");
    let screen = s.wait_text("Key distribution of the loaded items (K)");
    assert!(
        !screen.contains(" Actions "),
        "the palette closed: {screen}"
    );
    s.keys("\u{1b}");

    // Reopened, what it ran comes first.
    s.keys("\u{10}");
    let screen = s.wait_text(" Actions ");
    let first_row = screen
        .lines()
        .skip_while(|l| !l.contains("matches"))
        .nth(1)
        .unwrap_or_default()
        .to_string();
    assert!(
        first_row.contains("Key distribution of the loaded items"),
        "{screen}"
    );
    s.keys("\u{1b}");
    s.keys("q");
    assert!(s.wait_exit().success());
}
