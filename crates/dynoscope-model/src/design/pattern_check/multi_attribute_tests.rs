//! `patterns check` on multi-attribute GSIs (issue 52): a partition is the tuple of its
//! attributes' values, so the primer's pattern 4 (orders by status) keyed by a status enum
//! first is the classic hot GSI when the next attribute does not spread it, and is not when
//! it does.

use super::*;
use crate::design::access_pattern::{parse_patterns_file, AccessPattern};
use crate::fixtures::multi_attribute_info;
use crate::item::value::{AttrValue, Item};

fn pattern(body: &str) -> AccessPattern {
    let text = format!("[[pattern]]\ntable = \"matches\"\nname = \"p\"\n{body}");
    parse_patterns_file(&text, "").unwrap().remove(0)
}

/// 60 orders: half PENDING, the rest SHIPPED or DELIVERED; two regions; 30 players.
fn orders() -> KeySample {
    let items = (0..60)
        .map(|i| {
            let s = |v: String| AttrValue::S(v);
            Item::from_attrs(vec![
                ("matchId".into(), s(format!("M{i:03}"))),
                (
                    "status".into(),
                    s(["PENDING", "SHIPPED", "PENDING", "DELIVERED"][i % 4].into()),
                ),
                ("region".into(), s(["EU", "US"][(i / 4) % 2].into())),
                ("player1Id".into(), s(format!("P{:02}", i % 30))),
                ("matchDate".into(), s(format!("2026-01-{:02}", 1 + i % 28))),
            ])
        })
        .collect();
    KeySample::unspread(items)
}

fn report(body: &str) -> PatternReport {
    let p = pattern(body);
    assess(Assessment {
        pattern: &p,
        source: "config",
        plan: plan(&p, &multi_attribute_info()),
        sample: &orders(),
        measured: None,
        unmeasured: None,
        advice: None,
    })
}

#[test]
fn a_status_enum_first_that_the_next_attribute_does_not_spread_is_the_classic_hot_gsi() {
    let r = report("index = \"StatusRegionIndex\"\npk = [\"{status}\", \"{region}\"]");
    assert_eq!(r.plan.pk_attributes, ["status", "region"]);
    assert_eq!(r.verdict.kind, FindingKind::LowCardinality, "{r:#?}");
    let risk = r.risk.as_ref().unwrap();
    assert_eq!((risk.values, risk.sampled_items), (6, 60));
    assert_eq!(risk.attribute, "status + region");
    assert_eq!(risk.hottest, "PENDING · EU");
    let parts: Vec<(&str, usize)> = risk
        .parts
        .iter()
        .map(|p| (p.attribute.as_str(), p.values))
        .collect();
    assert_eq!(parts, [("status", 3), ("region", 2)]);
    let text = &r.verdict.text;
    for words in [
        "low-cardinality GSI key: status + region takes 6 values in 60 sampled items",
        "and 'PENDING · EU' holds 26.7%",
        "status takes 3 values and region (2 values) does not spread them",
        "like a status enum: a classic hot GSI",
        "one tuple of values is one partition, capped near 1,000 WCU / 3,000 RCU a second",
        "shard it: a partition attribute of 3 shard values (0 … 2) beside status + region spreads 'PENDING · EU' over 3 partitions",
    ] {
        assert!(text.contains(words), "{words:?} not in {text}");
    }
    assert!(r.failed());
    assert_eq!(
        r.key_sample.as_deref(),
        Some("status + region: 6 values in 60 sampled items from 60 of 60 scan segments")
    );
}

#[test]
fn a_status_enum_first_spread_by_many_players_is_not_called_hot() {
    let r = report("index = \"StatusPlayerIndex\"\npk = [\"{status}\", \"{player}\"]");
    assert_eq!(r.verdict.kind, FindingKind::Served, "{r:#?}");
    assert_eq!(r.risk, None);
    let basis = r.key_sample.unwrap();
    assert!(
        basis.starts_with("status + player1Id: 45 values in 60 sampled items")
            && basis.contains("no sign of few values"),
        "{basis}"
    );
}

#[test]
fn only_the_tuples_the_templates_spell_count_and_a_fixed_tuple_has_no_choice() {
    // `PENDING` fixed, the region chosen: two values, but only the 30 PENDING items count.
    let r = report("index = \"StatusRegionIndex\"\npk = [\"PENDING\", \"{region}\"]");
    let risk = r.risk.expect("few regions among the pending");
    assert_eq!((risk.values, risk.sampled_items), (2, 30));
    // Both attributes fixed: one partition, nothing chosen, no risk judged.
    let fixed = report("index = \"StatusRegionIndex\"\npk = [\"PENDING\", \"EU\"]");
    assert_eq!((fixed.risk, fixed.key_sample), (None, None));
}
