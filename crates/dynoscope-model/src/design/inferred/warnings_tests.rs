use super::super::tests::{item, s, tenant_design};
use super::super::{infer_design, infer_design_sampled, IndexSample};
use super::*;
use crate::item::value::AttrValue;

fn rules(warnings: &[DesignWarning]) -> Vec<&str> {
    warnings.iter().map(|w| w.rule.as_str()).collect()
}

#[test]
fn a_type_conflict_rests_on_the_items_carrying_the_attribute() {
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    assert_eq!(rules(&design.warnings), ["type-conflict", "synthetic-key"]);
    assert_eq!(design.warnings[0].items, 6);
    assert_eq!(
        design.warnings[0].message,
        "TICKET price: types differ (N in 4, S in 2)"
    );
}

#[test]
fn a_hot_status_value_on_an_index_sample_is_the_hotkeys_finding() {
    let (info, _) = tenant_design();
    // 120 tickets, 100 of them OPEN: GSI1's partition key has 2 values, one with 83 %.
    let tickets: Vec<Item> = (0..120)
        .map(|n| {
            let status = if n < 100 { "OPEN" } else { "CLOSED" };
            item(&[
                ("PK", s(&format!("TENANT#t{}", n % 40))),
                ("SK", s(&format!("TICKET#{n:03}"))),
                ("GSI1PK", s(&format!("STATUS#{status}"))),
                ("GSI1SK", s(&format!("{n:03}"))),
            ])
        })
        .collect();
    let table: Vec<Item> = tickets[..10].to_vec();
    let sample = IndexSample {
        index: "GSI1".into(),
        items: tickets,
    };
    let design = infer_design_sampled(&info, &table, &[sample]);
    let hot: Vec<&DesignWarning> = design
        .warnings
        .iter()
        .filter(|w| w.rule == "low-cardinality")
        .collect();
    assert_eq!(hot.len(), 1, "{:?}", design.warnings);
    assert_eq!(hot[0].items, 120);
    assert!(
        hot[0]
            .message
            .starts_with("in the sample, low-cardinality: GSI 'GSI1'")
            && hot[0]
                .message
                .contains("'STATUS#OPEN' alone holds 100 items"),
        "{}",
        hot[0].message
    );
}

#[test]
fn an_all_projection_warns_on_a_big_gsi_only() {
    let (mut info, items) = tenant_design();
    assert!(rules(&infer_design(&info, &items).warnings)
        .iter()
        .all(|r| *r != "all-projection"));
    info.indexes[0].size_bytes = Some(BIG_GSI_BYTES * 3);
    info.indexes[0].item_count = Some(2_000_000);
    let design = infer_design(&info, &items);
    let all = design
        .warnings
        .iter()
        .find(|w| w.rule == "all-projection")
        .unwrap();
    assert_eq!(all.items, 2_000_000);
    assert!(
        all.message.starts_with("index GSI1 projects ALL"),
        "{}",
        all.message
    );
}

#[test]
fn items_near_the_limit_are_counted_per_kind() {
    let (info, mut items) = tenant_design();
    items[0].insert("blob", AttrValue::S("x".repeat(350 * 1024)));
    let design = infer_design(&info, &items);
    let large = design
        .warnings
        .iter()
        .find(|w| w.rule == "item-size")
        .unwrap();
    assert_eq!(large.items, 2);
    assert!(
        large
            .message
            .starts_with("TENANT: 1 of 2 sampled items are 300"),
        "{}",
        large.message
    );
}

#[test]
fn a_gsis_synthetic_key_the_items_carry_is_a_warning_naming_the_multi_attribute_key() {
    // GSI1PK = STATUS#{status}, GSI1SK = {createdAt}#{ticketId}, and the tickets carry all
    // three; the table's own PK and SK are concatenations too, but no table key can have
    // several attributes, so they are no warning.
    let (info, items) = tenant_design();
    let design = infer_design(&info, &items);
    let synthetic: Vec<&DesignWarning> = design
        .warnings
        .iter()
        .filter(|w| w.rule == "synthetic-key")
        .collect();
    assert_eq!(synthetic.len(), 1, "{:?}", design.warnings);
    assert_eq!(synthetic[0].items, 6);
    assert_eq!(
        synthetic[0].message,
        "GSI GSI1: GSI1PK = STATUS#{status}, GSI1SK = {createdAt}#{ticketId} are concatenations of attributes the items carry; a GSI keyed by status S, sort createdAt S + ticketId S would serve the same patterns without GSI1PK and GSI1SK (6 of the 6 items of that shape, of 12 read)"
    );
}
