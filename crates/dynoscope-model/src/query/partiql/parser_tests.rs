use super::*;
use crate::item::value::AttrValue;
use crate::query::partiql::ast::Direction;
use crate::query::partiql::error::ErrorKind;
use crate::query::partiql::render;
use proptest::prelude::*;

fn select(text: &str) -> Select {
    match parse(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        Statement::Select(s) => s,
        other => panic!("{text}: {other:?}"),
    }
}

fn error(text: &str) -> PartiqlError {
    parse(text).expect_err(text)
}

fn path(names: &[&str]) -> Path {
    Path(names.iter().map(|n| Step::Attr(n.to_string())).collect())
}

#[test]
fn star_from_a_quoted_table_with_a_bare_key_equality() {
    let s = select(r#"SELECT * FROM "app" WHERE PK = 'USER#1'"#);
    assert_eq!(s.projection, None);
    assert_eq!(s.table, "app");
    assert_eq!(s.index, None);
    assert_eq!(
        s.filter,
        Some(Expr::Cmp(
            Operand::Path(path(&["PK"])),
            CmpOp::Eq,
            Operand::Value(AttrValue::S("USER#1".into()))
        ))
    );
}

#[test]
fn an_index_a_projection_and_order() {
    let s = select(
        r#"select "name", address.city, tags[2] from app."GSI1" where "GSI1PK" = ? order by GSI1SK desc"#,
    );
    assert_eq!(s.index.as_deref(), Some("GSI1"));
    assert_eq!(
        s.projection,
        Some(vec![
            path(&["name"]),
            path(&["address", "city"]),
            Path(vec![Step::Attr("tags".into()), Step::Index(2)])
        ])
    );
    assert_eq!(s.order_by, Some((path(&["GSI1SK"]), Direction::Desc)));
    assert_eq!(s.parameters, 1);
}

#[test]
fn precedence_and_negation() {
    let s = select("SELECT * FROM t WHERE a = 1 OR NOT b = 2 AND c NOT IN [3, 4]");
    let Some(Expr::Or(_, right)) = s.filter else {
        panic!("OR binds loosest")
    };
    let Expr::And(not_b, not_in) = *right else {
        panic!("AND binds tighter")
    };
    assert!(matches!(*not_b, Expr::Not(_)));
    assert!(matches!(*not_in, Expr::Not(inner) if matches!(*inner, Expr::In(..))));
}

#[test]
fn literals_of_every_kind() {
    let s = select(
        "SELECT * FROM t WHERE a = [1, 'x', TRUE, NULL] AND b = {'k': -2.5e3} AND c = <<'p','q'>> AND d = <<1, 2>>",
    );
    let text = render::expression(s.filter.as_ref().unwrap());
    assert_eq!(
        text,
        r#""a" = [1, 'x', TRUE, NULL] AND "b" = {'k': -2.5e3} AND "c" = <<'p', 'q'>> AND "d" = <<1, 2>>"#
    );
}

#[test]
fn strings_and_names_double_their_quotes() {
    let s = select(r#"SELECT * FROM "we""ird" WHERE "it's" = 'it''s'"#);
    assert_eq!(s.table, "we\"ird");
    assert_eq!(
        render::statement(&s),
        r#"SELECT * FROM "we""ird" WHERE "it's" = 'it''s'"#
    );
}

#[test]
fn functions_missing_and_between() {
    let s = select(
        "SELECT * FROM t WHERE begins_with(SK, 'A') AND contains(tags, 'x') AND attribute_type(n, 'N') AND size(tags) > 2 AND x IS MISSING AND y IS NOT MISSING AND z BETWEEN 1 AND 5",
    );
    assert_eq!(
        render::expression(s.filter.as_ref().unwrap()),
        r#"begins_with("SK", 'A') AND contains("tags", 'x') AND attribute_type("n", 'N') AND size("tags") > 2 AND "x" IS MISSING AND "y" IS NOT MISSING AND "z" BETWEEN 1 AND 5"#
    );
}

#[test]
fn writes_and_transactions_are_recognised_not_parsed() {
    for (text, verb) in [
        ("INSERT INTO t VALUE {'PK': 'a'}", "INSERT"),
        ("update t SET a = 1 WHERE PK = 'x'", "UPDATE"),
        ("DELETE FROM t WHERE PK = 'a'", "DELETE"),
        ("EXISTS(SELECT * FROM t WHERE PK = 'a')", "EXISTS"),
    ] {
        assert_eq!(parse(text), Ok(Statement::Write(verb.into())), "{text}");
    }
}

#[test]
fn errors_name_the_token_and_the_fix() {
    let cases = [
        (
            "SELECT * FROM t WHERE a = 'open",
            ErrorKind::Syntax,
            "the string starting at column 27 is never closed; add the closing '",
        ),
        (
            "SELECT * t",
            ErrorKind::Syntax,
            "expected FROM, found 't' at column 10",
        ),
        (
            "SELECT * FROM t WHERE a =",
            ErrorKind::Syntax,
            "expected a value",
        ),
        (
            "SELECT * FROM t WHERE a @ 1",
            ErrorKind::Syntax,
            "unexpected character '@' at column 25",
        ),
        (
            "SELECT * FROM t WHERE status = 'x' LIMIT 5",
            ErrorKind::Syntax,
            "no LIMIT clause",
        ),
        (
            "SELECT * FROM t WHERE lower(a) = 'x'",
            ErrorKind::Unsupported,
            "the function 'lower' is not translated",
        ),
        (
            "SELECT * FROM t WHERE a + 1 = 2",
            ErrorKind::Unsupported,
            "the operator '+' is not translated",
        ),
        (
            "SELECT * FROM t WHERE a IS NULL",
            ErrorKind::Unsupported,
            "IS NULL is not translated",
        ),
        (
            "SELECT * FROM t WHERE AND = 1",
            ErrorKind::Syntax,
            "double-quoted, as in \"AND\"",
        ),
        ("", ErrorKind::Syntax, "the statement is empty"),
        (
            "SELECT * FROM t WHERE m.inner.z = 1",
            ErrorKind::Syntax,
            "'inner' at column 25 is a reserved word in PartiQL; double-quote the name: \"inner\"",
        ),
        (
            "SELECT * FROM t WHERE a = 1e999999",
            ErrorKind::Syntax,
            "the number '1e999999' at column 27 cannot be stored",
        ),
    ];
    for (text, kind, part) in cases {
        let e = error(text);
        assert_eq!(e.kind, kind, "{text}: {e}");
        assert!(e.message.contains(part), "{text}: {e}");
        assert!(!e.message.contains('\n'), "{text}: one line");
    }
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z_][a-zA-Z0-9_]{0,6}".prop_filter("not a keyword", |n| {
            !crate::query::partiql::reserved::is_reserved(n)
                && ![
                    "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS", "ORDER",
                    "BY", "ASC", "DESC", "LIMIT", "TRUE", "FALSE", "NULL", "MISSING", "INSERT",
                    "UPDATE", "DELETE", "REPLACE", "UPSERT", "REMOVE", "BEGIN", "COMMIT",
                    "ROLLBACK", "START", "EXISTS",
                ]
                .contains(&n.to_ascii_uppercase().as_str())
        }),
        "[ -~]{1,8}",
    ]
}

fn value() -> impl Strategy<Value = AttrValue> {
    prop_oneof![
        "[ -~\u{e9}\u{1F600}]{0,8}".prop_map(AttrValue::S),
        (-1000i64..1000).prop_map(|n| AttrValue::N(n.to_string())),
        any::<bool>().prop_map(AttrValue::Bool),
        Just(AttrValue::Null),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        (
            name(),
            prop_oneof![
                Just(CmpOp::Eq),
                Just(CmpOp::Ne),
                Just(CmpOp::Lt),
                Just(CmpOp::Ge)
            ],
            value()
        )
            .prop_map(|(n, op, v)| Expr::Cmp(
                Operand::Path(Path(vec![Step::Attr(n)])),
                op,
                Operand::Value(v)
            )),
        (name(), any::<bool>()).prop_map(|(n, m)| Expr::Missing(Path(vec![Step::Attr(n)]), m)),
        (name(), value(), value()).prop_map(|(n, a, b)| Expr::Between(
            Operand::Path(Path(vec![Step::Attr(n)])),
            Operand::Value(a),
            Operand::Value(b)
        )),
        (name(), prop::collection::vec(value(), 1..4)).prop_map(|(n, vs)| Expr::In(
            Operand::Path(Path(vec![Step::Attr(n), Step::Index(1)])),
            vs.into_iter().map(Operand::Value).collect()
        )),
        (name(), value()).prop_map(|(n, v)| Expr::Call(
            Func::BeginsWith,
            Path(vec![Step::Attr(n)]),
            Operand::Value(v)
        )),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Expr::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| Expr::Not(Box::new(a))),
        ]
    })
}

proptest! {
    /// Rendering then parsing gives back the same statement: the renderer quotes every name and
    /// value the parser would misread, and the parser reads every spelling the renderer writes.
    #[test]
    fn render_then_parse_round_trips(table in name(), filter in expr()) {
        let original = Select { projection: None, table, index: None, filter: Some(filter), order_by: None, parameters: 0 };
        let text = render::statement(&original);
        let parsed = select(&text);
        prop_assert_eq!(render::statement(&parsed), text);
    }

    /// No input makes the parser panic, and every error is one line.
    #[test]
    fn any_text_parses_or_fails_in_one_line(text in "[ -~]{0,60}") {
        if let Err(e) = parse(&text) {
            prop_assert!(!e.message.contains('\n'));
        }
    }
}

/// The four shapes that overflowed the stack (exit 134) now stop at the depth bound with one
/// syntax error line naming it; run on a thread with a small stack so a regression aborts.
#[test]
fn deep_statements_are_refused_by_the_depth_bound_not_the_stack() {
    let shapes = [
        format!(
            "SELECT * FROM t WHERE {}a = 1{}",
            "(".repeat(8_000),
            ")".repeat(8_000)
        ),
        format!("SELECT * FROM t WHERE {}a = 1", "NOT ".repeat(30_000)),
        format!("SELECT * FROM t WHERE a = {}", "[".repeat(60_000)),
        format!("SELECT * FROM t WHERE a = {}", "{'k':".repeat(20_000)),
        format!("SELECT * FROM t WHERE a = {}", "<<".repeat(20_000)),
    ];
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            for text in &shapes {
                let e = parse(text).expect_err("too deep");
                assert_eq!(e.kind, ErrorKind::Syntax, "{e}");
                assert!(e.message.contains("nested deeper than 64 levels"), "{e}");
                assert!(!e.message.contains('\n') && e.message.len() < 200, "{e}");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn nesting_up_to_the_bound_still_parses() {
    select(&format!(
        "SELECT * FROM t WHERE {}a = 1{}",
        "(".repeat(60),
        ")".repeat(60)
    ));
    select(&format!(
        "SELECT * FROM t WHERE a = {}1{}",
        "[".repeat(60),
        "]".repeat(60)
    ));
}

/// A long AND/OR chain is read in a loop but builds a tree as deep as it is long, which every
/// function over the tree (render, translate, drop) walks recursively.
#[test]
fn a_chain_of_more_than_300_logical_operators_is_refused() {
    let chain = |n: usize| {
        let terms: Vec<String> = (0..n).map(|i| format!("a = {i}")).collect();
        format!("SELECT * FROM t WHERE {}", terms.join(" OR "))
    };
    let text = chain(100_000);
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            // The longest chain allowed, deepest on both sides, is walked and dropped.
            let s = select(&format!(
                "{} AND {}",
                chain(250),
                "NOT ".repeat(30) + &"(".repeat(30) + "a = 1" + &")".repeat(30)
            ));
            assert!(render::statement(&s).len() > 1000);
            let mut names = Vec::new();
            crate::query::partiql::filter::attributes(s.filter.as_ref().unwrap(), &mut names);
            let e = parse(&text).expect_err("too long");
            assert!(e.message.contains("more than 300 AND, OR and NOT"), "{e}");
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_struct_naming_a_key_twice_and_a_set_holding_a_value_twice_are_refused() {
    let e = error("SELECT * FROM t WHERE a = {'k':1,'k':2}");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("names the key 'k' twice"), "{e}");
    for (text, shown) in [
        ("SELECT * FROM t WHERE a = <<1,1>>", "1 twice"),
        ("SELECT * FROM t WHERE a = <<1, 2, 1.0>>", " twice"),
        ("SELECT * FROM t WHERE a = <<'x','y','x'>>", "'x' twice"),
    ] {
        let e = error(text);
        assert!(
            e.message.contains("DynamoDB refuses a duplicate in a set")
                && e.message.contains(shown),
            "{text}: {e}"
        );
    }
    select("SELECT * FROM t WHERE a = <<1, 2>> AND b = {'k':1,'K':2} AND c = [1, 1]");
}
