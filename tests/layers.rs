//! Imports run one way: `main → cli → tui → ui → app → aws → logging → model`. A module may
//! name its own layer and any layer below it, never one above (`../shared/DESIGN.md`). The
//! check reads every `crate::…` path in `src/`, tests included, with comments stripped.

use std::path::{Path, PathBuf};

/// Layers from the bottom up; `platform` (process priority, signals) is a leaf only the
/// terminal loop and the command line may use.
const LAYERS: [&str; 8] = ["model", "logging", "aws", "app", "ui", "tui", "cli", "main"];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|l| *l == layer)
}

/// The layer a source file belongs to: its folder or file name under `src/`.
fn layer_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    match first.trim_end_matches(".rs") {
        "lib" | "main" => "main".into(),
        other => other.into(),
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::name` the text uses, with its line number.
fn crate_paths(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // `use crate::{a, b}` names several.
            if after.starts_with('{') {
                let inner = &after[1..after.find('}').unwrap_or(after.len())];
                for part in inner.split(',') {
                    let head = part.trim().split("::").next().unwrap_or("").to_string();
                    if !head.is_empty() {
                        found.push((n + 1, head));
                    }
                }
            } else if !name.is_empty() {
                found.push((n + 1, name.clone()));
            }
            rest = &after[name.len()..];
        }
    }
    found
}

#[test]
fn no_import_runs_upward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let layer = layer_of(&src, file);
        let text = without_comments(&std::fs::read_to_string(file).unwrap());
        for (line, target) in crate_paths(&text) {
            let ok = if target == layer {
                true
            } else if target == "platform" {
                matches!(layer.as_str(), "tui" | "cli" | "main")
            } else {
                match (rank(&layer), rank(&target)) {
                    (Some(from), Some(to)) => to < from,
                    // Items of the crate root are the top layer's.
                    (Some(_), None) => layer == "main",
                    (None, _) => false,
                }
            };
            if !ok {
                upward.push(format!(
                    "{}:{line}: {layer} names crate::{target}",
                    file.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that run upward (see ../shared/DESIGN.md):\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    let text = "use crate::{app::State, model};\nlet x = crate::ui::draw(); // crate::cli\n";
    let found: Vec<String> = crate_paths(&without_comments(text))
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(found, ["app", "model", "ui"]);
}
