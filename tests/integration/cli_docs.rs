//! Shell completions and the man page come from the parser's own definition.

use crate::common;

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

/// The manual's pages (`docs/`, an mdBook) and the README link to each other: every relative
/// link names a file that exists, and every `#anchor` a heading of that file, as a forge (and
/// mdBook) spells the anchor.
#[test]
fn every_relative_link_and_anchor_in_the_manual_resolves() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !file.exists() {
                broken.push(format!("{}: '{target}' names no file", page.display()));
            } else if !anchor.is_empty() {
                let target_text = std::fs::read_to_string(&file).unwrap();
                if !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: '{target}' names no heading", page.display()));
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} links found");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Every page of `docs/` is in `SUMMARY.md` (nothing unreachable in the book), and every
/// subcommand `dynoscope --help` lists is named in a heading of a page.
#[test]
fn every_page_is_in_the_summary_and_every_subcommand_has_a_heading() {
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let summary = std::fs::read_to_string(docs.join("SUMMARY.md")).unwrap();
    let listed = links(&summary);
    let mut headings = String::new();
    for entry in std::fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".md") || name == "SUMMARY.md" {
            continue;
        }
        assert!(
            listed.contains(&name),
            "docs/{name} is not in docs/SUMMARY.md"
        );
        let text = std::fs::read_to_string(&path).unwrap();
        for line in outside_code(&text) {
            if line.starts_with('#') {
                headings.push_str(line);
                headings.push('\n');
            }
        }
    }
    let help = ok(run_raw(&["--help"], &[]));
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 10, "{help}");
    for command in commands {
        assert!(
            headings.contains(&format!("`{command}`"))
                || headings.contains(&format!("`{command} ")),
            "no heading of docs/ names `{command}`:\n{headings}"
        );
    }
}

/// The targets of `[text](target)` links outside code blocks and code spans.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in outside_code(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let before = &rest[..at];
            // A `](` inside a code span is text, not a link.
            if before.matches('`').count() % 2 == 0 {
                found.push(after[..end].to_string());
            }
            rest = &after[end..];
        }
    }
    found
}

/// The anchors of a page's headings: lower case, punctuation dropped but `-` and `_`, spaces
/// as `-`, a repeated heading numbered (`-1`, `-2`), as GitHub and mdBook make them.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    let mut times = std::collections::HashMap::<String, usize>::new();
    for line in outside_code(text) {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = times.entry(slug.clone()).or_default();
        *n += 1;
        let n = *n - 1;
        seen.push(if n == 0 { slug } else { format!("{slug}-{n}") });
    }
    seen
}

/// The lines of a Markdown text that are not inside a fenced code block.
fn outside_code(text: &str) -> Vec<&str> {
    let mut inside = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                inside = !inside;
                return false;
            }
            !inside
        })
        .collect()
}
