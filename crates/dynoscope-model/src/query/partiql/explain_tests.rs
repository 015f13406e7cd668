use super::*;
use crate::query::partiql::fixtures::app;
use crate::query::partiql::{advise, parse, parse_parameters, translate, Statement};

fn explained(text: &str, parameters: &str, sample: &[crate::item::value::Item]) -> String {
    let Statement::Select(select) = parse(text).unwrap() else {
        panic!()
    };
    let parameters = parse_parameters(parameters).unwrap();
    let info = app();
    let plan = translate(&select, &parameters, &info).unwrap();
    let advice = advise(&select, &plan, &info, sample);
    explain(&Explained {
        select: &select,
        parameters: &parameters,
        plan: &plan,
        info: &info,
        advice: &advice,
        limit: None,
    })
}

#[test]
fn a_query_names_its_index_and_key_condition_and_every_dialect() {
    let text = explained(
        r#"SELECT * FROM "app"."GSI1" WHERE GSI1PK = ? AND begins_with(GSI1SK, '2024') AND total > 5"#,
        r#"["STATUS#SHIPPED"]"#,
        &[],
    );
    insta::assert_snapshot!(text);
}

#[test]
fn a_scan_names_its_estimate() {
    let text = explained("SELECT * FROM app WHERE PK > 'A'", "[]", &[]);
    assert!(
        text.starts_with("Scan of the whole table — estimated 8 RCU (63.6 KB / 4 KB, halved for eventually consistent reads)\n"),
        "{text}"
    );
    assert!(
        text.contains("aws dynamodb scan --table-name app --filter-expression '#PK > :v1'"),
        "{text}"
    );
}

#[test]
fn a_scan_that_no_index_serves_says_which_gsi_to_create() {
    let s = |v: &str| crate::item::value::AttrValue::S(v.into());
    let sample: Vec<crate::item::value::Item> = (0..300)
        .map(|n| {
            crate::item::value::Item::from_attrs(vec![
                ("PK".into(), s(&format!("ORDER#{n}"))),
                ("SK".into(), s("#META")),
                ("carrier".into(), s(["UPS", "DHL", "FEDEX"][n % 3])),
                ("shippedAt".into(), s(&format!("2026-03-{:02}", n % 28 + 1))),
            ])
        })
        .collect();
    let text = explained(
        "SELECT PK, shippedAt FROM app WHERE carrier = 'UPS' AND shippedAt > '2026-03-10'",
        "[]",
        &sample,
    );
    insta::assert_snapshot!(text);
}

#[test]
fn an_or_of_partition_keys_explains_as_queries_dynamodb_would_scan() {
    let text = explained(
        "SELECT * FROM app WHERE PK = 'a' OR PK = 'b' ORDER BY SK DESC",
        "[]",
        &[],
    );
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("2 Queries on table 'app', merged in sort-key order: #pk = :pk")
    );
    assert_eq!(
        lines.next(),
        Some("DynamoDB's own ExecuteStatement would scan the whole table for an OR of partition keys; dynoscope runs one Query per value, as for PK IN [...]")
    );
    assert!(
        text.contains("--scan-index-forward") || text.contains("no-scan-index-forward"),
        "{text}"
    );
}
