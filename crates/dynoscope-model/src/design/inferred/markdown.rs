//! An inferred design as a Markdown design document: a summary of kinds, a section per kind,
//! the index overloading matrix, the access patterns, warnings, and a Mermaid diagram of the
//! kinds and their relationships. Every name and value from the table goes through
//! `markdown_cell` or `mermaid_label`: item data is untrusted.

use std::fmt::Write;

use super::{InferredDesign, InferredKind, TargetTemplates};
use crate::text::markdown::{markdown_cell as md, mermaid_label};
use crate::text::wording::{percent, share};

/// A kind's main templates on one target, `PK · SK`, escaped.
fn key_cell(kind: &InferredKind, index: Option<&str>) -> String {
    let Some(t) = kind.keys.iter().find(|t| t.index.as_deref() == index) else {
        return String::new();
    };
    let mut sides = vec![TargetTemplates::main(&t.partition).join(" + ")];
    let sort = TargetTemplates::main(&t.sort).join(" + ");
    if !sort.is_empty() {
        sides.push(sort);
    }
    sides
        .iter()
        .map(|s| code(s))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// `text` as a code span in a table cell, shown as it is: fenced by one backtick more than its
/// longest run of them (padded with a space where it starts or ends with one), so no backtick
/// of the text ends the span; `|` escaped as `\|`, which GitHub's tables read as a pipe even
/// inside a code span; a control or invisible character written as visible `\u{…}`.
fn code(text: &str) -> String {
    let mut body = String::with_capacity(text.len() + 4);
    let (mut run, mut longest) = (0usize, 0usize);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
        match c {
            '|' => body.push_str("\\|"),
            c if crate::text::escaped::needs_escape(c) => {
                body.push_str(&format!("\\u{{{:x}}}", u32::from(c)))
            }
            c => body.push(c),
        }
    }
    let fence = "`".repeat(longest + 1);
    let pad = if body.starts_with('`') || body.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{body}{pad}{fence}")
}

pub fn design_markdown(design: &InferredDesign) -> String {
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "# Design of table {}\n", md(&design.table));
    let _ = writeln!(
        w,
        "Read by `dynoscope model export` from {} sampled items; key {}.\n",
        design.sampled,
        code(&design.table_keys.display())
    );
    let _ = writeln!(w, "## Kinds\n");
    let _ = writeln!(
        w,
        "| Kind | Items | Key on the table | Named by | Attributes |"
    );
    let _ = writeln!(w, "|---|---:|---|---|---:|");
    for kind in &design.kinds {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} |",
            md(&kind.name),
            kind.items,
            key_cell(kind, None),
            md(&kind.source),
            kind.attributes.len()
        );
    }
    for kind in &design.kinds {
        kind_section(w, kind);
    }
    index_matrix(w, design);
    let _ = writeln!(w, "\n## Access patterns\n");
    let _ = writeln!(w, "| Pattern | Request |");
    let _ = writeln!(w, "|---|---|");
    for p in &design.access_patterns {
        let _ = writeln!(w, "| {} | {} |", md(&p.description), code(&p.request));
    }
    warnings(w, design);
    diagram(w, design);
    out
}

fn kind_section(w: &mut String, kind: &InferredKind) {
    let _ = writeln!(w, "\n## {}\n", md(&kind.name));
    let seen = kind.index_only.as_deref().map_or(String::new(), |i| {
        format!(" of index {} (none in the table's sample)", md(i))
    });
    let _ = writeln!(
        w,
        "{} sampled items{seen}, kind named by {}.\n",
        kind.items,
        md(&kind.source)
    );
    for t in &kind.keys {
        let target = t
            .index
            .as_deref()
            .map_or("table".to_owned(), |i| format!("index {}", md(i)));
        let _ = writeln!(
            w,
            "- on the {target}: {} ({} items)",
            key_cell(kind, t.index.as_deref()),
            t.items
        );
    }
    let _ = writeln!(w, "\n| Attribute | Type | Present |");
    let _ = writeln!(w, "|---|---|---:|");
    for a in &kind.attributes {
        let types: Vec<String> = a
            .types
            .iter()
            .map(|(t, n)| match a.has_conflict() {
                true => format!("{t} in {}", percent(share(*n as u64, a.present as u64))),
                false => t.clone(),
            })
            .collect();
        let _ = writeln!(
            w,
            "| {} | {} | {} |",
            md(&a.name),
            types.join(", "),
            percent(share(a.present as u64, kind.items as u64))
        );
    }
}

fn index_matrix(w: &mut String, design: &InferredDesign) {
    if design.indexes.is_empty() {
        return;
    }
    let _ = writeln!(w, "\n## Indexes\n");
    let _ = writeln!(
        w,
        "| Index | Key | Projection | Items held | Read from the index |"
    );
    let _ = writeln!(w, "|---|---|---|---|---|");
    for i in &design.indexes {
        let held = percent(share(i.items as u64, design.sampled as u64));
        let sparse = if i.is_sparse(design.sampled) {
            " (sparse)"
        } else {
            ""
        };
        let described = i.described.map_or(String::new(), |(n, of)| {
            format!(
                "; DescribeTable: {n} of {of}, {}",
                percent(share(n.max(0) as u64, of.max(0) as u64))
            )
        });
        let own = i
            .own_sample
            .map_or("not sampled".to_owned(), |n| format!("{n} items"));
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} of {}, {held}{sparse}{described} | {own} |",
            md(&i.name),
            code(&i.keys.display()),
            md(&i.projected),
            i.items,
            design.sampled
        );
    }
    let _ = writeln!(
        w,
        "\n### Overloading: what each index's key means for each kind\n"
    );
    let names: Vec<String> = design.indexes.iter().map(|i| md(&i.name)).collect();
    let _ = writeln!(w, "| Kind | {} |", names.join(" | "));
    let _ = writeln!(w, "|---|{}", "---|".repeat(names.len()));
    for kind in &design.kinds {
        let cells: Vec<String> = design
            .indexes
            .iter()
            .map(|i| key_cell(kind, Some(&i.name)))
            .collect();
        let _ = writeln!(w, "| {} | {} |", md(&kind.name), cells.join(" | "));
    }
}

fn warnings(w: &mut String, design: &InferredDesign) {
    if design.warnings.is_empty() {
        return;
    }
    let _ = writeln!(w, "\n## Warnings\n");
    for warning in &design.warnings {
        let _ = writeln!(
            w,
            "- {} (rests on {} items)",
            md(&warning.message),
            warning.items
        );
    }
}

fn diagram(w: &mut String, design: &InferredDesign) {
    let _ = writeln!(w, "\n## Diagram\n\n```mermaid\nflowchart LR");
    let id = |name: &str| {
        design
            .kinds
            .iter()
            .position(|k| k.name == name)
            .map(|p| format!("K{p}"))
    };
    for (n, kind) in design.kinds.iter().enumerate() {
        let _ = writeln!(w, "    K{n}[\"{}\"]", mermaid_label(&kind.name));
    }
    for r in &design.relationships {
        let (Some(from), Some(to)) = (id(&r.parent), id(&r.child)) else {
            continue;
        };
        let on = r.index.as_deref().unwrap_or("table");
        let _ = writeln!(
            w,
            "    {from} -->|\"{}\"| {to}",
            mermaid_label(&format!("{} on {on}", r.key))
        );
    }
    let _ = writeln!(w, "```");
}

/// A template is shown as it is: backticks inside a longer fence, a pipe escaped for the table.
#[cfg(test)]
#[test]
fn a_code_span_holds_backticks_and_pipes_as_they_are() {
    assert_eq!(code("TENANT#{id}"), "`TENANT#{id}`");
    assert_eq!(code("a|b"), "`a\\|b`");
    assert_eq!(code("x```y"), "````x```y````");
    assert_eq!(code("`x"), "`` `x ``");
    assert_eq!(code("esc\u{1b}"), "`esc\\u{1b}`");
}
