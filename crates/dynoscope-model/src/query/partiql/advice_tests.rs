use super::*;
use crate::design::schema::TableInfo;
use crate::query::partiql::fixtures::{app, matches};
use crate::query::partiql::{parse, translate, Statement};

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn order(n: usize, status: &str) -> Item {
    Item::from_attrs(vec![
        ("PK".into(), s(&format!("USER#{n}"))),
        ("SK".into(), s(&format!("ORDER#{n}"))),
        ("status".into(), s(status)),
        ("GSI1PK".into(), s(&format!("STATUS#{status}"))),
        ("total".into(), AttrValue::N(n.to_string())),
    ])
}

fn advice(text: &str, sample: &[Item]) -> Advice {
    advice_on(&app(), text, sample)
}

fn advice_on(info: &TableInfo, text: &str, sample: &[Item]) -> Advice {
    let Statement::Select(select) = parse(text).unwrap() else {
        panic!()
    };
    let plan = translate(&select, &[], info).unwrap();
    advise(&select, &plan, info, sample)
}

#[test]
fn a_value_the_sample_always_pairs_with_a_gsi_key_names_that_gsi() {
    let sample: Vec<Item> = (0..40)
        .map(|n| order(n, ["SHIPPED", "PENDING"][n % 2]))
        .collect();
    let Advice::Serving(serving) =
        advice("SELECT * FROM \"app\" WHERE status = 'SHIPPED'", &sample)
    else {
        panic!("GSI1 serves it")
    };
    assert_eq!(serving.index, "GSI1");
    assert_eq!(
        serving.statement,
        r#"SELECT * FROM "app"."GSI1" WHERE "GSI1PK" = 'STATUS#SHIPPED' AND "status" = 'SHIPPED'"#
    );
    assert!(
        serving.because.contains("20 of 40 sampled"),
        "{}",
        serving.because
    );
}

#[test]
fn an_equality_on_a_gsi_key_reads_the_gsi() {
    let Advice::Serving(serving) = advice("SELECT * FROM app WHERE GSI1PK = 'x'", &[]) else {
        panic!()
    };
    assert_eq!(
        serving.statement,
        r#"SELECT * FROM "app"."GSI1" WHERE "GSI1PK" = 'x'"#
    );
}

#[test]
fn without_a_serving_index_it_says_which_gsi_to_create_and_warns_of_few_values() {
    let sample: Vec<Item> = (0..200)
        .map(|n| {
            let attrs = order(n, ["A", "B", "C"][n % 3]).into_attrs();
            Item::from_attrs(attrs.into_iter().filter(|(k, _)| k != "GSI1PK").collect())
        })
        .collect();
    let Advice::Create(new) = advice(
        "SELECT \"PK\", total FROM app WHERE status = 'A' AND total > 3",
        &sample,
    ) else {
        panic!("no index pairs status with a key: it says what to create")
    };
    assert_eq!(new.name, "status-index");
    assert_eq!(
        new.command,
        r#"aws dynamodb update-table --table-name app --attribute-definitions '[{"AttributeName":"status","AttributeType":"S"},{"AttributeName":"total","AttributeType":"N"}]' --global-secondary-index-updates '[{"Create":{"IndexName":"status-index","KeySchema":[{"AttributeName":"status","KeyType":"HASH"},{"AttributeName":"total","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}}]'"#
    );
    assert_eq!(new.estimated_items, 420);
    assert!(new.backfill_wcu >= 420, "{}", new.backfill_wcu);
    let warning = new.warning.expect("3 values");
    assert!(warning.contains("low-cardinality"), "{warning}");
}

#[test]
fn equality_on_every_partition_attribute_of_a_multi_attribute_gsi_reads_it_as_a_query() {
    let info = matches();
    let text = "SELECT * FROM app WHERE region = 'EU-WEST' AND tournamentId = 'WINTER2024' AND round = 'SEMI'";
    let Advice::Serving(serving) = advice_on(&info, text, &[]) else {
        panic!("TournamentRegionIndex serves it")
    };
    assert_eq!(serving.index, "TournamentRegionIndex");
    assert_eq!(
        serving.because,
        "the statement pins every attribute of its partition key ('tournamentId', 'region')"
    );
    // The advised statement is the Query DynamoDB accepts, not another Scan.
    let Statement::Select(advised) = parse(&serving.statement).unwrap() else {
        panic!()
    };
    let plan = translate(&advised, &[], &info).unwrap();
    assert_eq!(
        plan.kind,
        crate::query::partiql::plan::ReadKind::Query,
        "{plan:?}"
    );
    assert_eq!(plan.index.as_deref(), Some("TournamentRegionIndex"));
}

#[test]
fn one_partition_attribute_of_several_is_not_enough_for_a_multi_attribute_gsi() {
    // `region` alone: a Query of TournamentRegionIndex needs `tournamentId` too, so the advice
    // is the index to create, not that one.
    let Advice::Create(new) = advice_on(&matches(), "SELECT * FROM app WHERE region = 'EU'", &[])
    else {
        panic!("nothing serves it")
    };
    assert_eq!(new.name, "region-index");
}
