//! The rules, applied to one source file: its imports run down the layers, it names none of
//! the outside crates its layer must not use, it re-exports no crate root, and no `#[path]` or
//! `include!` pulls another layer's source into it.

use super::lexer::{code_only, tokens, Kind, Token};
use super::paths::{named_paths, Named};

/// Layers from the bottom up; `platform` (process priority, signals) is a leaf only the
/// terminal loop and the command line may use. `local_files` (a file read as untrusted: a
/// regular file of bounded size, folders made private) sits under the log, which opens its
/// file through it.
pub const LAYERS: [&str; 9] = [
    "model",
    "local_files",
    "logging",
    "aws",
    "app",
    "ui",
    "tui",
    "cli",
    "main",
];

/// One file of `src/`: `rel` is its path under `src/` (`app/update/reads.rs`), `module` the
/// module it is compiled as (`[app, update, reads]`).
pub struct Source<'a> {
    pub rel: &'a str,
    pub module: &'a [String],
    pub text: &'a str,
}

/// The outside crates the check knows by name (`std`, `core`, `alloc` and every package of
/// the lock file, as Rust spells it).
pub struct Crates {
    pub all: Vec<String>,
}

impl Crates {
    pub fn from_lock(lock: &str) -> Crates {
        let mut all: Vec<String> = ["std", "core", "alloc"].map(String::from).to_vec();
        all.extend(lock.lines().filter_map(|l| {
            let name = l.strip_prefix("name = \"")?.strip_suffix('"')?;
            Some(name.replace('-', "_"))
        }));
        Crates { all }
    }
}

/// The outside paths a layer must not name (DESIGN.md, "One owner per concern"), where its
/// crate cannot refuse them: a crate missing from a layer's manifest is a compile error (tokio,
/// ratatui or aws-* in the model, aws-* or tokio in the explorer, ratatui in the engine), but
/// `std` is in every crate, and a workspace build unifies the binary's features into the
/// explorer's ratatui, whose `crossterm` module then compiles there.
pub fn forbidden(layer: &str, _crates: &Crates) -> Vec<Vec<String>> {
    let fixed: &[&str] = match layer {
        "model" => &["std::fs", "std::net"],
        "app" | "ui" => &["std::fs", "crossterm"],
        _ => &[],
    };
    let mut out: Vec<Vec<String>> = fixed
        .iter()
        .map(|p| p.split("::").map(String::from).collect())
        .collect();
    if fixed.contains(&"crossterm") {
        // ratatui re-exports the crossterm it draws with.
        out.push(vec!["ratatui".into(), "crossterm".into()]);
        out.push(vec!["ratatui_crossterm".into()]);
    }
    out
}

/// The layer of a path under `src/` given as components: its folder, or its file's name
/// (`lib.rs` and `main.rs` are `main`).
pub fn layer_of(rel: &str) -> String {
    let first = rel.split('/').next().unwrap_or_default();
    // A top-level file's tests beside it (`logging_tests.rs`) are its layer's.
    let name = first.trim_end_matches(".rs");
    let name = if first.ends_with(".rs") {
        name.trim_end_matches("_tests")
    } else {
        name
    };
    match name {
        "lib" | "main" => "main".into(),
        other => other.into(),
    }
}

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer)
}

/// Whether `from` may name the crate's top-level module (or root item) `target`.
fn may_name(from: &str, target: &str) -> bool {
    if target == from {
        return true;
    }
    if target == "platform" {
        return matches!(from, "tui" | "cli" | "main");
    }
    match (rank(from), rank(target)) {
        (Some(from), Some(to)) => to < from,
        // Items of the crate root are the top layer's.
        (Some(_), None) => from == "main",
        (None, _) => false,
    }
}

/// Every rule broken by `file`, one line each: `app/x.rs:3: app names crate::ui`.
pub fn violations(file: &Source, crates: &Crates) -> Vec<String> {
    let layer = layer_of(file.rel);
    let code = code_only(file.text);
    let tokens = tokens(&code);
    let mut out = Vec::new();
    let mut report = |line: usize, what: String| out.push(format!("{}:{line}: {what}", file.rel));
    let rules = forbidden(&layer, crates);
    let mut named = named_paths(&tokens, file.module);
    named.retain(|n| !n.path.is_empty());
    named.sort_by_key(|n| n.line);
    for named in named {
        let path = named.path.join("::");
        if named.path[0] == "crate" {
            if named.path.len() == 1 {
                let exposes = named.glob || named.alias.is_some() || named.public;
                if exposes && layer != "main" {
                    report(
                        named.line,
                        format!("{layer} names the crate root ({path}{})", as_text(&named)),
                    );
                }
            } else if !may_name(&layer, &named.path[1]) {
                report(
                    named.line,
                    format!("{layer} names crate::{}", named.path[1]),
                );
            }
            continue;
        }
        let broken: Vec<&Vec<String>> = rules.iter().filter(|r| names(&named, r)).collect();
        for rule in &broken {
            report(
                named.line,
                format!("{layer} names {path} (no {} in {layer}/)", rule.join("::")),
            );
        }
        if broken.is_empty() && named.public && named.imported && re_exports_whole(&named, crates) {
            report(
                named.line,
                format!("{layer} re-exports the whole of {path}"),
            );
        }
    }
    for (line, target, what) in pulled_in(file, &tokens) {
        let Some(target) = target else {
            report(
                line,
                format!("{what} names a file this check cannot resolve"),
            );
            continue;
        };
        let to = if target.starts_with("../") {
            None
        } else {
            Some(layer_of(&target))
        };
        let crosses = match (&to, what.as_str()) {
            (Some(to), _) => *to != layer,
            // Outside src/: data (assets, README) may be read, source may not be compiled in.
            (None, "#[path]") => true,
            (None, _) => target.ends_with(".rs"),
        };
        if crosses {
            report(line, format!("{what} pulls {target} into {layer}/"));
        }
    }
    out
}

fn as_text(named: &Named) -> String {
    match (&named.alias, named.glob) {
        (Some(alias), _) => format!(" as {alias}"),
        (None, true) => "::*".into(),
        (None, false) => String::new(),
    }
}

fn segment_matches(segment: &str, rule: &str) -> bool {
    match rule.strip_suffix('*') {
        Some(prefix) => segment.starts_with(prefix),
        None => segment == rule,
    }
}

/// `named` names something under `rule`, or brings it into scope with a glob (`std::*`
/// brings `std::fs`).
fn names(named: &Named, rule: &[String]) -> bool {
    let common = named
        .path
        .iter()
        .zip(rule)
        .take_while(|(s, r)| segment_matches(s, r))
        .count();
    common == rule.len() || (named.glob && common == named.path.len())
}

/// A `pub use` of an outside crate's root, or of a module some layer must not name
/// (`pub use std::fs;`): a way around the rules from another file.
fn re_exports_whole(named: &Named, crates: &Crates) -> bool {
    // A layer that is a workspace crate of its own (`crates/dynoscope-model`) is re-exported
    // under its layer's name (`pub use dynoscope_model as model;`): the compiler keeps its
    // imports, and this check keeps the layers above it.
    let layer_crate = named.path.len() == 1
        && named.path[0]
            .strip_prefix("dynoscope_")
            .is_some_and(|layer| named.alias.as_deref() == Some(layer) && LAYERS.contains(&layer));
    let is_crate = named.path.len() == 1 && crates.all.contains(&named.path[0]) && !layer_crate;
    let some_rule = LAYERS
        .iter()
        .flat_map(|l| forbidden(l, crates))
        .any(|rule| {
            named.path.len() <= rule.len()
                && named
                    .path
                    .iter()
                    .zip(&rule)
                    .all(|(s, r)| segment_matches(s, r))
        });
    is_crate || some_rule
}

/// Files a `#[path = "…"]` or `include!`/`include_str!`/`include_bytes!` pulls in: (line,
/// the target under `src/` normalised, `../` first when outside it; `None` when it is not a
/// plain literal, what pulls it).
pub fn pulled_in(file: &Source, tokens: &[Token]) -> Vec<(usize, Option<String>, String)> {
    let dir: Vec<&str> = file.rel.split('/').collect();
    let dir = &dir[..dir.len() - 1];
    let literal = |t: &Token| match t.kind {
        Kind::Str { end } => Some(file.text[t.at..end].to_string()),
        _ => None,
    };
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let next = |k: usize| tokens.get(i + k);
        if t.ident() == Some("path")
            && next(1).is_some_and(|n| n.is('='))
            && in_attribute(tokens, i)
        {
            let target = next(2).and_then(literal).map(|l| normalise(dir, &l));
            out.push((t.line, target, "#[path]".to_string()));
        }
        let include = matches!(t.ident(), Some("include" | "include_str" | "include_bytes"));
        if include && next(1).is_some_and(|n| n.is('!')) && next(2).is_some_and(|n| n.is('(')) {
            let what = format!("{}!", t.ident().unwrap());
            let args = &tokens[i + 3..];
            let close = args.iter().position(|a| a.is(')')).unwrap_or(args.len());
            let target = match &args[..close] {
                [s] => literal(s).map(|l| normalise(dir, &l)),
                [e, b, p, s, ..] if e.ident() == Some("concat") && b.is('!') && p.is('(') => {
                    manifest_relative(&args[3..], &literal)
                }
                _ => None,
            };
            out.push((t.line, target, what));
        }
    }
    out
}

/// `concat!(env!("CARGO_MANIFEST_DIR"), "/src/ui/x.rs")`: relative to `src/`.
fn manifest_relative(args: &[Token], literal: &dyn Fn(&Token) -> Option<String>) -> Option<String> {
    match args {
        [env, bang, open, var, close, rest @ ..]
            if env.ident() == Some("env")
                && bang.is('!')
                && open.is('(')
                && literal(var).as_deref() == Some("CARGO_MANIFEST_DIR")
                && close.is(')') =>
        {
            let tail: String = rest.iter().filter_map(literal).collect();
            let tail = tail.trim_start_matches('/');
            Some(match tail.strip_prefix("src/") {
                Some(under_src) => normalise(&[], under_src),
                None => normalise(&[".."], tail),
            })
        }
        _ => None,
    }
}

/// Token `i` sits inside `#[…]` or `#![…]`.
fn in_attribute(tokens: &[Token], i: usize) -> bool {
    let mut depth = 0;
    for j in (0..i).rev() {
        let t = &tokens[j];
        if t.is(']') {
            depth += 1;
        } else if t.is('[') {
            if depth == 0 {
                let before = j.checked_sub(1).map(|b| &tokens[b]);
                let hash = match before {
                    Some(b) if b.is('!') => j.checked_sub(2).is_some_and(|h| tokens[h].is('#')),
                    Some(b) => b.is('#'),
                    None => false,
                };
                return hash;
            }
            depth -= 1;
        } else if t.is(';') || t.is('{') || t.is('}') {
            return false;
        }
    }
    false
}

/// `dir` joined with `path`, `.` and `..` resolved; a path above `src/` keeps its `../`.
pub fn normalise(dir: &[&str], path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in dir.iter().copied().chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}
