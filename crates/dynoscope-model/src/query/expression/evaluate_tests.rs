use super::*;

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.to_string())
}

fn n(v: &str) -> AttrValue {
    AttrValue::N(v.to_string())
}

fn item(attrs: Vec<(&str, AttrValue)>) -> Item {
    Item::from_attrs(attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn sample() -> Item {
    item(vec![
        ("PK", s("USER#1")),
        ("status", s("SHIPPED")),
        ("total", n("10.50")),
        ("tags", AttrValue::Ss(vec!["a".into(), "b".into()])),
        ("nums", AttrValue::Ns(vec!["1".into(), "2.0".into()])),
        ("bin", AttrValue::B(vec![1, 2, 3])),
        (
            "list",
            AttrValue::L(vec![
                s("x"),
                AttrValue::M(item(vec![("deep", n("1"))])),
                s("z"),
            ]),
        ),
        (
            "map",
            AttrValue::M(item(vec![("a", n("1")), ("b", s("two"))])),
        ),
        ("nothing", AttrValue::Null),
    ])
}

#[test]
fn filters_as_dynamodb_evaluates_them() {
    let names = vec![("#s".to_string(), "status".to_string())];
    let values = vec![
        (":s".to_string(), s("SHIPPED")),
        (":ten".to_string(), n("10.5")),
        (":nine".to_string(), n("9")),
        (":a".to_string(), s("a")),
        (":two".to_string(), n("2")),
        (":p".to_string(), s("USER#")),
        (":t".to_string(), s("SS")),
        (":bp".to_string(), AttrValue::B(vec![1, 2])),
        (":x".to_string(), s("x")),
        (":three".to_string(), n("3")),
    ];
    let cases = [
        ("#s = :s", true),
        ("#s <> :s", false),
        ("missing <> :s", true),
        ("missing = :s", false),
        ("total = :ten", true),
        ("total > :nine AND total <= :ten", true),
        ("total BETWEEN :nine AND :ten", true),
        ("#s > :nine", false),
        ("#s <> :nine", true),
        ("total IN (:nine, :ten)", true),
        ("contains(tags, :a)", true),
        ("contains(nums, :two)", true),
        ("contains(PK, :p)", true),
        ("contains(list, :x)", true),
        ("begins_with(PK, :p)", true),
        ("begins_with(bin, :bp)", true),
        ("attribute_type(tags, :t)", true),
        (
            "attribute_exists(map.a) AND attribute_not_exists(map.c)",
            true,
        ),
        ("attribute_exists(list[1].deep)", true),
        ("attribute_exists(nothing)", true),
        ("size(tags) = :two AND size(bin) = :three", true),
        ("NOT (#s = :s) OR total < :nine", false),
        ("(#s = :s OR total < :nine) AND NOT missing = :s", true),
    ];
    let item = sample();
    for (expr, want) in cases {
        let filter = ItemFilter::compile(expr, &names, &values).unwrap();
        assert_eq!(filter.matches(&item), want, "{expr}");
    }
}

#[test]
fn projections_keep_the_named_paths_only() {
    let names = vec![("#m".to_string(), "map".to_string())];
    let p = ItemProjection::compile("PK, #m.b, list[2], list[0], missing, map.zz", &names).unwrap();
    let want = item(vec![
        ("PK", s("USER#1")),
        ("map", AttrValue::M(item(vec![("b", s("two"))]))),
        ("list", AttrValue::L(vec![s("x"), s("z")])),
    ]);
    assert_eq!(p.apply(&sample()), want);
    let whole = ItemProjection::compile("map, map.a", &[]).unwrap();
    assert_eq!(
        whole.apply(&sample()).get("map"),
        sample().get("map"),
        "a whole attribute and one of its parts: the whole"
    );
    assert!(ItemProjection::compile("nope", &[])
        .unwrap()
        .apply(&sample())
        .is_empty());
}

#[test]
fn undefined_placeholders_are_refused() {
    assert!(ItemFilter::compile("#x = :y", &[], &[]).is_err());
    assert!(ItemProjection::compile("a,", &[]).is_err());
}

/// Every reader of expression tokens (the grammar check, the key condition parser, the local
/// filter evaluator) recursed without a bound: deep brackets, a NOT chain or a long AND/OR
/// chain overflowed the stack. The tokenizer they share refuses them in one line.
#[test]
fn deep_or_long_expressions_are_refused_by_the_tokenizer_for_every_reader() {
    let values = vec![(":v".to_string(), AttrValue::N("1".into()))];
    let chain: Vec<&str> = vec!["a = :v"; 20_000];
    let shapes = [
        (
            format!("{}a = :v{}", "(".repeat(8_000), ")".repeat(8_000)),
            "nested deeper than 64",
        ),
        (
            format!("{}a = :v", "NOT ".repeat(30_000)),
            "more than 300 AND, OR and NOT",
        ),
        (chain.join(" OR "), "more than 300 AND, OR and NOT"),
        (chain.join(" AND "), "more than 300 AND, OR and NOT"),
    ];
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            for (expr, why) in &shapes {
                let e = ItemFilter::compile(expr, &[], &values).expect_err("refused");
                assert!(e.contains(why), "{e}");
                let e = crate::query::expression::check_condition_grammar("filter", expr, &|t| {
                    t.to_string()
                })
                .expect_err("refused")
                .to_string();
                assert!(e.contains(why) && !e.contains('\n'), "{e}");
            }
            let ok = format!("{}a = :v{}", "(".repeat(60), ")".repeat(60));
            assert!(ItemFilter::compile(&ok, &[], &values).is_ok());
        })
        .unwrap()
        .join()
        .unwrap();
}
