//! A pattern's report from what the check has: its plan, the key sample of what it reads (taken
//! before any call, so that a pattern the budget or a missing `--allow-scan` leaves unmeasured
//! still gets the risk its key carries), its calls when they ran, and PartiQL's advice for an
//! index the table lacks. The verdicts a plan and a sample imply do not wait for a measurement.

use std::collections::{BTreeMap, BTreeSet};

use super::measure::Measured;
use super::params::match_template;
use super::plan::{PatternPlan, ReadShape};
use super::risk::PartValues;
use super::sample::{judge_cardinality, Cardinality, KeySample, Seen};
use super::verdict::{finding, judge, Evidence, FindingKind};
use super::PatternReport;
use crate::design::access_pattern::AccessPattern;
use crate::item::value::Item;
use crate::query::partiql::Advice;
use crate::traffic::distribution::{key_text, partition_text};

/// What a pattern's check found, for [`assess`].
pub struct Assessment<'a> {
    pub pattern: &'a AccessPattern,
    pub source: &'a str,
    pub plan: PatternPlan,
    /// The sample its key's cardinality is judged on: for a GSI or a missing index, the
    /// table's, spread over its key space (the items the index holds or would hold, in no
    /// index's order). Empty when none was read.
    pub sample: &'a KeySample,
    pub measured: Option<Measured>,
    /// Why nothing (or not every call) ran.
    pub unmeasured: Option<String>,
    pub advice: Option<&'a Advice>,
}

/// The hot-partition risk of the partition key a pattern chooses by its parameters: a GSI's,
/// or the one a pattern on a missing index names (`index_pk`) for the GSI it needs. Counted
/// over the sampled items that hold the attribute, as a sparse index holds only those, and
/// whose key the pattern's `pk` template can spell: an overloaded GSI keys many entity types
/// (`CUSTOMER#…` beside `STATUS#…`), and only the pattern's own are the values it chooses
/// among. A pattern with no parameters reads one fixed partition: its key has no choice to be
/// low in. On a multi-attribute partition key a partition is the tuple of its attributes'
/// values (`PENDING · EU-WEST`): an item counts when it holds every one of them and each
/// template spells its attribute, and the key is low when the tuples are few, however the
/// attributes are named.
/// `None` when the key has no choice to judge, or no sample was read.
pub fn key_risk(
    pattern: &AccessPattern,
    plan: &PatternPlan,
    sample: &KeySample,
) -> Option<Cardinality> {
    let gsi = plan.reads_gsi || matches!(plan.shape, ReadShape::Scan { .. });
    let attributes = &plan.pk_attributes;
    if attributes.is_empty()
        || pattern.pk.len() != attributes.len()
        || !gsi
        || pattern.params().is_empty()
        || sample.segments == 0
    {
        return None;
    }
    let mut seen: BTreeMap<String, Vec<Seen>> = BTreeMap::new();
    let mut parts: Vec<BTreeSet<String>> = vec![BTreeSet::new(); attributes.len()];
    let held = |item: &Item| attributes.iter().all(|a| item.get(a).is_some());
    for (at, item) in sample.iter().filter(|(_, i)| held(i)) {
        let mut params = BTreeMap::new();
        let texts: Vec<_> = attributes.iter().map(|a| key_text(item, a)).collect();
        let fits = pattern
            .pk
            .iter()
            .zip(&texts)
            .all(|(template, text)| match_template(template, text, false, &mut params));
        if fits {
            for (values, text) in parts.iter_mut().zip(&texts) {
                values.insert(text.to_string());
            }
            let key = partition_text(item, attributes);
            seen.entry(key.into_owned()).or_default().push(at);
        }
    }
    let name = attributes.join(" + ");
    let mut judged = judge_cardinality(&name, &seen, sample.segments);
    if let (Cardinality::Low(risk), true) = (&mut judged, attributes.len() > 1) {
        risk.parts = attributes
            .iter()
            .zip(parts)
            .map(|(attribute, values)| PartValues {
                attribute: attribute.clone(),
                values: values.len(),
            })
            .collect();
    }
    Some(judged)
}

/// The pattern's report: every finding its plan, sample and calls imply, the worst first.
pub fn assess(a: Assessment) -> PatternReport {
    let judged = key_risk(a.pattern, &a.plan, a.sample);
    let key_sample = judged
        .as_ref()
        .map(|j| j.basis(&a.plan.pk_attributes.join(" + ")));
    let risk = judged.as_ref().and_then(Cardinality::low).cloned();
    let findings = judge(&Evidence {
        plan: &a.plan,
        measured: a.measured.as_ref(),
        risk: risk.as_ref(),
        advice: a.advice.filter(|x| !matches!(x, Advice::None)),
    });
    let unmeasured = match (&a.measured, a.unmeasured) {
        (None, None) => Some("not measured".to_string()),
        (_, why) => why,
    };
    PatternReport {
        name: a.pattern.name.clone(),
        source: a.source.to_string(),
        verdict: findings[0].clone(),
        plan: a.plan,
        measured: a.measured,
        unmeasured,
        risk,
        key_sample,
        findings,
    }
}

/// The report of a pattern whose request DynamoDB refused (or that could not be sent): failed, with the service's reason, so that
/// the check goes on to the other patterns and names this one.
pub fn refused(
    pattern: &AccessPattern,
    source: &str,
    plan: PatternPlan,
    reason: &str,
) -> PatternReport {
    let verdict = finding(
        FindingKind::Refused,
        format!("refused: its request could not run ({reason}); fix the pattern and check again"),
    );
    PatternReport {
        name: pattern.name.clone(),
        source: source.to_string(),
        plan,
        measured: None,
        unmeasured: Some("DynamoDB refused its request".to_string()),
        risk: None,
        key_sample: None,
        findings: vec![verdict.clone()],
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::pattern_check::{plan, FindingKind};
    use crate::item::value::{AttrValue, Item};
    use crate::query::partiql::fixtures::app;

    fn pattern(toml: &str) -> AccessPattern {
        let text = format!("[[pattern]]\ntable = \"app\"\n{toml}");
        crate::design::access_pattern::parse_patterns_file(&text, "")
            .unwrap()
            .remove(0)
    }

    /// 60 orders in three statuses (30/15/15), each also under its customer.
    fn sample(key: &str) -> Vec<Item> {
        (0..60)
            .map(|i| {
                let status = ["S#NEW", "S#NEW", "S#DONE", "S#GONE"][i % 4];
                Item::from_attrs(vec![
                    ("PK".into(), AttrValue::S(format!("C#{i}"))),
                    ("SK".into(), AttrValue::S(format!("O#{i}"))),
                    (key.into(), AttrValue::S(status.into())),
                ])
            })
            .collect()
    }

    #[test]
    fn a_gsi_pattern_the_budget_left_unmeasured_keeps_its_low_cardinality_verdict() {
        let p = pattern("name = \"orders-in-a-status\"\nindex = \"GSI1\"\npk = \"{status}\"");
        let items = sample("GSI1PK");
        let report = assess(Assessment {
            pattern: &p,
            source: "config",
            plan: plan(&p, &app()),
            sample: &KeySample::unspread(items.clone()),
            measured: None,
            unmeasured: Some("the budget ran out first".into()),
            advice: None,
        });
        assert_eq!(report.verdict.kind, FindingKind::LowCardinality);
        assert!(
            report.verdict.text.contains("shard it"),
            "{}",
            report.verdict.text
        );
        assert_eq!(report.risk.as_ref().map(|r| r.values), Some(3));
        assert_eq!(report.measured, None);
        assert_eq!(
            report.unmeasured.as_deref(),
            Some("the budget ran out first")
        );
        assert!(report.failed());
        // Without a sample there is nothing to judge the key on, and it says it was not
        // measured even when the caller gave no reason.
        let bare = assess(Assessment {
            pattern: &p,
            source: "config",
            plan: plan(&p, &app()),
            sample: &KeySample::default(),
            measured: None,
            unmeasured: None,
            advice: None,
        });
        assert_eq!(bare.verdict.kind, FindingKind::Served);
        assert_eq!(bare.unmeasured.as_deref(), Some("not measured"));
    }

    #[test]
    fn a_would_be_scan_without_allow_scan_keeps_the_risk_of_the_key_it_needs() {
        let p = pattern(
            "name = \"orders-in-a-state\"\nindex = \"ByState\"\nindex_pk = \"state\"\npk = \"{state}\"",
        );
        let mut items = sample("state");
        // Items without the attribute are not in the GSI it needs: they do not count.
        items.extend((0..200).map(|i| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(format!("U#{i}"))),
                ("SK".into(), AttrValue::S("PROFILE".into())),
            ])
        }));
        let report = assess(Assessment {
            pattern: &p,
            source: "config",
            plan: plan(&p, &app()),
            sample: &KeySample::unspread(items.clone()),
            measured: None,
            unmeasured: Some("it can only be a Scan; --allow-scan runs it".into()),
            advice: None,
        });
        let kinds: Vec<FindingKind> = report.findings.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [FindingKind::Scan, FindingKind::LowCardinality]);
        let risk = report.risk.unwrap();
        assert_eq!((risk.attribute.as_str(), risk.sampled_items), ("state", 60));
        assert!(report.unmeasured.unwrap().contains("--allow-scan"));
    }

    #[test]
    fn a_pattern_on_the_table_or_without_parameters_has_no_key_risk() {
        let items = KeySample::unspread(sample("GSI1PK"));
        let table = pattern("name = \"orders\"\npk = \"{customer}\"");
        assert_eq!(key_risk(&table, &plan(&table, &app()), &items), None);
        let fixed = pattern("name = \"new\"\nindex = \"GSI1\"\npk = \"S#NEW\"");
        assert_eq!(key_risk(&fixed, &plan(&fixed, &app()), &items), None);
    }

    #[test]
    fn on_an_overloaded_gsi_only_the_keys_the_template_spells_count() {
        // GSI1 keys 60 orders by `S#<status>` (three values) and 400 customers by `C#<id>`:
        // counted over every key the index has, the statuses would drown among 403 values.
        let mut items = sample("GSI1PK");
        items.extend((0..400).map(|i| {
            Item::from_attrs(vec![
                ("PK".into(), AttrValue::S(format!("C#{i}"))),
                ("SK".into(), AttrValue::S("PROFILE".into())),
                ("GSI1PK".into(), AttrValue::S(format!("C#{i}"))),
            ])
        }));
        let by_status = pattern("name = \"by-status\"\nindex = \"GSI1\"\npk = \"S#{status}\"");
        let items = KeySample::unspread(items);
        let risk = key_risk(&by_status, &plan(&by_status, &app()), &items).unwrap();
        let risk = risk.low().unwrap();
        assert_eq!((risk.values, risk.sampled_items), (3, 60));
        assert_eq!(risk.hottest, "S#NEW");
        // The customers' own pattern on the same index chooses among 400 values: no risk.
        let by_customer = pattern("name = \"by-customer\"\nindex = \"GSI1\"\npk = \"C#{id}\"");
        let judged = key_risk(&by_customer, &plan(&by_customer, &app()), &items).unwrap();
        assert_eq!(judged.low(), None);
    }
}
