//! Tests of pattern_bind.rs: a pattern on a multi-attribute GSI read from TOML, bound, and
//! turned into the one Query `KeyCondition::new` accepts, or refused naming what is missing.

use super::*;
use crate::design::access_pattern::parse_patterns_file;
use crate::engine::pattern_read;
use crate::fixtures::multi_attribute_info;
use crate::item::value::AttrValue;

fn pattern(body: &str) -> AccessPattern {
    let text = format!("[[pattern]]\ntable = \"matches\"\nname = \"p\"\n{body}");
    parse_patterns_file(&text, "p.toml")
        .unwrap_or_else(|e| panic!("{e}"))
        .remove(0)
}

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const ROUND: &str = r#"index = "TournamentRegionIndex"
pk = ["{tournamentId}", "{region}"]
sk_eq = ["{round}"]
sk = { begins_with = "{bracket}" }
"#;

#[test]
fn a_list_is_one_template_per_key_attribute_and_a_string_the_list_of_one() {
    let p = pattern(ROUND);
    assert_eq!(p.pk, ["{tournamentId}", "{region}"]);
    assert_eq!(p.sk_eq, ["{round}"]);
    assert_eq!(p.params(), ["tournamentId", "region", "round", "bracket"]);
    assert_eq!(p.pk_display(), "{tournamentId} · {region}");
    let one = pattern("pk = \"USER#{id}\"\nsk_eq = \"PROFILE\"");
    assert_eq!(
        (one.pk, one.sk_eq),
        (vec!["USER#{id}".to_string()], vec!["PROFILE".to_string()])
    );
}

#[test]
fn binding_fills_every_template_and_the_read_is_the_multi_attribute_query() {
    let bound = pattern(ROUND)
        .bind(&params(&[
            ("tournamentId", "WINTER2024"),
            ("region", "EU-WEST"),
            ("round", "SEMIFINALS"),
            ("bracket", "UP"),
        ]))
        .unwrap();
    assert_eq!(bound.pk, ["WINTER2024", "EU-WEST"]);
    assert_eq!(bound.sort_prefix, ["SEMIFINALS"]);
    assert_eq!(bound.sort, Some(SortInput::BeginsWith("UP".into())));
    let spec = pattern_read(&bound, &multi_attribute_info()).unwrap();
    assert_eq!(spec.index.as_deref(), Some("TournamentRegionIndex"));
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1 AND #sk0 = :sk0 AND begins_with(#sk1, :sk1)")
    );
    let names: Vec<&str> = spec.names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["tournamentId", "region", "round", "bracket"]);
    assert_eq!(
        spec.values[1],
        (":pk1".into(), AttrValue::S("EU-WEST".into()))
    );
    assert!(spec.shards.is_empty());
}

#[test]
fn a_shard_in_one_partition_template_is_a_request_per_shard() {
    let p = pattern(
        "index = \"StatusRegionIndex\"\npk = [\"PENDING#{shard}\", \"{region}\"]\nshards = \"0..2\"",
    );
    let bound = p.bind(&params(&[("region", "EU")])).unwrap();
    assert_eq!(
        bound.partitions(),
        [
            ["PENDING#0", "EU"],
            ["PENDING#1", "EU"],
            ["PENDING#2", "EU"]
        ]
    );
    let spec = pattern_read(&bound, &multi_attribute_info()).unwrap();
    assert_eq!(spec.shards.len(), 3);
    assert_eq!(spec.shards[2][0].1, AttrValue::S("PENDING#2".into()));
}

#[test]
fn a_pattern_that_does_not_fit_the_key_is_refused_in_its_own_terms() {
    let info = multi_attribute_info();
    let refusal = |body: &str, given: &[(&str, &str)]| {
        let bound = pattern(body).bind(&params(given)).unwrap();
        pattern_read(&bound, &info).unwrap_err()
    };
    let e = refusal(
        "index = \"TournamentRegionIndex\"\npk = \"{tournamentId}\"",
        &[("tournamentId", "W")],
    );
    assert_eq!(
        e,
        "pattern 'p' gives 1 partition template but index 'TournamentRegionIndex' is keyed by tournamentId S + region S, sort round S + bracket S + matchId S; give one per partition attribute, in that order: pk = [\"{tournamentId}\", \"{region}\"]"
    );
    let e = refusal(
        "index = \"StatusRegionIndex\"\npk = [\"A\", \"B\"]\nsk_eq = [\"x\"]\nsk = { eq = \"y\" }",
        &[],
    );
    assert!(
        e.contains("gives 2 sort conditions (sk_eq and sk) but index 'StatusRegionIndex' has the sort attributes matchDate"),
        "{e}"
    );
    let e = refusal("pk = [\"M1\", \"M2\"]", &[]);
    assert!(e.contains("table 'matches' is keyed by matchId S"), "{e}");
    assert!(e.ends_with("pk = \"{matchId}\""), "{e}");
    // The key condition's own rules still hold: an empty value is refused by attribute.
    let e = refusal(
        "index = \"TournamentRegionIndex\"\npk = [\"W\", \"{region}\"]",
        &[("region", "")],
    );
    assert!(e.contains("key 'region' cannot be empty"), "{e}");
}

#[test]
fn a_missing_parameter_is_named_before_any_request_is_built() {
    let e = pattern(ROUND)
        .bind(&params(&[("tournamentId", "W"), ("region", "EU")]))
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "pattern 'p' needs parameter 'round'; pass --param round=VALUE"
    );
}

#[test]
fn bad_template_lists_name_the_field_and_its_line() {
    let cases = [
        ("pk = []\n", "line 4: access pattern 'p': pk is an empty list"),
        (
            "pk = ['a', 'b', 'c', 'd', 'e']\n",
            "line 4: access pattern 'p': pk has 5 templates but a key has at most 4 partition attributes",
        ),
        ("pk = ['a', 1]\n", "expected a string"),
        ("pk = 1\n", "a string, or a list of strings with one per key attribute"),
        (
            "pk = 'a'\nsk_eq = ['{x']\n",
            "line 5: access pattern 'p': sk_eq '{x' has an unclosed '{'",
        ),
        (
            "pk = 'a'\nsk_eq = ['a', 'b', 'c', 'd']\nsk = { gt = 'e' }\n",
            "line 5: access pattern 'p': sk_eq and sk give 5 sort conditions",
        ),
        (
            "pk = ['{shard}', 'b']\n",
            "uses {shard} in pk but declares no shards range",
        ),
        (
            "pk = ['{shard}', 'b#{shard}']\nshards = '0..3'\n",
            "line 4: access pattern 'p': pk has {shard} in more than one template",
        ),
    ];
    for (body, needle) in cases {
        let text = format!("[[pattern]]\ntable = 't'\nname = 'p'\n{body}");
        let e = parse_patterns_file(&text, "p.toml").unwrap_err();
        assert!(e.contains(needle), "{body}: {e}");
        assert!(!e.contains('\n'), "{e}");
    }
}
