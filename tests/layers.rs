//! The layers' rules (`../shared/DESIGN.md`), checked on every file of `src/`, tests included,
//! with comments and string literals blanked:
//!
//! - Imports run one way: `main → cli → tui → ui → app → aws → logging → local_files → model`. A module may
//!   name its own layer and any layer below it, never one above; the crate root may not be
//!   aliased (`use crate as root;`, `use super::super as x;` from the root's depth) or
//!   glob-imported outside `main`.
//! - Each layer names only the outside paths it may, where its crate cannot refuse them (a crate
//!   missing from a layer's manifest is already a compile error: tokio, ratatui and aws-* in the
//!   model crate, tokio and aws-* in the explorer crate, ratatui and crossterm in the engine
//!   crate): `model/` no std::fs/net; `app/` and `ui/` no std::fs and no crossterm (a workspace
//!   build unifies the binary's ratatui features into the explorer's). A path counts in every
//!   form: `use` (groups over any number of lines, globs, `self`, `as`), `extern crate`, and
//!   qualified paths in code, types and attributes (`crossterm::event::read(`,
//!   `::std::fs::read`); a name bound with `as` in the file stands for what it aliases, and no
//!   file re-exports a whole crate or a forbidden module (`pub use std::fs;`).
//! - No `#[path = "…"]` and no `include!`/`include_str!`/`include_bytes!` pulls another layer's
//!   source in.
//!
//! The self-tests in `layers/self_tests.rs` run the same check on small sources that break
//! each rule (and on clean ones).

#[path = "layers/app_modules.rs"]
mod app_modules;
#[path = "layers/lexer.rs"]
mod lexer;
#[path = "layers/paths.rs"]
mod paths;
#[path = "layers/rules.rs"]
mod rules;
#[path = "layers/self_tests.rs"]
mod self_tests;
#[path = "layers/tree.rs"]
mod tree;

use lexer::code_only;
use rules::{violations, Crates};
use std::path::Path;

fn crates() -> Crates {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
    let crates = Crates::from_lock(&std::fs::read_to_string(lock).unwrap());
    assert!(
        crates.all.iter().any(|c| c == "aws_sdk_dynamodb"),
        "Cargo.lock lists the SDK"
    );
    crates
}

/// Rules the tree still breaks, each with where it is tracked: (folder, the path named, why).
/// The check tolerates exactly these and fails once one no longer occurs, so the entry goes
/// with the fix.
const KNOWN: &[(&str, &str, &str)] = &[];

fn known(violation: &str) -> bool {
    KNOWN.iter().any(|(folder, path, _)| {
        violation.starts_with(folder) && violation.contains(&format!(" names {path}"))
    })
}

#[test]
fn every_layer_keeps_its_rules() {
    let crates = crates();
    let files = tree::src_files();
    assert!(
        files.len() > 100,
        "the check reads src/ ({} files)",
        files.len()
    );
    let broken: Vec<String> = files
        .iter()
        .flat_map(|f| violations(&f.source(), &crates))
        .collect();
    let new: Vec<&String> = broken.iter().filter(|v| !known(v)).collect();
    assert!(
        new.is_empty(),
        "layer rules broken (see ../shared/DESIGN.md):\n{}",
        new.iter()
            .map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for (folder, path, why) in KNOWN {
        assert!(
            broken
                .iter()
                .any(|v| v.starts_with(folder) && v.contains(&format!(" names {path}"))),
            "{folder} no longer names {path}: remove it from KNOWN ({why})"
        );
    }
}

/// Inside the explorer, a feature never names the dispatcher it is called from
/// (`layers/app_modules.rs`): the router calls down into features, features share
/// `app::explorer`, a leaf, and no circle runs through `app/update/mod.rs`.
#[test]
fn app_features_never_name_the_dispatcher() {
    let files = tree::src_files();
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| app_modules::dispatcher_named(&f.source()))
        .collect();
    assert!(
        found.is_empty(),
        "app/ features name the dispatcher (use app::explorer or app::reads):\n{}",
        found.join("\n")
    );
    assert!(files.iter().any(|f| f.rel == "app/explorer.rs"));
}

/// Every line on stderr passes the sanitiser: `cli::say` is the one writer. Names, messages
/// and endpoints quoted in notes and errors come from data and servers, so a stray
/// `eprintln!` is a way for an escape sequence to reach the terminal.
#[test]
fn only_cli_say_writes_to_stderr() {
    let mut writers = Vec::new();
    for file in tree::src_files() {
        if file.rel == "cli/say.rs" || file.rel.ends_with("_tests.rs") {
            continue;
        }
        let text = code_only(&file.text);
        for (n, line) in text.lines().enumerate() {
            if ["eprintln!", "eprint!", "stderr()", "dbg!"]
                .iter()
                .any(|w| line.contains(w))
            {
                writers.push(format!("{}:{}: {}", file.rel, n + 1, line.trim()));
            }
        }
    }
    assert!(
        writers.is_empty(),
        "stderr written around cli::say (use say! or cli::say::say):\n{}",
        writers.join("\n")
    );
}

/// The in-memory engines tests script, as (declaring file, module): compiled only for tests
/// (`cfg(test)` in the crate's own, the `test-engines` feature for `tests/`, which only the
/// dev-dependency on this crate turns on), so a release build carries none of them.
const TEST_ENGINES: [(&str, &str); 4] = [
    ("aws/mod.rs", "memory_engine"),
    ("aws/read/mod.rs", "memory"),
    ("aws/stream/mod.rs", "memory"),
    ("aws/write/mod.rs", "memory"),
];

#[test]
fn test_engines_compile_only_for_tests() {
    let gate = "#[cfg(any(test, feature = \"test-engines\"))]";
    let files = tree::src_files();
    for (parent, module) in TEST_ENGINES {
        let file = files.iter().find(|f| f.rel == parent).unwrap();
        let lines: Vec<&str> = file.text.lines().map(str::trim).collect();
        let at = lines
            .iter()
            .position(|l| l.ends_with(&format!("mod {module};")))
            .unwrap_or_else(|| panic!("{parent} declares mod {module}"));
        assert_eq!(
            lines[at - 1],
            gate,
            "{parent}: mod {module} is for tests only"
        );
    }
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let manifest: toml::Table = manifest.parse().unwrap();
    let features = manifest["features"].as_table().unwrap();
    assert!(features.contains_key("test-engines"));
    assert!(
        !features.contains_key("default")
            || !features["default"].to_string().contains("test-engines"),
        "test-engines is not a default feature"
    );
    let dev = &manifest["dev-dependencies"]["dynoscope"];
    assert_eq!(dev["path"].as_str(), Some("."));
    assert_eq!(
        dev["features"].as_array().unwrap()[0].as_str(),
        Some("test-engines")
    );
    for section in ["dependencies", "build-dependencies"] {
        let deps = manifest.get(section).and_then(|d| d.as_table());
        assert!(
            deps.is_none_or(|d| !d.contains_key("dynoscope")),
            "no {section} turns it on"
        );
    }
}

/// Where a read request may be built: only code that holds a `Reservation` the guards minted
/// (`aws/read/sdk.rs` sends a page inside `Reservation::send`; `aws/read/get_item.rs` takes one
/// by value). `aws/write/read_only.rs` builds reads only in its own tests, to show that its
/// interceptor lets them through.
const READ_SENDERS: [&str; 3] = [
    "aws/read/sdk.rs",
    "aws/read/get_item.rs",
    "aws/write/read_only.rs",
];

/// A Query, Scan, ExecuteStatement or GetItem built anywhere else would be a read no guard
/// admitted and no user action named (issue 31).
#[test]
fn read_requests_are_built_only_with_a_reservation() {
    let calls = [
        ".query()",
        ".scan()",
        ".execute_statement()",
        ".get_item()",
        ".batch_get_item()",
        ".transact_get_items()",
        ".batch_execute_statement()",
        ".execute_transaction()",
    ];
    let mut found = Vec::new();
    for file in tree::src_files() {
        if READ_SENDERS.contains(&file.rel.as_str()) || file.rel.ends_with("_tests.rs") {
            continue;
        }
        let text = code_only(&file.text);
        for (n, line) in text.lines().enumerate() {
            if calls.iter().any(|c| line.contains(c)) {
                found.push(format!("{}:{}: {}", file.rel, n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "read requests built outside the reservation's senders:\n{}",
        found.join("\n")
    );
    let files = tree::src_files();
    for sender in READ_SENDERS {
        assert!(
            files.iter().any(|f| f.rel == sender),
            "{sender} is still where reads are sent"
        );
    }
}
