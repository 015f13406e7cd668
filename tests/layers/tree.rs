//! The files of `src/` and the module each is compiled as, with the layer crates' own sources
//! (`crates/dynoscope-model/src/` as `model/`, `crates/dynoscope-engine/src/` as `aws/` and
//! `logging.rs`, `crates/dynoscope-explorer/src/` as `app/` and `ui/`) read as the modules they
//! are re-exported as.

use super::lexer::{code_only, tokens};
use super::rules::{normalise, Source};
use std::path::Path;

pub struct File {
    /// The path under `src/`, with `/` between components.
    pub rel: String,
    pub module: Vec<String>,
    pub text: String,
}

impl File {
    pub fn source(&self) -> Source<'_> {
        Source {
            rel: &self.rel,
            module: &self.module,
            text: &self.text,
        }
    }
}

/// Every `.rs` file under `src/`, each with its module: its path (`app/update/mod.rs` →
/// `[app, update]`), or for a file pulled in with `#[path = "x_tests.rs"] mod tests;` the
/// declaring file's module plus `tests` (so `super::super` climbs from there).
pub fn src_files() -> Vec<File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = files_under(&root.join("src"), "", |text| text);
    // The engine crate keeps the binary's module names (`aws/`, `logging.rs`; its root re-exports
    // the model as `model`), so its files are read as they are; its three-line root is not a
    // layer's.
    files.extend(
        files_under(&root.join("crates/dynoscope-engine/src"), "", |text| text)
            .into_iter()
            .filter(|f| f.rel != "lib.rs"),
    );
    // The explorer crate keeps the binary's module names too (`app/`, `ui/`; its root
    // re-exports the model as `model`); its files sit two folders deeper than they would in
    // `src/`, so a data file it includes from the repository's root does too.
    files.extend(
        files_under(&root.join("crates/dynoscope-explorer/src"), "", |text| {
            text.replace("include_str!(\"../../", "include_str!(\"")
        })
        .into_iter()
        .filter(|f| f.rel != "lib.rs"),
    );
    // The model crate's root is the `model` layer: its `crate::x` is `crate::model::x` here, so
    // the rules (std::fs, std::net, and every path it names) read it as they read `src/`; its
    // files sit one folder deeper here than in the crate, so a data file it includes from
    // `../` does too.
    files.extend(files_under(
        &root.join("crates/dynoscope-model/src"),
        "model/",
        |text| {
            text.replace("crate::", "crate::model::")
                .replace("include_str!(\"../", "include_str!(\"../../")
        },
    ));
    let declared: Vec<(String, Vec<String>)> = files.iter().flat_map(path_modules).collect();
    for file in &mut files {
        if let Some((_, module)) = declared.iter().find(|(rel, _)| *rel == file.rel) {
            file.module = module.clone();
        }
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    files
}

/// The `.rs` files under `dir`, each named `prefix` + its path (a crate's `lib.rs` is its
/// folder's `mod.rs`), with `text` applied to what it holds.
fn files_under(dir: &Path, prefix: &str, text: impl Fn(String) -> String) -> Vec<File> {
    let mut paths = Vec::new();
    rust_files(dir, &mut paths);
    paths
        .into_iter()
        .map(|path| {
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let rel = match (prefix, rel.as_str()) {
                ("", _) => rel,
                (_, "lib.rs") => format!("{prefix}mod.rs"),
                _ => format!("{prefix}{rel}"),
            };
            File {
                module: module_path(&rel),
                text: text(std::fs::read_to_string(&path).unwrap()),
                rel,
            }
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `app/update/reads.rs` → `[app, update, reads]`, `app/update/mod.rs` → `[app, update]`,
/// `lib.rs` → `[]`.
pub fn module_path(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The files `file` declares with `#[path = "…"] mod name;`, each with its module.
fn path_modules(file: &File) -> Vec<(String, Vec<String>)> {
    let code = code_only(&file.text);
    let tokens = tokens(&code);
    let dir: Vec<&str> = file.rel.split('/').collect();
    let dir = &dir[..dir.len() - 1];
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let Some(lit) = tokens.get(i + 2).filter(|_| t.ident() == Some("path")) else {
            continue;
        };
        let super::lexer::Kind::Str { end } = lit.kind else {
            continue;
        };
        let rest = &tokens[i + 3..];
        let Some(at) = rest
            .iter()
            .position(|t| t.is(';') || t.ident() == Some("mod"))
        else {
            continue;
        };
        if let Some(name) = rest
            .get(at + 1)
            .and_then(|t| t.ident())
            .filter(|_| rest[at].ident() == Some("mod"))
        {
            let mut module = file.module.clone();
            module.push(name.to_string());
            out.push((normalise(dir, &file.text[lit.at..end]), module));
        }
    }
    out
}
