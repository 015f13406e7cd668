//! Issue 52: the query form on the `matches` table's TournamentRegionIndex (partition
//! tournamentId + region, sort round + bracket + matchId): a field per key attribute, every
//! shape of condition DynamoDB accepts, the refusals, and completion narrowed by the fields
//! before it.

use super::*;
use crate::app::fixtures::{matches_info, matches_items};
use crate::app::fixtures::{press, send};
use crate::app::input::{Key, KeyCode, Modifiers};
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect};
use crate::app::query_form::builder_tests::{builder, builder_open_with, dismiss, typed};

const REGION_INDEX: usize = 1;
const PLAYER_INDEX: usize = 2;

fn op(name: &str) -> usize {
    SORT_OPS.iter().position(|o| *o == name).unwrap()
}

/// The form on `index` with `texts` typed in its fields.
fn form(index: usize, texts: &[(Field, &str)]) -> QueryForm {
    let mut b = QueryForm::new(index);
    for (field, text) in texts {
        b.set_text(*field, text);
    }
    b
}

const BOTH: [(Field, &str); 2] = [(Field::PkAt(0), "WINTER2024"), (Field::PkAt(1), "EU-WEST")];

#[test]
fn the_fields_are_one_per_key_attribute_then_the_operator_on_the_last() {
    let info = matches_info();
    let mut b = QueryForm::new(REGION_INDEX);
    let key_fields = [
        Field::PkAt(0),
        Field::PkAt(1),
        Field::SkAt(0),
        Field::SkAt(1),
        Field::SkAt(2),
        Field::Op,
    ];
    let tail = [Field::Order, Field::Limit, Field::Filter, Field::Projection];
    let want: Vec<Field> = [Field::Index]
        .into_iter()
        .chain(key_fields)
        .chain(tail)
        .collect();
    assert_eq!(b.fields(&info), want);
    b.op = op("between");
    assert!(b.fields(&info).contains(&Field::SkHigh));
    let labels: Vec<String> = key_fields
        .iter()
        .map(|f| b.field_label(&info, *f, 17))
        .collect();
    assert_eq!(
        labels,
        [
            "tournamentId",
            "region",
            "round",
            "bracket",
            "matchId",
            "op on last sort"
        ]
    );
    // The table keeps its one partition field and its sort-key operator.
    let table = QueryForm::new(0).fields(&info);
    assert_eq!(table[1], Field::Pk);
    assert!(!table
        .iter()
        .any(|f| matches!(f, Field::PkAt(_) | Field::SkAt(_))));
}

/// Every shape DynamoDB accepts: both partition attributes; 0 to 3 sort equalities; each
/// range operator on the next sort attribute after 0, 1 or 2 equalities.
#[test]
fn every_shape_of_condition_is_built_as_dynamodb_accepts_it() {
    let info = matches_info();
    let sort = [
        (Field::SkAt(0), "FINAL"),
        (Field::SkAt(1), "UPPER"),
        (Field::SkAt(2), "m3"),
    ];
    let head = "#pk0 = :pk0 AND #pk1 = :pk1";
    for equalities in 0..=3 {
        let texts: Vec<_> = BOTH.iter().chain(&sort[..equalities]).copied().collect();
        let spec = form(REGION_INDEX, &texts).prepare(&info).unwrap().spec;
        let tail: String = (0..equalities)
            .map(|n| format!(" AND #sk{n} = :sk{n}"))
            .collect();
        assert_eq!(spec.key_condition.unwrap(), format!("{head}{tail}"));
        let names: Vec<&str> = spec.names.iter().map(|(_, n)| n.as_str()).collect();
        let all = ["tournamentId", "region", "round", "bracket", "matchId"];
        assert_eq!(names, all[..2 + equalities]);
        assert_eq!(spec.index.as_deref(), Some("TournamentRegionIndex"));
    }
    let ranges = [
        ("<", "#skN < :skN"),
        ("<=", "#skN <= :skN"),
        (">", "#skN > :skN"),
        (">=", "#skN >= :skN"),
        ("between", "#skN BETWEEN :skN_lo AND :skN_hi"),
        ("begins_with", "begins_with(#skN, :skN)"),
    ];
    for equalities in 0..3 {
        for (name, spelled) in ranges {
            // The range is on the last filled sort field; the ones before it are equalities.
            let texts: Vec<_> = BOTH.iter().chain(&sort[..=equalities]).copied().collect();
            let mut b = form(REGION_INDEX, &texts);
            b.op = op(name);
            b.set_text(Field::SkHigh, "zzz");
            let spec = b.prepare(&info).unwrap().spec;
            let prefix: String = (0..equalities)
                .map(|n| format!(" AND #sk{n} = :sk{n}"))
                .collect();
            let last = spelled.replace("skN", &format!("sk{equalities}"));
            assert_eq!(
                spec.key_condition.unwrap(),
                format!("{head}{prefix} AND {last}")
            );
            assert_eq!(spec.names.len(), 3 + equalities, "{name}");
        }
    }
    // One partition attribute and two sort attributes: the table's `#pk` spelling until a
    // sort equality asks for positions.
    let mut b = form(
        PLAYER_INDEX,
        &[(Field::PkAt(0), "p1"), (Field::SkAt(0), "2024-")],
    );
    b.op = op("begins_with");
    let spec = b.prepare(&info).unwrap().spec;
    assert_eq!(
        spec.key_condition.unwrap(),
        "#pk = :pk AND begins_with(#sk, :sk)"
    );
}

/// What breaks the rule is refused at the field at fault, naming its attribute and the fix;
/// nothing is prepared, so Enter sends nothing.
#[test]
fn a_form_that_breaks_the_rule_names_the_attribute_and_prepares_nothing() {
    let info = matches_info();
    let refused = |b: &QueryForm| b.prepare(&info).unwrap_err();
    let e = refused(&form(REGION_INDEX, &[(Field::PkAt(0), "WINTER2024")]));
    assert_eq!(e.field, Field::PkAt(1));
    assert!(
        e.message.contains("'region'") && e.message.contains("tournamentId, region"),
        "{}",
        e.message
    );
    let e = refused(&form(REGION_INDEX, &[(Field::PkAt(1), "EU-WEST")]));
    assert_eq!(e.field, Field::PkAt(0));
    // A gap: bracket given, round before it empty.
    let gap: Vec<_> = BOTH
        .iter()
        .copied()
        .chain([(Field::SkAt(1), "UPPER")])
        .collect();
    let e = refused(&form(REGION_INDEX, &gap));
    assert_eq!(e.field, Field::SkAt(1));
    assert!(
        e.message.contains("'bracket'") && e.message.contains("give 'round' an equality"),
        "{}",
        e.message
    );
    // A range chosen with no sort field filled.
    let mut b = form(REGION_INDEX, &BOTH);
    b.op = op(">");
    let e = refused(&b);
    assert_eq!(e.field, Field::Op);
    assert!(e.message.contains("'round'"), "{}", e.message);
    // between's high below its low, on the last filled field (bracket).
    let texts: Vec<_> = BOTH
        .iter()
        .copied()
        .chain([(Field::SkAt(0), "FINAL"), (Field::SkAt(1), "UPPER")])
        .collect();
    let mut b = form(REGION_INDEX, &texts);
    b.op = op("between");
    b.set_text(Field::SkHigh, "LOWER");
    let e = refused(&b);
    assert_eq!(e.field, Field::SkAt(1));
    assert!(
        e.message.contains("'bracket'") && e.message.contains("swap"),
        "{}",
        e.message
    );
    b.set_text(Field::SkHigh, "");
    assert_eq!(refused(&b).field, Field::SkHigh);
}

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

fn completions(s: &crate::app::state::State) -> Vec<String> {
    builder(s)
        .completion
        .as_ref()
        .map(|c| c.items.clone())
        .unwrap_or_default()
}

/// Each field completes its own attribute's values from the loaded items, only those seen
/// with what the fields before it hold; Enter runs the condition over every attribute.
#[test]
fn completion_is_narrowed_by_the_fields_before_it_and_enter_runs_the_whole_key() {
    let mut s = builder_open_with(matches_info(), matches_items());
    send(&mut s, [press(KeyCode::BackTab), press(KeyCode::Right)]);
    assert_eq!(builder(&s).focus, Field::Index);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::PkAt(0));
    send(&mut s, typed("W"));
    assert_eq!(completions(&s), ["WINTER2024"]);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::PkAt(1));
    // US-EAST is seen with WINTER2024 only.
    send(&mut s, typed("U"));
    assert_eq!(completions(&s), ["US-EAST"]);
    send(&mut s, [ctrl('u')]);
    let b = builder(&s).clone();
    let mut spring = b.clone();
    spring.set_text(Field::PkAt(0), "SPRING2025");
    spring.set_text(Field::PkAt(1), "U");
    let values = crate::app::query_form::multi_key::completion_values(
        &spring,
        b.keys(&matches_info()),
        Field::PkAt(1),
    );
    assert!(
        values.unwrap().1.iter().all(|r| r != "US-EAST"),
        "narrowed by SPRING2025"
    );
    send(&mut s, typed("EU-WEST"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::SkAt(0));
    // Rounds of WINTER2024 · EU-WEST: FINAL, SEMI, SEMIFINAL (not QUARTER, of AP-SOUTH).
    send(&mut s, typed("F"));
    assert_eq!(completions(&s), ["FINAL"]);
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("Q"));
    assert!(completions(&s).is_empty(), "{:?}", completions(&s));
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("SEMIFINAL"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("L"));
    assert_eq!(completions(&s), ["LOWER"]);
    dismiss(&mut s);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = match effects.as_slice() {
        [.., Effect::Read(ReadEffect::Start { spec, .. })] => spec,
        other => panic!("expected the query to start, got {other:?}"),
    };
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1 AND #sk0 = :sk0 AND #sk1 = :sk1")
    );
}

/// Ctrl-S on a sort field reads the typed partition's keys: a Query over every partition
/// attribute projecting every key attribute, each named once; its rows feed the completions.
#[test]
fn the_key_sample_queries_the_whole_partition_and_projects_every_key_attribute() {
    let mut s = builder_open_with(matches_info(), Vec::new());
    send(
        &mut s,
        [
            press(KeyCode::BackTab),
            press(KeyCode::Right),
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, typed("WINTER2024"));
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("EU-WEST"));
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("S"));
    let effects = send(&mut s, [ctrl('s')]);
    let (id, spec) = match effects.as_slice() {
        [Effect::Read(ReadEffect::Start { id, spec })] => (*id, spec.clone()),
        other => panic!("expected one sample read, got {other:?}"),
    };
    assert_eq!(
        spec.key_condition.as_deref(),
        Some("#pk0 = :pk0 AND #pk1 = :pk1")
    );
    assert_eq!(
        spec.projection.as_deref(),
        Some("#pk0, #pk1, #ka2, #ka3, #ka4")
    );
    let names: Vec<&str> = spec.names.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(
        names,
        ["tournamentId", "region", "round", "bracket", "matchId"]
    );
    let items = matches_items().into_iter().filter(|i| {
        i.get("region")
            .map(crate::model::text::cell::cell_text)
            .as_deref()
            == Some("EU-WEST")
    });
    send(
        &mut s,
        [crate::app::fixtures::page(id, 1, items.collect(), false)],
    );
    assert_eq!(completions(&s), ["SEMI", "SEMIFINAL"]);
}

/// History (and its file) keeps every key field, so ↑ recalls the whole condition.
#[test]
fn history_keeps_every_key_field() {
    use crate::app::history_file::{decode, encode, history_key, HistoryBook};
    let texts: Vec<_> = BOTH
        .iter()
        .copied()
        .chain([(Field::SkAt(2), "m9")])
        .collect();
    let mut b = form(REGION_INDEX, &texts);
    b.op = op("begins_with");
    let entry = b.history_entry();
    let mut book = HistoryBook::new();
    book.insert(history_key("e", "matches"), vec![entry.clone()]);
    let back = decode(&encode(&book));
    assert_eq!(
        back[&history_key("e", "matches")],
        std::slice::from_ref(&entry)
    );
    let mut recalled = QueryForm::new(0);
    recalled.restore(&entry);
    assert_eq!(recalled.text(Field::PkAt(1)), "EU-WEST");
    assert_eq!(recalled.text(Field::SkAt(2)), "m9");
    assert_eq!(recalled.op, op("begins_with"));
}

/// PartiQL mode on the index: a key attribute's value completes from the loaded items seen
/// with what the statement pins for the attributes before it.
#[test]
fn partiql_completes_each_key_attribute_narrowed_by_what_the_statement_pins() {
    let mut s = builder_open_with(matches_info(), matches_items());
    send(&mut s, [press(KeyCode::BackTab), press(KeyCode::Right)]);
    send(&mut s, [ctrl('r'), ctrl('r')]);
    assert_eq!(builder(&s).focus, Field::Statement);
    send(&mut s, typed("tournamentId = 'WINTER2024' AND region = 'U"));
    let start = r#"SELECT * FROM "app"."TournamentRegionIndex" WHERE "#;
    let head = format!("{start}tournamentId = 'WINTER2024' AND region = '");
    assert_eq!(completions(&s), [format!("{head}US-EAST")]);
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("tournamentId = 'SPRING2025' AND region = 'U"));
    assert!(completions(&s).is_empty(), "{:?}", completions(&s));
    send(&mut s, [ctrl('u')]);
    let pinned = "tournamentId = 'WINTER2024' AND region = 'EU-WEST' AND begins_with(round, 'SEMIF";
    send(&mut s, typed(pinned));
    assert_eq!(
        completions(&s),
        [format!("{}SEMIFINAL", &pinned[..pinned.len() - 5])]
    );
}
