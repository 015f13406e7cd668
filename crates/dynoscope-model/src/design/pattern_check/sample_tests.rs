use std::collections::BTreeMap;

use super::*;
use crate::item::value::Item;

/// `per_segment[s]`: the values segment `s` returned, one per item, each segment read in part.
fn seen(per_segment: &[Vec<String>]) -> BTreeMap<String, Vec<Seen>> {
    let mut out: BTreeMap<String, Vec<Seen>> = BTreeMap::new();
    for (s, values) in per_segment.iter().enumerate() {
        for v in values {
            let segment = s as u32;
            out.entry(v.clone()).or_default().push(Seen {
                segment,
                draw: segment,
            });
        }
    }
    out
}

#[test]
fn forty_customers_seen_a_partition_per_segment_are_not_judged_low() {
    // 16 segments of 8 items, each segment the first items of one customer: 16 values of 8
    // items each would pass for few values, but none turned up in a second segment.
    let per_segment: Vec<Vec<String>> = (0..16)
        .map(|s| vec![format!("CUSTOMER#{s:03}"); 8])
        .collect();
    let judged = judge_cardinality("GSI1PK", &seen(&per_segment), 16);
    assert!(
        matches!(
            judged,
            Cardinality::NotLow {
                values: 16,
                items: 128,
                segments_hit: 16,
                ..
            }
        ),
        "{judged:?}"
    );
    assert!(judged.basis("GSI1PK").contains("no sign of few values"));
}

#[test]
fn one_value_in_one_segment_is_too_little_to_judge() {
    // What the old one-page sample saw: 50 items of CUSTOMER#000.
    let per_segment = vec![vec!["CUSTOMER#000".to_string(); 50]];
    let judged = judge_cardinality("GSI1PK", &seen(&per_segment), 16);
    assert_eq!(
        judged,
        Cardinality::TooFew {
            items: 50,
            draws: 1,
            segments_hit: 1,
            segments: 16
        }
    );
    let basis = judged.basis("GSI1PK");
    assert!(basis.contains("not enough items to judge"), "{basis}");
    assert!(
        basis.contains("1 independent draws from 1 of 16 scan segments"),
        "{basis}"
    );
}

#[test]
fn a_status_enum_recurs_in_every_segment_and_is_low() {
    let statuses = ["S#NEW", "S#NEW", "S#DONE", "S#GONE"];
    let per_segment: Vec<Vec<String>> = (0..16)
        .map(|s| (0..8).map(|i| statuses[(s + i) % 4].to_string()).collect())
        .collect();
    let judged = judge_cardinality("GSI1PK", &seen(&per_segment), 16);
    let risk = judged.low().unwrap_or_else(|| panic!("{judged:?}"));
    assert_eq!((risk.values, risk.sampled_items), (3, 128));
    assert_eq!((risk.segments_hit, risk.segments), (16, 16));
    assert_eq!(risk.hottest, "S#NEW");
}

#[test]
fn a_small_table_read_whole_is_judged_item_by_item() {
    // Two segments read to their end: every item is a draw of its own.
    let statuses = ["S#NEW", "S#NEW", "S#DONE", "S#GONE"];
    let items: Vec<Item> = (0..60)
        .map(|i| {
            Item::from_attrs(vec![(
                "GSI1PK".into(),
                crate::item::value::AttrValue::S(statuses[i % 4].into()),
            )])
        })
        .collect();
    let mut sample = KeySample::new(2);
    sample.push_page(1, &items[30..], true);
    sample.push_page(0, &items[..30], true);
    let sample = sample.in_segment_order();
    let mut seen: BTreeMap<String, Vec<Seen>> = BTreeMap::new();
    for (at, item) in sample.iter() {
        let key = item
            .get("GSI1PK")
            .and_then(|v| v.as_s())
            .unwrap()
            .to_string();
        seen.entry(key).or_default().push(at);
    }
    let judged = judge_cardinality("GSI1PK", &seen, 2);
    let risk = judged.low().unwrap_or_else(|| panic!("{judged:?}"));
    assert_eq!(
        (risk.values, risk.sampled_items, risk.segments_hit),
        (3, 60, 2)
    );
    // Read in part, the same two segments would be two draws: too few to judge.
    let mut part = KeySample::new(2);
    part.push_page(0, &items[..30], false);
    part.push_page(1, &items[30..], false);
    let mut seen: BTreeMap<String, Vec<Seen>> = BTreeMap::new();
    for (at, item) in part.iter() {
        let key = item
            .get("GSI1PK")
            .and_then(|v| v.as_s())
            .unwrap()
            .to_string();
        seen.entry(key).or_default().push(at);
    }
    assert!(matches!(
        judge_cardinality("GSI1PK", &seen, 2),
        Cardinality::TooFew { draws: 2, .. }
    ));
}

#[test]
fn a_sample_is_shaped_by_the_size_of_what_it_reads() {
    assert_eq!(sample_shape(0), (1, 128));
    assert_eq!(sample_shape(108), (4, 32));
    assert_eq!(sample_shape(300), (10, 13));
    assert_eq!(sample_shape(2_400), (16, 8));
    assert_eq!(sample_shape(10_000_000), (16, 8));
}
