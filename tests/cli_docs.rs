//! Shell completions and the man page come from the parser's own definition.

mod common;

use common::*;

#[test]
fn completions_know_every_subcommand_and_flag() {
    for shell in ["bash", "zsh", "fish"] {
        let text = ok(run_raw(&["completions", shell], &[]));
        for word in [
            "scan",
            "query",
            "hotkeys",
            "describe",
            "max-rcu",
            "pk-shards",
            "export-start",
            "s3-bucket",
            "incremental",
        ] {
            assert!(text.contains(word), "{shell} completion lacks {word}");
        }
    }
    let out = run_raw(&["completions", "tcsh"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("'tcsh'") && err.contains("bash"), "{err}");
}

#[test]
fn the_man_page_is_roff_with_every_subcommand() {
    let text = ok(run_raw(&["man"], &[]));
    assert!(
        text.contains(".TH dynoscope 1"),
        "{}",
        &text[..200.min(text.len())]
    );
    for word in [
        "tables",
        "describe",
        "query",
        "scan",
        "hotkeys",
        "run",
        "seed",
        "demo",
        "model",
        "export\\-start",
    ] {
        assert!(text.contains(word), "man page lacks {word}");
    }
}
