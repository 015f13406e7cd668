//! Inside `app/`: a key goes down from the router (`app/update/`) into its feature and never
//! back up. A feature (`app/table/`, `app/live/`, `app/query_form/`, …) and the services beside
//! them (`app/reads.rs`, `app/explorer.rs`) name no path under `app::update`: what every
//! feature borrows (the area, the layout, the help, quitting) is `app::explorer`, a leaf that
//! names only the state, the layout and the effects. Tests and fixtures drive the whole
//! explorer through `update`, so they may name it.

use super::lexer::{code_only, tokens};
use super::paths::named_paths;
use super::rules::Source;

/// What `app::explorer` may name inside the crate: what it is made of, nothing that acts.
const LEAF_NAMES: [&str; 6] = ["input", "keymap", "layout", "msg", "effect", "state"];

pub fn dispatcher_named(file: &Source) -> Vec<String> {
    let module = file.module;
    let in_app = module.first().is_some_and(|m| m == "app");
    let router = module.get(1).is_some_and(|m| m == "update");
    let test =
        file.rel.ends_with("_tests.rs") || module.iter().any(|m| m == "tests" || m == "fixtures");
    if !in_app || router || test {
        return Vec::new();
    }
    let leaf = module.get(1).is_some_and(|m| m == "explorer");
    let code = code_only(file.text);
    let mut out = Vec::new();
    for named in named_paths(&tokens(&code), module) {
        let p = &named.path;
        if p.len() < 3 || p[0] != "crate" || p[1] != "app" {
            continue;
        }
        let path = p.join("::");
        if p[2] == "update" {
            out.push(format!("{}:{}: names {path}", file.rel, named.line));
        } else if leaf && !LEAF_NAMES.contains(&p[2].as_str()) {
            out.push(format!(
                "{}:{}: the leaf names {path} (only app::{{{}}})",
                file.rel,
                named.line,
                LEAF_NAMES.join(", ")
            ));
        }
    }
    out
}
