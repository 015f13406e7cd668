//! The paths a file names, resolved: every leaf of every `use` tree (groups nested, over any
//! number of lines, `self` in a group, globs, `as` aliases), `extern crate`, and every path of
//! two or more segments in the code (`tokio::spawn(`, `#[tokio::test]`, `::std::fs::read`).
//! `crate`, `self` and `super` chains become paths from the crate root (`crate` first); a name
//! bound in the file with `as` is replaced by what it stands for, so `use crate as root;` and
//! `use std as s;` hide nothing.

use super::lexer::{Kind, Token};
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    pub line: usize,
    /// `crate` first for the crate's own items; otherwise an outside crate's name (or a path
    /// relative to the file's module, which stays in its layer).
    pub path: Vec<String>,
    /// `use x::*`: names everything under `path`.
    pub glob: bool,
    /// Bound to another name with `as`.
    pub alias: Option<String>,
    /// `pub use`, `pub(…) use`, `pub extern crate`: re-exported to other modules.
    pub public: bool,
    /// Named by a `use` or `extern crate`, not by an expression or a type.
    pub imported: bool,
}

/// What `tokens` (of blanked code) name, the file being module `module` (`[app, update]`).
pub fn named_paths(tokens: &[Token], module: &[String]) -> Vec<Named> {
    let mut raw = Vec::new();
    let mut consumed = vec![false; tokens.len()];
    let mut i = 0;
    while i < tokens.len() {
        let after_sep = i > 0 && tokens[i - 1].kind == Kind::Sep;
        let word = tokens[i].ident();
        let import = match word {
            Some("use") if !after_sep => {
                let public = is_public(tokens, i);
                let mut leaves = Vec::new();
                let end = use_tree(tokens, i + 1, Vec::new(), &mut leaves);
                raw.extend(leaves.into_iter().map(|mut n: Named| {
                    n.public = public;
                    n
                }));
                end
            }
            Some("extern") if tokens.get(i + 1).and_then(Token::ident) == Some("crate") => {
                extern_crate(tokens, i).map_or(i + 1, |(named, end)| {
                    raw.push(named);
                    end
                })
            }
            _ => {
                i += 1;
                continue;
            }
        };
        for c in consumed.iter_mut().take(import).skip(i) {
            *c = true;
        }
        i = import.max(i + 1);
    }
    raw.extend(code_paths(tokens, &consumed));
    let aliases: HashMap<String, Vec<String>> = raw
        .iter()
        .filter_map(|n| Some((n.alias.clone()?, n.path.clone())))
        .filter(|(alias, _)| alias != "_")
        .collect();
    raw.into_iter()
        .map(|mut n| {
            n.path = resolve(&n.path, module, &aliases);
            n
        })
        .collect()
}

fn is_public(tokens: &[Token], at: usize) -> bool {
    let Some(mut i) = at.checked_sub(1) else {
        return false;
    };
    if tokens[i].is(')') {
        while i > 0 && !tokens[i].is('(') {
            i -= 1;
        }
        let Some(before) = i.checked_sub(1) else {
            return false;
        };
        i = before;
    }
    tokens[i].ident() == Some("pub")
}

/// Parses one use tree at `i` under `prefix`, pushing its leaves; returns the index after it.
fn use_tree(tokens: &[Token], mut i: usize, prefix: Vec<String>, out: &mut Vec<Named>) -> usize {
    let mut path = prefix;
    let mut line = tokens.get(i).map_or(0, |t| t.line);
    if tokens.get(i).is_some_and(|t| t.kind == Kind::Sep) {
        i += 1;
    }
    loop {
        let Some(token) = tokens.get(i) else {
            return i;
        };
        match &token.kind {
            Kind::Ident(name) if name != "as" => {
                path.push(name.clone());
                line = token.line;
                i += 1;
            }
            Kind::Punct('*') => {
                out.push(leaf(path, line, true, None));
                return i + 1;
            }
            Kind::Punct('{') => {
                i += 1;
                while let Some(t) = tokens.get(i) {
                    if t.is('}') {
                        return i + 1;
                    } else if t.is(',') {
                        i += 1;
                    } else if t.is(';') {
                        return i;
                    } else {
                        i = use_tree(tokens, i, path.clone(), out).max(i + 1);
                    }
                }
                return i;
            }
            _ => break,
        }
        if tokens.get(i).is_some_and(|t| t.kind == Kind::Sep) {
            i += 1;
        } else {
            break;
        }
    }
    let mut alias = None;
    if tokens.get(i).and_then(Token::ident) == Some("as") {
        alias = tokens.get(i + 1).and_then(Token::ident).map(String::from);
        i += 2;
    }
    if path.last().is_some_and(|s| s == "self") && path.len() > 1 {
        path.pop();
    }
    out.push(leaf(path, line, false, alias));
    i
}

fn leaf(path: Vec<String>, line: usize, glob: bool, alias: Option<String>) -> Named {
    Named {
        line,
        path,
        glob,
        alias,
        public: false,
        imported: true,
    }
}

/// `extern crate x;`, `extern crate x as y;` (`extern crate self as y;` aliases the root).
fn extern_crate(tokens: &[Token], at: usize) -> Option<(Named, usize)> {
    let name_token = tokens.get(at + 2)?;
    let name = name_token.ident()?;
    let root = if name == "self" { "crate" } else { name };
    let mut named = leaf(vec![root.to_string()], name_token.line, false, None);
    named.public = is_public(tokens, at);
    let mut end = at + 3;
    if tokens.get(end).and_then(Token::ident) == Some("as") {
        named.alias = tokens.get(end + 1).and_then(Token::ident).map(String::from);
        end += 2;
    }
    Some((named, end))
}

/// Paths of two or more segments outside `use` and `extern crate`: the first segment not
/// after `::` (unless that `::` opens a global path, `::std::fs`) nor after `$` (`$crate`).
fn code_paths(tokens: &[Token], consumed: &[bool]) -> Vec<Named> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let starts = !consumed[i]
            && tokens[i].ident().is_some()
            && match i.checked_sub(1).map(|p| &tokens[p]) {
                None => true,
                Some(prev) if prev.kind == Kind::Sep => {
                    i < 2 || !matches!(&tokens[i - 2].kind, Kind::Ident(_) | Kind::Punct('>' | ')'))
                }
                Some(prev) => !prev.is('$'),
            };
        if !starts {
            i += 1;
            continue;
        }
        let mut path = vec![tokens[i].ident().unwrap().to_string()];
        let mut j = i + 1;
        while j + 1 < tokens.len() && tokens[j].kind == Kind::Sep {
            let Some(next) = tokens[j + 1].ident() else {
                break;
            };
            path.push(next.to_string());
            j += 2;
        }
        if path.len() >= 2 {
            out.push(Named {
                line: tokens[i].line,
                path,
                glob: false,
                alias: None,
                public: false,
                imported: false,
            });
        }
        i = j;
    }
    out
}

/// `crate…`, `self…` and `super…` from the crate root; an alias bound in the file by what it
/// stands for. A `super` chain climbs no further than the root (a file's inline modules are not
/// counted, so a chain is taken to reach the root early, never late).
fn resolve(
    path: &[String],
    module: &[String],
    aliases: &HashMap<String, Vec<String>>,
) -> Vec<String> {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let Some(first) = path.first() else {
            return path;
        };
        match first.as_str() {
            "crate" => return path,
            "self" => {
                let rest = &path[1..];
                return root()
                    .chain(module.iter().cloned())
                    .chain(rest.iter().cloned())
                    .collect();
            }
            "super" => {
                let climbed = path.iter().take_while(|s| *s == "super").count();
                let base = &module[..module.len().saturating_sub(climbed)];
                let rest = &path[climbed..];
                return root()
                    .chain(base.iter().cloned())
                    .chain(rest.iter().cloned())
                    .collect();
            }
            name => match aliases.get(name) {
                Some(target) => path = target.iter().chain(&path[1..]).cloned().collect(),
                None => return path,
            },
        }
    }
    path
}

fn root() -> impl Iterator<Item = String> {
    std::iter::once("crate".to_string())
}
