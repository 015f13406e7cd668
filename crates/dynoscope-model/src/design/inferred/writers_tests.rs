use super::tests::{item, s, tenant_design};
use super::*;
use crate::fixtures::demo_info;
use crate::formats::workbench::{parse_model, templates::entity_templates};
use crate::item::value::{AttrValue, Item};

/// A design written by ElectroDB: `__edb_e__` names the kind, keys in its grammar, stores and
/// their employees in one collection of GSI1.
fn electrodb_design() -> (TableInfo, Vec<Item>) {
    let mut info = demo_info();
    info.name = "stores".into();
    let mut items = Vec::new();
    for st in ["s1", "s2"] {
        items.push(item(&[
            ("PK", s(&format!("$taskapp#storeid_{st}"))),
            ("SK", s("$store_1")),
            ("GSI1PK", s(&format!("$taskapp#storeid_{st}"))),
            ("GSI1SK", s("$staff#store_1")),
            ("__edb_e__", s("store")),
            ("__edb_v__", s("1")),
            ("storeId", s(st)),
        ]));
        for e in ["e1", "e2"] {
            items.push(item(&[
                ("PK", s(&format!("$taskapp#employeeid_{e}{st}"))),
                ("SK", s("$employee_1")),
                ("GSI1PK", s(&format!("$taskapp#storeid_{st}"))),
                (
                    "GSI1SK",
                    s(&format!("$staff#employee_1#employeeid_{e}{st}")),
                ),
                ("__edb_e__", s("employee")),
                ("__edb_v__", s("1")),
                ("employeeId", s(&format!("{e}{st}"))),
                ("storeId", s(st)),
                ("salary", AttrValue::N("100".into())),
            ]));
        }
    }
    (info, items)
}

#[test]
fn markdown_of_a_multi_tenant_design() {
    let (info, items) = tenant_design();
    insta::assert_snapshot!(
        "tenant_markdown",
        design_markdown(&infer_design(&info, &items))
    );
}

#[test]
fn markdown_of_an_electrodb_design() {
    let (info, items) = electrodb_design();
    insta::assert_snapshot!(
        "electrodb_markdown",
        design_markdown(&infer_design(&info, &items))
    );
}

#[test]
fn the_workbench_model_reads_back_as_the_same_entity_templates() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let text = design_workbench(&design, ValueMode::Masked);
    let model = parse_model(&text, "export.json").unwrap();
    let table = &model.tables[0];
    assert_eq!(table.keys, info.keys);
    let gsi_names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(gsi_names, ["GSI1", "byAssignee"]);
    let (templates, skipped) = entity_templates(table);
    let mut read: Vec<String> = templates.into_iter().map(|t| t.template).collect();
    read.sort();
    let mut written: Vec<String> = design
        .kinds
        .iter()
        .flat_map(|k| k.keys.iter().filter(|t| t.index.is_none()))
        .flat_map(|t| {
            TargetTemplates::main(&t.sort)
                .into_iter()
                .chain(TargetTemplates::main(&t.partition))
        })
        // A fixed marker (`PROFILE`) is no template to the reader either.
        .filter(|t| t.contains('{') && crate::design::entity::EntityPattern::parse(t).is_ok())
        .map(str::to_owned)
        .collect();
    written.sort();
    written.dedup();
    assert_eq!(read, written, "skipped: {skipped:?}");
    assert_eq!(
        read,
        [
            "TENANT#{tenantId}",
            "TICKET#{date}#{ticketId}",
            "USER#{userId}"
        ]
    );
}

#[test]
fn example_items_are_masked_unless_values_are_asked_for() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let masked = design_workbench(&design, ValueMode::Masked);
    assert!(
        !masked.contains("alice") && !masked.contains("\"t1\""),
        "{masked}"
    );
    assert!(masked.contains("TENANT#<tenantId>"));
    let open = design_workbench(&design, ValueMode::WithValues);
    assert!(open.contains("alice"));
}

/// Attribute names and values built to break a Markdown table, the Mermaid diagram, the code
/// fence or the reader's terminal.
#[test]
fn hostile_names_cannot_break_the_document() {
    let hostile = "x|y\nz`w]\"q\u{1b}[2J\u{202e}```";
    let info = demo_info();
    let items: Vec<Item> = (0..2)
        .map(|n| {
            item(&[
                ("PK", s(&format!("USER#u{n}"))),
                ("SK", s("PROFILE")),
                (hostile, s(hostile)),
                ("_type", s("ok")),
            ])
        })
        .chain((0..2).map(|n| {
            item(&[
                ("PK", s(&format!("USER#u{n}"))),
                ("SK", s(&format!("{hostile}#{n}"))),
            ])
        }))
        .collect();
    let design = infer_design(&info, &items);
    let doc = design_markdown(&design);
    assert!(!doc.contains('\u{1b}') && !doc.contains('\u{202e}'));
    // Every table row keeps its column count: no unescaped `|` from the data.
    for line in doc.lines().filter(|l| l.starts_with('|')) {
        let unescaped = line.replace("\\|", "");
        assert!(!unescaped.contains("x|y"), "{line}");
    }
    // One code fence opened and closed for the diagram, none from the data: a fence is a line
    // that starts with backticks, and the data's backticks are inside code spans of rows.
    let fences = doc.lines().filter(|l| l.trim_start().starts_with("```"));
    assert_eq!(fences.count(), 2, "{doc}");
    let mermaid = doc.split("```mermaid").nth(1).unwrap();
    for line in mermaid.lines().skip(2).filter(|l| l.contains('[')) {
        assert_eq!(line.matches('"').count(), 2, "{line}");
    }
    let json = design_workbench(&design, ValueMode::WithValues);
    assert!(!json.contains('\u{1b}') && !json.contains('\u{202e}'));
    assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok());
    let json = crate::formats::json::to_safe_json(&design, true);
    assert!(!json.contains('\u{1b}') && !json.contains('\u{202e}'));
}
