//! Imports run one way: `main → cli → tui → ui → app → aws → logging → model`. A module may
//! name its own layer and any layer below it, never one above (`../shared/DESIGN.md`). The
//! check reads every `crate::…` path in `src/` (use-groups over any number of lines, nested
//! groups, and `super::` chains that climb to the crate root), tests included, with comments
//! and string literals blanked.

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

/// `text` with comments and the contents of string and char literals blanked (newlines
/// kept, so line numbers hold): a path in a comment or a string is not an import.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('#') | Some('"'))
            && !ident_char(chars.get(i.wrapping_sub(1)))
        {
            // A raw string: r"…" or r#"…"#, closed by a quote and as many hashes.
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let close: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            out.push_str(&" ".repeat(2 + hashes));
            i += 2 + hashes;
            while i < chars.len()
                && !chars[i..]
                    .iter()
                    .take(close.len())
                    .copied()
                    .eq(close.chars())
            {
                out.push(blank(chars[i]));
                i += 1;
            }
            out.push_str(&" ".repeat(close.len()));
            i += close.len();
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\u{1b}'); a lifetime ('a) has no closing quote.
            // An escape ('\n', '\'', '\u{1b}') ends at the first quote after its second char.
            let end = if next == Some('\\') {
                chars[i + 3..]
                    .iter()
                    .position(|c| *c == '\'')
                    .map_or(chars.len() - 1, |p| i + 3 + p)
            } else {
                i + 2
            };
            out.push_str(&" ".repeat(end + 1 - i));
            i = end + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_char(c: Option<&char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
}

fn ident(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

/// The first names of the items of a use-group, `{a::{b, c}, d}` → `a`, `d`, however it is
/// spread over lines; `text` starts just after the opening brace.
fn group_heads(text: &str) -> Vec<(usize, String)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expecting = true;
    let mut offset = 0;
    for (at, c) in text.char_indices() {
        if at < offset {
            continue;
        }
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => expecting = true,
            c if expecting && depth == 0 && (c.is_ascii_alphabetic() || c == '_') => {
                let name = ident(&text[at..]);
                offset = at + name.len();
                heads.push((at, name));
                expecting = false;
            }
            _ => {}
        }
    }
    heads
}

/// The module path of a file under `src/`: `app/update/reads.rs` → `[app, update, reads]`,
/// `app/update/mod.rs` → `[app, update]`, `lib.rs` → `[]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Files pulled in with `#[path = "x_tests.rs"] mod tests;`: their module is the declaring
/// file's plus `tests`, not what their own name says (so `super::super` climbs from there).
fn path_modules(src: &Path, files: &[(PathBuf, String)]) -> Vec<(PathBuf, Vec<String>)> {
    let mut out = Vec::new();
    for (file, text) in files {
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[path = \"") {
            let after = &rest[at + "#[path = \"".len()..];
            let Some(end) = after.find('"') else { break };
            let target = file.parent().unwrap().join(&after[..end]);
            let decl = after[end..].trim_start_matches(['"', ']']).trim_start();
            if let Some(name) = decl.strip_prefix("mod ").map(ident) {
                let mut module = module_path(src, file);
                module.push(name);
                out.push((target, module));
            }
            rest = &after[end..];
        }
    }
    out
}

/// Every top-level module a path names, with its line: `crate::x…`, `crate::{x, y}` (over any
/// number of lines, groups nested), and `super::…` chains that climb to the crate root from
/// `module` (`super::super::ui` in `app/update/reads.rs` names `ui`). `text` is code only.
fn crate_paths_in(text: &str, module: &[String]) -> Vec<(usize, String)> {
    let line_at = |at: usize| text[..at].matches('\n').count() + 1;
    let mut found = Vec::new();
    let push_after_root = |found: &mut Vec<(usize, String)>, at: usize| {
        let after = &text[at..];
        if let Some(group) = after.strip_prefix('{') {
            for (offset, head) in group_heads(group) {
                found.push((line_at(at + 1 + offset), head));
            }
        } else {
            let name = ident(after);
            if !name.is_empty() {
                found.push((line_at(at), name));
            }
        }
    };
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < text.len() {
        let start_ok = at == 0 || !ident_char(Some(&(bytes[at - 1] as char)));
        if start_ok && text[at..].starts_with("crate::") {
            push_after_root(&mut found, at + "crate::".len());
            at += "crate::".len();
        } else if start_ok && text[at..].starts_with("super::") {
            let mut climbed = 0;
            let mut end = at;
            while text[end..].starts_with("super::") {
                climbed += 1;
                end += "super::".len();
            }
            // A file's module climbs to the root after as many `super`s as it is deep.
            if climbed >= module.len() {
                push_after_root(&mut found, end);
            }
            at = end;
        } else {
            at += text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    found
}

#[test]
fn no_import_runs_upward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let files: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect();
    let declared = path_modules(&src, &files);
    let mut upward = Vec::new();
    for (file, raw) in &files {
        let layer = layer_of(&src, file);
        let text = code_only(raw);
        let module = declared
            .iter()
            .find(|(f, _)| f == file)
            .map_or_else(|| module_path(&src, file), |(_, m)| m.clone());
        for (line, target) in crate_paths_in(&text, &module) {
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
    let text = concat!(
        "use crate::{app::State, model};\n",
        "let x = crate::ui::draw(); // crate::cli\n",
        "use crate::{\n    tui::{a, b},\n    aws::{\n        c,\n    },\n    logging,\n};\n",
        "let s = \"http://x\"; let y = crate::cli::run();\n",
        "let t = \"crate::main\"; /* crate::tui */ let z = r#\"crate::ui\"#;\n",
        "use super::super::ui::draw;\nuse super::sibling;\n",
        "let c = '\"'; let d = crate::aws::x(); fn f<'a>(v: &'a str) { crate::model::y() }\n",
        "let q = '\\''; let e = '\\u{1b}'; let w = crate::tui::z();\n",
    );
    let found: Vec<(usize, String)> =
        crate_paths_in(&code_only(text), &["app".into(), "update".into()]);
    let want: Vec<(usize, String)> = [
        (1, "app"),
        (1, "model"),
        (2, "ui"),
        (4, "tui"),
        (5, "aws"),
        (8, "logging"),
        (10, "cli"),
        (12, "ui"),
        (14, "aws"),
        (14, "model"),
        (15, "tui"),
    ]
    .into_iter()
    .map(|(l, n)| (l, n.to_string()))
    .collect();
    assert_eq!(found, want);
}

/// Every line on stderr passes the sanitiser: `cli::say` is the one writer. Names, messages
/// and endpoints quoted in notes and errors come from data and servers, so a stray
/// `eprintln!` is a way for an escape sequence to reach the terminal.
#[test]
fn only_cli_say_writes_to_stderr() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut writers = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        if rel == Path::new("cli/say.rs") || rel.to_string_lossy().ends_with("_tests.rs") {
            continue;
        }
        let text = code_only(&std::fs::read_to_string(file).unwrap());
        for (n, line) in text.lines().enumerate() {
            if ["eprintln!", "eprint!", "stderr()", "dbg!"]
                .iter()
                .any(|w| line.contains(w))
            {
                writers.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        writers.is_empty(),
        "stderr written around cli::say (use say! or cli::say::say):\n{}",
        writers.join("\n")
    );
}
