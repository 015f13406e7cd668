//! The oracle is DynamoDB itself: thousands of generated PartiQL SELECTs over one loaded table
//! (key and non-key predicates, a GSI, ORDER BY, `?` parameters, hostile values), each run two
//! ways against DynamoDB Local — as its own ExecuteStatement, and as the Query or Scan dynoscope
//! translates it to. They must return the same items, in the same sort-key order when the
//! statement orders. And every statement dynoscope calls a Query must be one DynamoDB also runs
//! without reading the whole table: ExecuteStatement's `Limit` counts items *evaluated*, so at
//! `Limit` 10 a full scan of the 312 items needs 31+ pages, and a Query only its partitions'.

use crate::common;

use aws_sdk_dynamodb::types::{AttributeValue, PutRequest, WriteRequest};
use aws_sdk_dynamodb::Client;
use common::tables::{self, TableSpec};
use common::*;
use dynoscope::model::design::schema::{
    IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType as Kt, Projection as Proj, TableInfo,
};
use dynoscope::model::query::partiql::{parse, parse_parameters, translate, ReadKind, Statement};
use futures::StreamExt;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use std::collections::HashMap;

const PKS: usize = 12;
const SKS: usize = 26;
/// Statements a run checks. With the fuzz tests beside them, 2,000 of them (and 20,000 fuzz
/// cases) took 140 s of CPU, a tenth of the CI's budget; 1,000 (and 4,000) took 64 s
/// (docs/benchmarks.md §17.13), this test alone 49 s of it, and 500 take half that (§17.15).
/// `PROPTEST_CASES` asks for more.
fn statements() -> usize {
    dynoscope::model::fixtures::proptest_cases(500) as usize
}
const LIMIT: i32 = 10;

const STRINGS: &[&str] = &[
    "x",
    "y",
    "it's",
    "ünï 😀",
    "a#b:c",
    "",
    "q\"q",
    "back\\slash",
    "x y",
];

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn pk(i: usize) -> String {
    // Hostile partition keys too: a quote, a '#', non-ASCII.
    match i {
        10 => "p'10".into(),
        11 => "p#ü11".into(),
        i => format!("p{i:02}"),
    }
}

fn sk(j: usize) -> String {
    format!("s{j:02}")
}

fn item(i: usize, j: usize) -> HashMap<String, AttributeValue> {
    let k = i * SKS + j;
    let mut m = HashMap::new();
    m.insert("PK".into(), s(pk(i)));
    m.insert("SK".into(), s(sk(j)));
    m.insert(
        "a".into(),
        n(if k.is_multiple_of(5) {
            format!("{}.5", k % 9)
        } else {
            ((k * 7) % 13).to_string()
        }),
    );
    m.insert("b".into(), s(STRINGS[k % STRINGS.len()]));
    m.insert("c".into(), AttributeValue::Bool(k.is_multiple_of(3)));
    if !k.is_multiple_of(4) {
        m.insert("s".into(), s(format!("v{}", k % 6)));
    }
    if k.is_multiple_of(7) {
        m.insert("nul".into(), AttributeValue::Null(true));
    }
    m.insert(
        "l".into(),
        AttributeValue::L(
            (0..(k % 4))
                .map(|e| if e == 1 { s("w") } else { n(e + k % 3) })
                .collect(),
        ),
    );
    m.insert(
        "m".into(),
        AttributeValue::M(HashMap::from([
            ("k".to_string(), n(k % 5)),
            (
                "inner".to_string(),
                AttributeValue::M(HashMap::from([("z".to_string(), s(["q", "r"][k % 2]))])),
            ),
        ])),
    );
    m.insert(
        "tags".into(),
        AttributeValue::Ss((0..=(k % 3)).map(|t| format!("t{}", (t + k) % 4)).collect()),
    );
    m.insert("status".into(), s(["OK", "BAD"][k % 2]));
    m.insert("x-y".into(), s(["v", "w"][k % 2]));
    if k % 3 != 1 {
        m.insert("GPK".into(), s(format!("g{}", k % 5)));
        m.insert("GSK".into(), n((k * 11) % 40));
    }
    m
}

fn info(table: &str) -> TableInfo {
    let key = |name: &str, key_type| KeyAttr {
        name: name.into(),
        key_type,
    };
    TableInfo {
        name: table.into(),
        status: "ACTIVE".into(),
        keys: KeySchema::simple(key("PK", Kt::S), Some(key("SK", Kt::S))),
        indexes: vec![IndexInfo {
            name: "GIX".into(),
            kind: IndexKind::Gsi,
            keys: KeySchema::simple(key("GPK", Kt::S), Some(key("GSK", Kt::N))),
            projection: Proj {
                projection_type: "ALL".into(),
                non_key_attributes: Vec::new(),
            },
            provisioned: None,
            item_count: None,
            size_bytes: None,
        }],
        billing_mode: "PAY_PER_REQUEST".into(),
        provisioned: None,
        item_count: (PKS * SKS) as i64,
        size_bytes: 0,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

async fn load(c: &Client) -> String {
    let table = table_name("oracle");
    TableSpec::pk_sk(&table)
        .gsi(
            "GIX",
            tables::s("GPK"),
            Some(tables::n("GSK")),
            aws_sdk_dynamodb::types::ProjectionType::All,
        )
        .create(c)
        .await;
    let all: Vec<_> = (0..PKS)
        .flat_map(|i| (0..SKS).map(move |j| item(i, j)))
        .collect();
    for chunk in all.chunks(25) {
        let writes = chunk
            .iter()
            .map(|m| {
                WriteRequest::builder()
                    .put_request(
                        PutRequest::builder()
                            .set_item(Some(m.clone()))
                            .build()
                            .unwrap(),
                    )
                    .build()
            })
            .collect();
        c.batch_write_item()
            .request_items(&table, writes)
            .send()
            .await
            .unwrap();
    }
    table
}

mod generate;
use generate::{statement, Generated};

mod run;
use run::{canonical, execute, in_order, run_plan, sorted};

enum Outcome {
    Query,
    Scan,
    NotTranslated,
    /// DynamoDB Local fails some valid statements with InternalFailure (ORDER BY beside a NOT);
    /// there is nothing to compare with.
    LocalFailed,
}

async fn check(
    c: &Client,
    info: &TableInfo,
    g: &Generated,
    probe_scan: bool,
) -> Result<Outcome, String> {
    let Ok(Statement::Select(select)) = parse(&g.text) else {
        return Err("the generator wrote a statement dynoscope cannot parse".into());
    };
    let parameters = parse_parameters(&g.parameters).map_err(|e| e.to_string())?;
    let plan = match translate(&select, &parameters, info) {
        Ok(plan) => plan,
        Err(_) => return Ok(Outcome::NotTranslated),
    };
    // A statement dynoscope calls a Query is run at `Limit` LIMIT: its pages say whether
    // DynamoDB queried it too (below). Without an ORDER BY, those pages together are also its
    // items, so it is run once; with one, DynamoDB Local's pages at a small Limit come in
    // another order when descending, so its order is taken from one whole run as before.
    let query = plan.kind == ReadKind::Query && !plan.dynamodb_scans;
    let once = query && select.order_by.is_none();
    let (theirs, mut pages) = match execute(c, &g.text, &parameters, once.then_some(LIMIT)).await {
        Err(e) if e.contains("InternalFailure") => return Ok(Outcome::LocalFailed),
        other => other.map_err(|e| format!("ExecuteStatement failed: {e}"))?,
    };
    let ours = run_plan(c, &plan)
        .await
        .map_err(|e| format!("the translation failed: {e}; plan {plan:?}"))?;
    if sorted(&ours.items) != sorted(&theirs) {
        return Err(format!(
            "different items: dynoscope {} ({:?}), DynamoDB {}; plan {plan:?}",
            ours.items.len(),
            ours.items.iter().take(3).map(canonical).collect::<Vec<_>>(),
            theirs.len()
        ));
    }
    if select.order_by.is_some() {
        in_order(&plan, &ours.items, &theirs)?;
    }
    match plan.kind {
        ReadKind::Query => {
            if !query {
                // An OR of partition keys: Queries here, a full scan in DynamoDB's own PartiQL
                // (EXPLAIN says so), so there is no "DynamoDB queries it too" to check.
                return Ok(Outcome::Query);
            }
            if !once {
                pages = execute(c, &g.text, &parameters, Some(LIMIT)).await?.1;
            }
            // Each page evaluates up to LIMIT items; a Query per key value reads what ours
            // scanned, plus one short page per Query at most.
            let bound = ours.scanned as usize / LIMIT as usize + plan.query_count() + 1;
            if pages > bound {
                return Err(format!("DynamoDB took {pages} pages at Limit {LIMIT} (a Query would take at most {bound}): it scanned"));
            }
            Ok(Outcome::Query)
        }
        ReadKind::Scan => {
            if probe_scan {
                // The probe itself must see a scan, or the Query check above proves nothing.
                let (_, pages) = execute(c, &g.text, &parameters, Some(LIMIT)).await?;
                let whole = info
                    .keys_for(plan.index.as_deref())
                    .map(|_| ours.scanned as usize)
                    .unwrap_or(0);
                if pages < whole / LIMIT as usize {
                    return Err(format!(
                        "a Scan took only {pages} pages at Limit {LIMIT} over {whole} items"
                    ));
                }
            }
            Ok(Outcome::Scan)
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dynamodb_local_agrees_with_every_translated_statement() {
    let c = client().await;
    let table = load(&c).await;
    let info = info(&table);
    let mut runner = TestRunner::deterministic();
    let strategy = statement(table.clone());
    let statements = statements();
    let generated: Vec<Generated> = (0..statements)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect();
    let results: Vec<(usize, Result<Outcome, String>)> =
        futures::stream::iter(generated.iter().enumerate())
            .map(|(i, g)| {
                let (c, info) = (&c, &info);
                async move { (i, check(c, info, g, i % 50 == 0).await) }
            })
            .buffer_unordered(8)
            .collect()
            .await;
    let mut failures = Vec::new();
    let (mut queries, mut scans, mut untranslated, mut local_failed) = (0, 0, 0, 0);
    for (i, result) in results {
        match result {
            Ok(Outcome::Query) => queries += 1,
            Ok(Outcome::Scan) => scans += 1,
            Ok(Outcome::NotTranslated) => untranslated += 1,
            Ok(Outcome::LocalFailed) => local_failed += 1,
            Err(e) => failures.push(format!(
                "{} --parameters '{}': {e}",
                generated[i].text, generated[i].parameters
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {statements} statements disagree (queries {queries}, scans {scans}, untranslated {untranslated}); first:\n{}",
        failures.len(),
        failures.iter().take(8).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        queries > statements / 3,
        "queries {queries}, scans {scans}, untranslated {untranslated}"
    );
    assert!(
        scans > statements / 10,
        "queries {queries}, scans {scans}, untranslated {untranslated}"
    );
    assert!(
        untranslated < statements / 5,
        "queries {queries}, scans {scans}, untranslated {untranslated}"
    );
    assert!(
        local_failed < statements / 20,
        "DynamoDB Local failed {local_failed} statements with InternalFailure (queries {queries}, scans {scans}, untranslated {untranslated})"
    );
}
