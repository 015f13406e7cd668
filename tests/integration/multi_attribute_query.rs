//! `query` on the multi-attribute GSIs of the `matches` table (multi_attribute.rs): `--pk`
//! repeated gives every partition attribute in key-schema order, `--sk-eq` repeated a sort
//! prefix, and one range flag the next sort attribute. For every shape of condition the items
//! equal boto3's Query with the same condition (written here, not taken from dynoscope), in
//! the same order; a condition that breaks DynamoDB's rule is refused in one line naming the
//! attribute, before anything is sent (the fault proxy counts the Queries DynamoDB received).

use serde_json::{json, Value};

use super::{boto3, matches};
use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;

/// A condition as boto3 is given it: `(attribute, DynamoDB JSON value)` equalities, then at
/// most one range clause on the next sort attribute (`{a}` stands for its name placeholder).
struct Oracle<'a> {
    index: &'a str,
    equal: Vec<(&'a str, Value)>,
    range: Option<(&'a str, &'a str, Vec<Value>)>,
    descending: bool,
}

impl Oracle<'_> {
    fn items(&self) -> Vec<Value> {
        let mut names = serde_json::Map::new();
        let mut values = serde_json::Map::new();
        let mut clauses = Vec::new();
        for (i, (attr, value)) in self.equal.iter().enumerate() {
            names.insert(format!("#e{i}"), json!(attr));
            values.insert(format!(":e{i}"), value.clone());
            clauses.push(format!("#e{i} = :e{i}"));
        }
        if let Some((attr, clause, operands)) = &self.range {
            names.insert("#r".into(), json!(attr));
            for (i, v) in operands.iter().enumerate() {
                values.insert(format!(":r{i}"), v.clone());
            }
            clauses.push(clause.replace("{a}", "#r"));
        }
        let params = json!({
            "IndexName": self.index,
            "KeyConditionExpression": clauses.join(" AND "),
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": !self.descending,
        });
        let text = boto3(
            &local().endpoint,
            matches(),
            &["query", &params.to_string()],
        );
        lines(&text)
    }
}

fn dyno(endpoint: &str, index: &str, flags: &[&str]) -> std::process::Output {
    let mut args = vec![
        "query",
        matches(),
        "--index",
        index,
        "--output",
        "ddb-jsonl",
    ];
    args.extend_from_slice(flags);
    run_at(endpoint, &args)
}

fn s(v: &str) -> Value {
    json!({ "S": v })
}

fn n(v: &str) -> Value {
    json!({ "N": v })
}

fn b(v: &str) -> Value {
    json!({ "B": v })
}

const TOURNAMENT: &str = "TournamentRegionIndex";
const PLAYER: &str = "PlayerMatchHistoryIndex";
const SEED: &str = "SeedIndex";

#[test]
fn every_shape_of_condition_reads_what_boto3_reads() {
    let partition = || vec![("tournamentId", s("WINTER2024")), ("region", s("EU-WEST"))];
    let with = |extra: &[(&'static str, Value)]| {
        let mut equal = partition();
        equal.extend(extra.iter().cloned());
        equal
    };
    let pk = ["--pk", "WINTER2024", "--pk", "EU-WEST"];
    let semi = [("round", s("SEMIFINALS"))];
    let semi_upper = [("round", s("SEMIFINALS")), ("bracket", s("UPPER"))];
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<&str>, Oracle)> = vec![
        // Every partition attribute, and a sort prefix of 0 to 3 equalities.
        (TOURNAMENT, vec![], Oracle { index: TOURNAMENT, equal: partition(), range: None, descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS"], Oracle { index: TOURNAMENT, equal: with(&semi), range: None, descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-eq", "UPPER"], Oracle { index: TOURNAMENT, equal: with(&semi_upper), range: None, descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-eq", "UPPER", "--sk-eq", "M008"],
            Oracle { index: TOURNAMENT, equal: with(&[("round", s("SEMIFINALS")), ("bracket", s("UPPER")), ("matchId", s("M008"))]), range: None, descending: false }),
        // Each range operator on the attribute after the prefix.
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-lt", "UPPER"], Oracle { index: TOURNAMENT, equal: with(&semi), range: Some(("bracket", "{a} < :r0", vec![s("UPPER")])), descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-le", "LOWER"], Oracle { index: TOURNAMENT, equal: with(&semi), range: Some(("bracket", "{a} <= :r0", vec![s("LOWER")])), descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-gt", "LOWER"], Oracle { index: TOURNAMENT, equal: with(&semi), range: Some(("bracket", "{a} > :r0", vec![s("LOWER")])), descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-ge", "UPPER"], Oracle { index: TOURNAMENT, equal: with(&semi), range: Some(("bracket", "{a} >= :r0", vec![s("UPPER")])), descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-between", "A", "M"], Oracle { index: TOURNAMENT, equal: with(&semi), range: Some(("bracket", "{a} BETWEEN :r0 AND :r1", vec![s("A"), s("M")])), descending: false }),
        (TOURNAMENT, vec!["--sk-eq", "SEMIFINALS", "--sk-eq", "UPPER", "--sk-begins", "M00"], Oracle { index: TOURNAMENT, equal: with(&semi_upper), range: Some(("matchId", "begins_with({a}, :r0)", vec![s("M00")])), descending: false }),
        (TOURNAMENT, vec!["--sk-begins", "QUARTER"], Oracle { index: TOURNAMENT, equal: partition(), range: Some(("round", "begins_with({a}, :r0)", vec![s("QUARTER")])), descending: false }),
        // Descending: the whole sort order reversed.
        (TOURNAMENT, vec!["--desc"], Oracle { index: TOURNAMENT, equal: partition(), range: None, descending: true }),
        // One partition attribute, two sort attributes.
        (PLAYER, vec!["--sk-begins", "2025-0"], Oracle { index: PLAYER, equal: vec![("player1Id", s("P1"))], range: Some(("matchDate", "begins_with({a}, :r0)", vec![s("2025-0")])), descending: false }),
        (PLAYER, vec!["--sk-eq", "2025-02-11", "--sk-ge", "A"], Oracle { index: PLAYER, equal: vec![("player1Id", s("P1")), ("matchDate", s("2025-02-11"))], range: Some(("round", "{a} >= :r0", vec![s("A")])), descending: false }),
        // A number and a binary key part, on a sparse index.
        (SEED, vec!["--sk-ge", "-5"], Oracle { index: SEED, equal: vec![("tournamentId", s("WINTER2024")), ("seedGroup", n("1"))], range: Some(("rating", "{a} >= :r0", vec![n("-5")])), descending: false }),
        (SEED, vec!["--sk-eq", "14", "--sk-begins", "Ag=="], Oracle { index: SEED, equal: vec![("tournamentId", s("WINTER2024")), ("seedGroup", n("1")), ("rating", n("14"))], range: Some(("token", "begins_with({a}, :r0)", vec![b("Ag==")])), descending: false }),
    ];
    for (index, flags, oracle) in cases {
        let mut args: Vec<&str> = match index {
            TOURNAMENT => pk.to_vec(),
            PLAYER => vec!["--pk", "P1"],
            _ => vec!["--pk", "WINTER2024", "--pk", "1"],
        };
        args.extend(flags.iter().copied());
        let out = ok(dyno(&local().endpoint, index, &args));
        let want = oracle.items();
        assert!(
            !want.is_empty() || index == SEED,
            "{args:?}: boto3 read nothing"
        );
        assert_eq!(lines(&out), want, "{index} {args:?}");
    }
}

#[test]
fn a_condition_dynamodb_refuses_is_refused_by_name_before_anything_is_sent() {
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (TOURNAMENT, vec!["--pk", "WINTER2024"], "partition attribute 'region' has no value"),
        (TOURNAMENT, vec!["--pk", "WINTER2024", "--pk", "EU-WEST", "--pk", "X"], "3 partition values given but the key's partition attributes are tournamentId, region"),
        (PLAYER, vec!["--pk", "P1", "--sk-eq", "2025-02-11", "--sk-eq", "FINAL", "--sk-gt", "X"], "3 sort conditions given but the key's sort attributes are matchDate, round"),
        (SEED, vec!["--pk", "WINTER2024", "--pk", "1", "--sk-begins", "1"], "begins_with is not allowed on number (N) sort key 'rating'"),
        (SEED, vec!["--pk", "WINTER2024", "--pk", "one"], "key 'seedGroup' is a number (N)"),
        (TOURNAMENT, vec!["--key-condition-expression", "#t = :t AND #r = :r AND #b = :b", "--names", r##"{"#t":"tournamentId","#r":"region","#b":"bracket"}"##, "--values", r#"{":t":"WINTER2024",":r":"EU-WEST",":b":"UPPER"}"#],
            "sort attribute 'bracket' has a condition but 'round' before it has none"),
        (TOURNAMENT, vec!["--key-condition-expression", "#t = :t AND #r = :r AND #o > :o AND #b = :b", "--names", r##"{"#t":"tournamentId","#r":"region","#o":"round","#b":"bracket"}"##, "--values", r#"{":t":"WINTER2024",":r":"EU-WEST",":o":"A",":b":"UPPER"}"#],
            "sort attribute 'round' has a range condition but 'bracket' after it has a condition too"),
    ];
    for (index, args, want) in cases {
        let out = dyno(&proxy.url, index, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    // Two range flags: clap says so.
    let out = dyno(
        &proxy.url,
        TOURNAMENT,
        &["--pk", "a", "--pk", "b", "--sk-lt", "x", "--sk-gt", "y"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(proxy.requests("Query"), 0, "{}", proxy.summary());
}

#[test]
fn partiql_on_every_partition_attribute_and_a_sort_prefix_is_that_query() {
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let select = format!(
        "SELECT * FROM \"{}\".\"{TOURNAMENT}\" WHERE region = 'EU-WEST' AND tournamentId = 'WINTER2024' AND round = 'SEMIFINALS' AND begins_with(bracket, 'UP')",
        matches()
    );
    let explained = ok(run_at(&proxy.url, &["partiql", &select, "--explain"]));
    assert!(
        explained
            .contains("#pk0 = :pk0 AND #pk1 = :pk1 AND #sk0 = :sk0 AND begins_with(#sk1, :sk1)"),
        "{explained}"
    );
    assert!(!explained.contains("FilterExpression"), "{explained}");
    let out = ok(run_at(
        &proxy.url,
        &["partiql", &select, "--output", "ddb-jsonl"],
    ));
    let want = Oracle {
        index: TOURNAMENT,
        equal: vec![
            ("tournamentId", s("WINTER2024")),
            ("region", s("EU-WEST")),
            ("round", s("SEMIFINALS")),
        ],
        range: Some(("bracket", "begins_with({a}, :r0)", vec![s("UP")])),
        descending: false,
    }
    .items();
    assert!(!want.is_empty());
    assert_eq!(lines(&out), want);
    assert_eq!(proxy.requests("Query"), 1, "{}", proxy.summary());
    assert_eq!(
        proxy.requests("Scan") + proxy.requests("ExecuteStatement"),
        0
    );
}

/// The explorer (the real binary in a pty) on TournamentRegionIndex: the query form chosen on
/// that index, both partition values and a round prefix typed in their own fields, begins_with
/// chosen for the last filled one, run; the items shown are boto3's Query of the same condition
/// (every matchId, no other). Every step waits for the screen to show it, none sleeps to hope.
#[test]
fn the_explorer_query_form_reads_a_partition_tuple_and_a_sort_prefix() {
    use std::collections::BTreeSet;
    let want: BTreeSet<String> = Oracle {
        index: "TournamentRegionIndex",
        equal: vec![("tournamentId", s("WINTER2024")), ("region", s("EU-WEST"))],
        range: Some(("round", "begins_with({a}, :r0)", vec![s("SEMI")])),
        descending: false,
    }
    .items()
    .iter()
    .map(|i| i["matchId"]["S"].as_str().unwrap().to_owned())
    .collect();
    assert_eq!(want.len(), 2, "SEMIFINALS in the lower and upper brackets");
    let mut pty = pty::Session::start(&[matches()]);
    pty.wait_text("Collections by matchId");
    pty.keys(":");
    pty.wait_text("EXPLAIN");
    pty.keys("\x1b[Z"); // back to the index chooser
                        // The form starts on the table; → until it shows the index (DescribeTable's order).
    for _ in 0..4 {
        let screen = pty.screen();
        if screen.contains("‹ TournamentRegionIndex ›") {
            break;
        }
        let shown = chosen_target(&screen);
        pty.keys("\x1b[C");
        pty.wait_for("the next index", |s| chosen_target(s) != shown);
    }
    pty.wait_text("‹ TournamentRegionIndex ›");
    pty.keys("\tWINTER2024");
    pty.wait_for("tournamentId", |s| {
        field(s, "tournamentId").contains("WINTER2024")
    });
    pty.keys("\tEU-WEST");
    pty.wait_for("region", |s| field(s, "region").contains("EU-WEST"));
    pty.keys("\tSEMI");
    // SEMIFINALS is offered; Esc dismisses it, then on to the operator (bracket, matchId, op).
    pty.wait_text("Tab/→ accepts");
    pty.keys("\x1b");
    pty.wait_for("the offer dismissed", |s| !s.contains("Tab/→ accepts"));
    pty.keys("\t\t\t\x1b[D");
    pty.wait_text("begins_with(#sk0, :sk0)");
    pty.keys("\r");
    let screen = pty.wait_for("the query's items", |s| {
        !s.contains("EXPLAIN") && s.contains("Query · 1 page · 2 items")
    });
    let shown: BTreeSet<String> = screen
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            w.len() == 4 && w.starts_with('M') && w[1..].bytes().all(|b| b.is_ascii_digit())
        })
        .map(String::from)
        .collect();
    assert_eq!(shown, want, "{screen}");
    assert!(screen.contains("WINTER2024 · EU-WEST"), "{screen}");
    pty.keys("q");
    assert!(pty.wait_exit().success());
}

/// The target the query form's index field shows: `‹ NAME ›`.
fn chosen_target(screen: &str) -> String {
    let Some(at) = screen.find("‹ ") else {
        return String::new();
    };
    screen[at..]
        .split(" ›")
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// The text on the form's row labelled `label`.
fn field(screen: &str, label: &str) -> String {
    let row = screen.lines().find(|l| l.contains(&format!("{label:<18}")));
    row.map(|l| {
        l.split(&format!("{label:<18}"))
            .nth(1)
            .unwrap_or("")
            .to_owned()
    })
    .unwrap_or_default()
}
