//! The check run on small sources: each rule and each way around it must be reported, and
//! clean sources must not be.

use super::app_modules::dispatcher_named;
use super::rules::{violations, Crates, Source};
use super::tree::module_path;

fn crates() -> Crates {
    let names = "std core alloc tokio ratatui ratatui_crossterm crossterm serde aws_config \
                 aws_sdk_dynamodb dynoscope_model \
                 aws_smithy_types aws_credential_types";
    Crates {
        all: names
            .split(' ')
            .filter(|n| !n.is_empty())
            .map(String::from)
            .collect(),
    }
}

fn check(rel: &str, text: &str) -> Vec<String> {
    let module = module_path(rel);
    violations(
        &Source {
            rel,
            module: &module,
            text,
        },
        &crates(),
    )
}

#[track_caller]
fn assert_clean(rel: &str, text: &str) {
    assert_eq!(check(rel, text), Vec::<String>::new(), "in {rel}:\n{text}");
}

#[track_caller]
fn assert_reports(rel: &str, text: &str, want: &[&str]) {
    assert_eq!(check(rel, text), want, "in {rel}:\n{text}");
}

#[test]
fn crate_paths_in_every_form() {
    let text = concat!(
        "use crate::{app::State, model};\n",
        "let x = crate::ui::draw(); // crate::cli\n",
        "use crate::{\n    tui::{a, b},\n    aws::{\n        c,\n    },\n    logging,\n};\n",
        "let s = \"http://x\"; let y = crate::cli::run();\n",
        "let t = \"crate::main\"; /* crate::tui */ let z = r#\"crate::ui\"#;\n",
        "use super::super::ui::draw;\nuse super::sibling;\n",
        "let c = '\"'; let d = crate::aws::x(); fn f<'a>(v: &'a str) { crate::model::y() }\n",
        "let q = '\\''; let e = '\\u{1b}'; let w = crate::tui::z();\n",
        "pub(crate) fn g() {} macro_rules! m { () => { $crate::ui::x() } }\n",
    );
    let at = |line: usize, what: &str| format!("app/update/mod.rs:{line}: app names crate::{what}");
    let want = [
        at(2, "ui"),
        at(4, "tui"),
        at(4, "tui"),
        at(10, "cli"),
        at(12, "ui"),
        at(15, "tui"),
    ];
    assert_eq!(check("app/update/mod.rs", text), want);
}

/// Each layer's rules for outside crates, every path form: `use`, a use-group over lines,
/// a qualified path in an expression, a global path, a type, an attribute, `extern crate`,
/// a glob of the parent (`std::*` brings `fs`).
#[test]
fn each_rule_for_outside_crates_in_every_form() {
    let rules: &[(&str, &[&str])] = &[
        ("model", &["std::fs", "std::net"]),
        (
            "app",
            &[
                "std::fs",
                "crossterm",
                "ratatui::crossterm",
                "ratatui_crossterm",
            ],
        ),
        ("ui", &["std::fs", "crossterm", "ratatui::crossterm"]),
    ];
    for (layer, paths) in rules {
        for path in *paths {
            let (head, rest) = path.split_once("::").unwrap_or((path, "x"));
            let mut forms = vec![
                format!("use {path}::Thing;"),
                format!("use {head}::{{\n    io::Write,\n    {rest}::{{self, Thing}},\n}};"),
                format!("fn f() {{\n    let _ = {path}::thing(1);\n}}"),
                format!("fn f() {{ ::{path}::thing(); }}"),
                format!("fn f(_: Vec<{path}::Thing>) {{}}"),
                format!("#[{path}::test]\nfn t() {{}}"),
                format!("use {path}::*;"),
            ];
            if path.contains("::") {
                forms.push(format!("use {head}::*;"));
                forms.push(format!("use {head}::{{\n    self,\n    *,\n}};"));
            } else {
                forms.push(format!("extern crate {path};"));
                forms.push(format!("use {path};"));
            }
            for form in &forms {
                let rel = format!("{layer}/some/file.rs");
                let found = check(&rel, form);
                assert!(
                    found
                        .iter()
                        .any(|f| f.contains(&format!("(no {path} in {layer}/)")))
                        && found.iter().all(|f| f.contains(" names ")),
                    "{rel} must report {path} in:\n{form}\ngot {found:?}"
                );
                // The same source is clean in a layer with no rule against it.
                assert_clean("tui/some/file.rs", form);
            }
        }
    }
}

#[test]
fn clean_sources_are_not_reported() {
    assert_clean(
        "model/x.rs",
        concat!(
            "//! Not tokio::spawn, not std::fs::read.\n",
            "use std::{collections::BTreeMap, fmt};\nuse serde::Serialize;\n",
            "const S: &str = \"ratatui::Frame std::net::TcpStream\";\n",
            "fn f() { aws_profiles::parse(); core::mem::swap(); let r = r#\"crossterm::x\"#; }\n",
            "use super::aws_profiles::Profile;\n/* use aws_sdk_dynamodb::Client; */\n",
        ),
    );
    assert_clean(
        "app/x.rs",
        "use tokio::sync::mpsc;\nfn f() { tokio::time::sleep(); std::io::stdout(); }\n",
    );
    assert_clean(
        "ui/x.rs",
        "use ratatui::{\n    layout::Rect,\n    Frame,\n};\n",
    );
    assert_clean(
        "aws/x.rs",
        "use tokio::fs;\nfn f() { std::fs::read(); aws_sdk_dynamodb::Client::new(); }\n",
    );
    assert_clean(
        "aws/read/x.rs",
        "use crate::model::Item;\nuse super::super::logging as log;\n",
    );
    assert_clean(
        "app/x.rs",
        "#[cfg(test)]\n#[path = \"x_tests.rs\"]\nmod tests;\n",
    );
    assert_clean(
        "model/x.rs",
        "const W: &str = include_str!(\"../../assets/words.txt\");\n",
    );
    assert_clean(
        "app/keymap/mod.rs",
        "const K: &str = include_str!(\"../../../assets/reserved-words.txt\");\n",
    );
    assert_clean(
        "app/x.rs",
        "const D: &str = include_str!(\"state/notes.md\");\n",
    );
}

/// Aliases of the crate root, and aliases that stand for a forbidden path.
#[test]
fn aliases_do_not_hide_a_path() {
    let upward = "app/update/mod.rs";
    let alias =
        |line: usize, what: &str| format!("{upward}:{line}: app names the crate root ({what})");
    assert_reports(
        upward,
        "use crate as root;\nfn f() { root::ui::draw(); }\n",
        &[
            &alias(1, "crate as root"),
            "app/update/mod.rs:2: app names crate::ui",
        ],
    );
    assert_reports(
        upward,
        "use super::super as up;\nfn f() { up::tui::run(); }\n",
        &[
            &alias(1, "crate as up"),
            "app/update/mod.rs:2: app names crate::tui",
        ],
    );
    assert_reports(
        upward,
        "use crate::{self as me};\n",
        &[&alias(1, "crate as me")],
    );
    assert_reports(
        upward,
        "extern crate self as me;\n",
        &[&alias(1, "crate as me")],
    );
    assert_reports(upward, "use crate::*;\n", &[&alias(1, "crate::*")]);
    assert_reports(upward, "use super::super::*;\n", &[&alias(1, "crate::*")]);
    assert_reports(
        upward,
        "use super::super::ui as view;\nfn f() { view::x(); }\n",
        &[
            "app/update/mod.rs:1: app names crate::ui",
            "app/update/mod.rs:2: app names crate::ui",
        ],
    );
    // `super` once from `app/update/mod.rs` is `app`, twice from `app/update/reads.rs` too.
    assert_clean(upward, "use super as app;\nfn f() { app::x(); }\n");
    let deeper = "use super::super as app;\nuse super::super::ui::x;\nfn f() { app::y(); }\n";
    assert_clean("app/update/reads.rs", deeper);
    let fs = "model/x.rs:2: model names std::fs::read (no std::fs in model/)";
    assert_reports(
        "model/x.rs",
        "use std as s;\nfn f() { s::fs::read(); }\n",
        &[fs],
    );
    assert_reports(
        "model/x.rs",
        "use std::{self as s};\nfn f() { s::fs::read(); }\n",
        &[fs],
    );
    assert_reports(
        "app/x.rs",
        "use std as t;\nuse t::fs as files;\nfn f() { files::read(); t::io::stdout(); }\n",
        &[
            "app/x.rs:2: app names std::fs (no std::fs in app/)",
            "app/x.rs:3: app names std::fs::read (no std::fs in app/)",
        ],
    );
    // Main is the root's own layer.
    assert_clean(
        "lib.rs",
        "use crate as root;\nfn f() { root::ui::draw(); }\n",
    );
}

/// A lower layer re-exporting a whole crate or a forbidden module would let a higher one
/// name it through the crate's own path.
#[test]
fn no_whole_crate_is_re_exported() {
    assert_reports(
        "aws/x.rs",
        "pub use std::fs;\n",
        &["aws/x.rs:1: aws re-exports the whole of std::fs"],
    );
    assert_reports(
        "aws/x.rs",
        "pub(crate) use tokio as rt;\n",
        &["aws/x.rs:1: aws re-exports the whole of tokio"],
    );
    assert_reports(
        "model/x.rs",
        "pub use serde;\n",
        &["model/x.rs:1: model re-exports the whole of serde"],
    );
    assert_reports(
        "aws/x.rs",
        "pub extern crate std as s;\n",
        &["aws/x.rs:1: aws re-exports the whole of std"],
    );
    assert_clean(
        "aws/x.rs",
        "pub use aws_sdk_dynamodb::types::AttributeValue;\npub use self::x::Y;\n",
    );
    // A layer that is a crate of its own is re-exported under its layer's name, and only so.
    assert_clean("lib.rs", "pub use dynoscope_model as model;\n");
    assert_reports(
        "lib.rs",
        "pub use dynoscope_model as domain;\n",
        &["lib.rs:1: main re-exports the whole of dynoscope_model"],
    );
    assert_reports(
        "lib.rs",
        "pub use tokio as model;\n",
        &["lib.rs:1: main re-exports the whole of tokio"],
    );
    assert_clean("aws/x.rs", "use std::fs;\nuse tokio;\n");
}

/// `#[path]` and `include!` may not pull another layer's source in.
#[test]
fn no_source_is_pulled_across_layers() {
    let pulls = |what: &str, target: &str| format!("app/x.rs:2: {what} pulls {target} into app/");
    assert_reports(
        "app/x.rs",
        "\n#[path = \"../ui/draw.rs\"]\nmod draw;\n",
        &[&pulls("#[path]", "ui/draw.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\n#[cfg_attr(test, path = \"../tui/x.rs\")]\nmod x;\n",
        &[&pulls("#[path]", "tui/x.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\n#[path = \"../../tests/x.rs\"] mod x;\n",
        &[&pulls("#[path]", "../tests/x.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\ninclude!(\"../ui/draw.rs\");\n",
        &[&pulls("include!", "ui/draw.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\nconst S: &str = include_str!(\"../aws/seed.rs\");\n",
        &[&pulls("include_str!", "aws/seed.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\ninclude!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/src/ui/draw.rs\"));\n",
        &[&pulls("include!", "ui/draw.rs")],
    );
    assert_reports(
        "app/x.rs",
        "\ninclude!(concat!(\"../\", \"ui/draw.rs\"));\n",
        &["app/x.rs:2: include! names a file this check cannot resolve"],
    );
    assert_reports(
        "app/x.rs",
        "\ninclude_bytes!(\"../../tests/x.rs\");\n",
        &[&pulls("include_bytes!", "../tests/x.rs")],
    );
    // A variable called `path` is not an attribute.
    assert_clean("app/x.rs", "fn f() { let path = \"../ui/x.rs\"; }\n");
}

fn dispatcher(rel: &str, text: &str) -> Vec<String> {
    let module = module_path(rel);
    dispatcher_named(&Source {
        rel,
        module: &module,
        text,
    })
}

#[test]
fn a_feature_naming_the_dispatcher_is_reported() {
    let text = concat!(
        "use crate::app::update::{area, quit};\n",
        "use super::super::update::open_help;\n",
        "fn f(s: &mut State) { crate::app::update::start_read(s); }\n",
        "use crate::app::explorer::layout;\n",
    );
    assert_eq!(
        dispatcher("app/table/navigation.rs", text),
        [
            "app/table/navigation.rs:1: names crate::app::update::area",
            "app/table/navigation.rs:1: names crate::app::update::quit",
            "app/table/navigation.rs:2: names crate::app::update::open_help",
            "app/table/navigation.rs:3: names crate::app::update::start_read",
        ]
    );
    // The router, tests and fixtures drive the explorer through `update`.
    assert!(dispatcher("app/update/actions.rs", text).is_empty());
    assert!(dispatcher("app/table/walk_tests.rs", text).is_empty());
    assert!(dispatcher("app/fixtures.rs", text).is_empty());
    // The leaf names only what it is made of.
    assert_eq!(
        dispatcher(
            "app/explorer.rs",
            "use crate::app::state::State;\nuse crate::app::reads::start;\n"
        ),
        ["app/explorer.rs:2: the leaf names crate::app::reads::start (only app::{input, keymap, layout, msg, effect, state})"]
    );
}
