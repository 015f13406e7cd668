use super::templates::{normalise_alias, segments};
use super::*;
use crate::design::access_pattern::{Order, SortTemplate};
use crate::design::schema::KeyType;

const SHOP: &str = include_str!("../../../../../tests/corpus/workbench/shop_adjacency.json");
const SOCIAL: &str = include_str!("../../../../../tests/corpus/workbench/social_timeline.json");

fn model(text: &str) -> WorkbenchModel {
    parse_model(text, "m.json").unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> String {
    parse_model(text, "m.json").unwrap_err().to_string()
}

fn s(item: &Item, name: &str) -> String {
    item.get(name)
        .and_then(AttrValue::as_s)
        .unwrap_or_else(|| panic!("{name} in {item:?}"))
        .to_string()
}

#[test]
fn the_shop_model_reads_its_keys_indexes_and_every_facet_item() {
    let m = model(SHOP);
    assert_eq!(m.name.as_deref(), Some("ShopAdjacency"));
    let [t] = m.tables.as_slice() else {
        panic!("{:?}", m.tables)
    };
    assert_eq!(t.name, "Shop");
    assert_eq!(t.keys.names(), ["PK", "SK"]);
    assert_eq!(t.items.len(), 142);
    assert_eq!(t.facets.len(), 5);
    let gsi1 = &t.indexes[0];
    assert_eq!(
        (gsi1.name.as_str(), gsi1.keys.names()),
        ("GSI1", vec!["SK".to_string(), "PK".to_string()])
    );
    let shard = &t.indexes[1];
    assert_eq!(shard.name, "ByShard");
    assert_eq!(shard.projection.projection_type, "KEYS_ONLY");
    // Write-sharded: shard#1..shard#10, three invoices in each.
    let mut per_shard = std::collections::BTreeMap::new();
    for item in t.items.iter().filter(|i| i.get("ShardKey").is_some()) {
        *per_shard.entry(s(item, "ShardKey")).or_insert(0) += 1;
    }
    let expected: std::collections::BTreeMap<String, i32> =
        (1..=10).map(|n| (format!("shard#{n}"), 3)).collect();
    assert_eq!(per_shard, expected);
    // The adjacency list's edge: a customer's invoice, with its entity type.
    let edge = t
        .items
        .iter()
        .find(|i| s(i, "PK") == "C#933" && s(i, "SK") == "I#933")
        .expect("the C#933 / I#933 edge");
    assert_eq!(s(edge, "EntityType"), "invoice");
    let own = t
        .items
        .iter()
        .find(|i| s(i, "PK") == "C#933" && s(i, "SK") == "#METADATA#933")
        .expect("the customer's own record");
    assert_eq!(s(own, "EntityType"), "customer");
    let info = t.table_info();
    assert_eq!(info.billing_mode, "PAY_PER_REQUEST");
    assert_eq!(info.indexes.len(), 2);
}

#[test]
fn the_social_model_keeps_numbers_sets_and_hash_only_indexes() {
    let m = model(SOCIAL);
    let t = &m.tables[0];
    assert_eq!(t.items.len(), 55);
    let by_email = &t.indexes[0];
    assert_eq!(by_email.name, "ByEmail");
    assert_eq!(by_email.keys.sort_key(), None);
    let by_state = &t.indexes[1];
    let sk = by_state.keys.sort_key().unwrap();
    assert_eq!((sk.name.as_str(), sk.key_type), ("State#Date", KeyType::S));
    assert_eq!(by_state.projection.non_key_attributes, ["Caption", "Likes"]);
    let first_post = t
        .items
        .iter()
        .find(|i| s(i, "PK") == "User:UserA" && s(i, "SK").starts_with("2023-04-01T08"))
        .unwrap();
    assert_eq!(
        first_post.get("Views"),
        Some(&AttrValue::N(
            "12345678901234567890123456789012345678".into()
        ))
    );
    assert_eq!(
        first_post.get("Tags"),
        Some(&AttrValue::Ss(vec!["travel".into()]))
    );
    assert_eq!(
        first_post.get("Scores"),
        Some(&AttrValue::Ns(vec!["1".into()]))
    );
    assert_eq!(s(first_post, "SK"), "2023-04-01T08:00:00.001Z");
    assert_eq!(
        t.facets[2].pk_alias.as_deref(),
        Some("Reaction:<reactorId>")
    );
    assert_eq!(m.access_patterns.len(), 5);
}

fn templates(m: &WorkbenchModel) -> Vec<String> {
    imported_config(m)
        .entities
        .into_iter()
        .map(|e| e.template)
        .collect()
}

#[test]
fn entity_templates_come_from_aliases_or_from_the_facets_items() {
    assert_eq!(
        templates(&model(SOCIAL)),
        [
            "User:{userId}",
            "Reaction:{reactorId}",
            "Post:{authorId}:{postedAt}"
        ]
    );
    // Plain aliases (PK, SK): read from the items, parts named by the attribute holding the
    // same value; the #METADATA# own records give no template.
    let shop = imported_config(&model(SHOP));
    assert_eq!(
        shop.entities
            .iter()
            .map(|e| e.template.as_str())
            .collect::<Vec<_>>(),
        ["C#{CustomerId}", "I#{InvoiceId}", "P#{Sku}"]
    );
    assert!(shop.entities.iter().all(|e| e.table == "Shop"));
    let own: Vec<_> = shop
        .skipped
        .iter()
        .filter(|l| l.contains("#METADATA#") && l.contains("own record"))
        .collect();
    assert_eq!(own.len(), 3, "{:?}", shop.skipped);
}

#[test]
fn access_patterns_become_patterns_with_parameters() {
    let social = imported_config(&model(SOCIAL));
    let by_name = |n: &str| {
        social
            .patterns
            .iter()
            .find(|p| p.name == n)
            .unwrap_or_else(|| panic!("{n}: {:?}", social.patterns))
    };
    let timeline = by_name("posts-of-a-user-newest-first");
    assert_eq!(timeline.pk, ["User:{userId}"]);
    assert_eq!(timeline.sk, Some(SortTemplate::Gt("{since}".into())));
    assert_eq!((timeline.order, timeline.limit), (Order::Desc, Some(20)));
    assert_eq!(timeline.params(), ["userId", "since"]);
    let state = by_name("posts-in-a-state");
    assert_eq!(state.index.as_deref(), Some("ByStateDate"));
    assert_eq!(state.sk, Some(SortTemplate::BeginsWith("{state}".into())));
    let profile = by_name("profile");
    assert_eq!(profile.sk, Some(SortTemplate::Eq("User:{userId}".into())));
    assert_eq!(by_name("user-by-email").pk, ["{email}"]);
    assert_eq!(social.patterns.len(), 4);
    assert!(social
        .skipped
        .iter()
        .any(|l| l.starts_with("access pattern 'Everything': a Scan")));

    let shop = imported_config(&model(SHOP));
    let names: Vec<_> = shop.patterns.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "invoices-of-a-customer",
            "invoices-in-a-shard",
            "who-bought-a-product"
        ]
    );
    assert_eq!(shop.patterns[0].pk, ["C#{customerId}"]);
    assert_eq!(
        shop.patterns[1].sk,
        Some(SortTemplate::Between(["{from}".into(), "{to}".into()]))
    );
    assert!(shop
        .skipped
        .iter()
        .any(|l| l.contains("FilterExpression was left out")));
    assert!(shop
        .skipped
        .iter()
        .any(|l| l.contains("'add a customer': a PutItem")));
}

#[test]
fn the_config_text_quotes_every_value_and_comments_what_was_skipped() {
    let m = model(SHOP);
    let text = imported_config(&m).to_toml(m.name.as_deref(), "shop.json");
    assert!(text.starts_with("# From NoSQL Workbench model 'ShopAdjacency' (file 'shop.json')"));
    let parsed: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(parsed["entity"].as_array().unwrap().len(), 3);
    assert_eq!(parsed["pattern"].as_array().unwrap().len(), 3);
    for p in parsed["pattern"].as_array().unwrap() {
        AccessPattern::from_toml(p.as_table().unwrap().clone(), 0).unwrap();
    }
    // Text from the model cannot break out of a comment.
    let hostile = r#"{"ModelName":"a\nmax_items = 0\u001b[2J","DataModel":[{"TableName":"app","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"}}}]}"#;
    let m = model(hostile);
    let text = imported_config(&m).to_toml(m.name.as_deref(), "h.json");
    assert!(
        toml::from_str::<toml::Table>(&text).unwrap().is_empty(),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "{text}");
}

use crate::design::access_pattern::AccessPattern;

const KEYS: &str = r#""KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"S"},"SortKey":{"AttributeName":"SK","AttributeType":"S"}}"#;

fn one_table(rest: &str) -> String {
    format!(r#"{{"DataModel":[{{"TableName":"app",{KEYS}{rest}}}]}}"#)
}

#[test]
fn malformed_models_name_the_place_and_the_problem() {
    let cases: Vec<(String, &str)> = vec![
        ("not json".into(), "model file 'm.json': not JSON"),
        ("[1]".into(), "the top level must be an object, got an array"),
        ("{}".into(), "has no DataModel"),
        (r#"{"DataModel":{}}"#.into(), "DataModel must be an array of tables, got an object"),
        (r#"{"DataModel":[]}"#.into(), "DataModel has no tables"),
        (r#"{"DataModel":[{}]}"#.into(), "DataModel[0] has no TableName"),
        (r#"{"DataModel":[{"TableName":5}]}"#.into(), "DataModel[0].TableName must be a string, got a number"),
        (r#"{"DataModel":[{"TableName":"app"}]}"#.into(), "DataModel[0] ('app') has no KeyAttributes"),
        (
            r#"{"DataModel":[{"TableName":"app","KeyAttributes":{}}]}"#.into(),
            "DataModel[0] ('app').KeyAttributes has no PartitionKey",
        ),
        (
            r#"{"DataModel":[{"TableName":"app","KeyAttributes":{"PartitionKey":{"AttributeName":"PK","AttributeType":"BOOL"}}}]}"#.into(),
            "PartitionKey.AttributeType 'BOOL' is not a key type; use S, N or B",
        ),
        (one_table(r#","TableData":{}"#), "('app').TableData must be an array, got an object"),
        (one_table(r#","TableData":[{"PK":{"S":"a"}}]"#), "('app').TableData[0] has no 'SK', the sort key"),
        (
            one_table(r#","TableData":[{"PK":{"N":"1"},"SK":{"S":"a"}}]"#),
            "TableData[0]: 'PK' is N but the partition key is declared S",
        ),
        (
            one_table(r#","TableData":[{"PK":"a","SK":{"S":"a"}}]"#),
            "TableData[0].PK must be DynamoDB JSON with one type descriptor",
        ),
        (
            one_table(r#","TableData":[{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"N":"x1"}}]"#),
            "TableData[0].n:",
        ),
        (
            one_table(r#","TableData":[{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"SS":[]}}]"#),
            "a set cannot be empty",
        ),
        (
            one_table(r#","TableData":[{"PK":{"S":"a"},"SK":{"S":"b"}},{"PK":{"S":"a"},"SK":{"S":"b"},"x":{"S":"y"}}]"#),
            "TableData[1] has the key PK='a' SK='b' of DataModel[0] ('app').TableData[0] with other attributes",
        ),
        (
            one_table(r#","GlobalSecondaryIndexes":[{"KeyAttributes":{}}]"#),
            "GlobalSecondaryIndexes[0] has no IndexName",
        ),
        (
            one_table(r#","GlobalSecondaryIndexes":[{"IndexName":"gsi","KeyAttributes":{"PartitionKey":{"AttributeName":"g","AttributeType":"S"}},"Projection":{"ProjectionType":"INCLUDE"}}]"#),
            "INCLUDE names no NonKeyAttributes",
        ),
        (
            one_table(r#","GlobalSecondaryIndexes":[{"IndexName":"gsi","KeyAttributes":{"PartitionKey":{"AttributeName":"SK","AttributeType":"N"}}}]"#),
            "key attribute 'SK' is S in the table but N in index 'gsi'",
        ),
        (
            one_table(r#","GlobalSecondaryIndexes":[{"IndexName":"gsi","KeyAttributes":{"PartitionKey":{"AttributeName":"g","AttributeType":"N"}}}],"TableData":[{"PK":{"S":"a"},"SK":{"S":"b"},"g":{"S":"x"}}]"#),
            "'g' is S but the key of index 'gsi' is declared N",
        ),
        (
            one_table(r#","TableFacets":[{"KeyAttributeAlias":{}}]"#),
            "TableFacets[0] has no FacetName",
        ),
        (
            format!(r#"{{"DataModel":[{{"TableName":"app",{KEYS}}}],"AccessPatterns":[{{"Name":"a","TableName":"u"}}]}}"#),
            "AccessPatterns[0] names table 'u', which the model does not have",
        ),
        (
            format!(r#"{{"DataModel":[{{"TableName":"app",{KEYS}}}],"AccessPatterns":[{{"Name":"a","TableName":"app","Limit":-1}}]}}"#),
            "AccessPatterns[0].Limit must be a whole number above 0",
        ),
    ];
    for (text, wanted) in cases {
        let e = error(&text);
        assert!(e.contains(wanted), "{text}\n  gave: {e}\n  want: {wanted}");
        assert!(e.starts_with("model file 'm.json': "), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }
}

#[test]
fn hand_written_maps_may_hold_plain_json_and_numbers_may_be_json_numbers() {
    let m = model(&one_table(
        r#","TableData":[{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"N":12.50},"m":{"M":{"on":true,"deep":{"x":1},"typed":{"S":"t"}}},"l":{"L":[{"N":"1"},"plain"]}},{"PK":{"S":"a"},"SK":{"S":"b"},"n":{"N":12.50},"m":{"M":{"on":true,"deep":{"x":1},"typed":{"S":"t"}}},"l":{"L":[{"N":"1"},"plain"]}}]"#,
    ));
    let items = &m.tables[0].items;
    // The repeat is identical: one item.
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert_eq!(item.get("n"), Some(&AttrValue::N("12.50".into())));
    let Some(AttrValue::M(map)) = item.get("m") else {
        panic!("{item:?}")
    };
    assert_eq!(map.get("on"), Some(&AttrValue::Bool(true)));
    assert_eq!(map.get("typed"), Some(&AttrValue::S("t".into())));
    let Some(AttrValue::M(deep)) = map.get("deep") else {
        panic!("{map:?}")
    };
    assert_eq!(deep.get("x"), Some(&AttrValue::N("1".into())));
    assert_eq!(
        item.get("l"),
        Some(&AttrValue::L(vec![
            AttrValue::N("1".into()),
            AttrValue::S("plain".into())
        ]))
    );
}

#[test]
fn key_values_split_into_segments_with_timestamps_whole() {
    assert_eq!(
        segments("User:UserA"),
        Some((':', false, vec!["User", "UserA"]))
    );
    assert_eq!(
        segments("Post:UserA:2023-04-01T12:00:00.001Z"),
        Some((
            ':',
            false,
            vec!["Post", "UserA", "2023-04-01T12:00:00.001Z"]
        ))
    );
    assert_eq!(
        segments("#METADATA#933"),
        Some(('#', true, vec!["METADATA", "933"]))
    );
    assert_eq!(
        segments("ORDER#2023-04-01T12:00:00Z#o1"),
        Some(('#', false, vec!["ORDER", "2023-04-01T12:00:00Z", "o1"]))
    );
    assert_eq!(segments("PROFILE"), None);
    assert_eq!(
        normalise_alias("Post:<authorId>:<postedAt>"),
        "Post:{authorId}:{postedAt}"
    );
    assert_eq!(normalise_alias("a<>b"), "a<>b");
}

#[test]
fn unnamed_parts_are_called_by_what_they_look_like() {
    let m = model(&one_table(
        r#","TableData":[
        {"PK":{"S":"ORDER#o1"},"SK":{"S":"LINE#2023-04-01#7"}},
        {"PK":{"S":"ORDER#o2"},"SK":{"S":"LINE#2023-04-02#8"}},
        {"PK":{"S":"ORDER#o2"},"SK":{"S":"STATE#OPEN"}},
        {"PK":{"S":"2023-04-01T12:00:00Z"},"SK":{"S":"x"}}]"#,
    ));
    // A literal segment alone names nothing; a timestamp is no kind.
    assert_eq!(templates(&m), ["ORDER#{id}", "LINE#{date}#{id}"]);
}

#[test]
fn aliases_that_are_no_templates_for_dynoscope_are_skipped_with_the_reason() {
    let m = model(&one_table(
        r#","TableFacets":[{"FacetName":"f","KeyAttributeAlias":{"PartitionKeyAlias":"{id}","SortKeyAlias":"A#{x}#{x}"}}]"#,
    ));
    let c = imported_config(&m);
    assert!(c.entities.is_empty(), "{:?}", c.entities);
    assert_eq!(c.skipped.len(), 2, "{:?}", c.skipped);
    assert!(
        c.skipped[0].starts_with("facet 'f' PartitionKeyAlias '{id}': "),
        "{:?}",
        c.skipped
    );
    assert!(c.skipped[1].contains("twice"), "{:?}", c.skipped);
}

#[test]
fn patterns_that_cannot_be_one_key_condition_are_skipped() {
    let m = model(&format!(
        r#"{{"DataModel":[{{"TableName":"app",{KEYS},"AccessPatterns":[
            {{"Name":"no index","IndexName":"nope","KeyConditionExpression":"PK = :a"}},
            {{"Name":"sort only","KeyConditionExpression":"SK = :a"}},
            {{"Name":"no condition","Type":"Query"}},
            {{"Name":"same","KeyConditionExpression":"PK = :a"}},
            {{"Name":"Same","KeyConditionExpression":"PK = :b"}}]}}]}}"#
    ));
    let c = imported_config(&m);
    let names: Vec<_> = c.patterns.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["same", "same-2"]);
    assert_eq!(c.skipped.len(), 3, "{:?}", c.skipped);
    assert!(c.skipped[0].contains("index 'nope'"), "{:?}", c.skipped);
    assert!(
        c.skipped[1].contains("its key condition"),
        "{:?}",
        c.skipped
    );
    assert!(
        c.skipped[2].contains("no KeyConditionExpression"),
        "{:?}",
        c.skipped
    );
}

#[test]
fn model_text_in_values_is_exact_and_escaped() {
    let m = model(&format!(
        r#"{{"DataModel":[{{"TableName":"app",{KEYS},"AccessPatterns":[
            {{"Name":"p","KeyConditionExpression":"PK = :a AND begins_with(SK, :b)",
              "ExpressionAttributeValues":{{":a":{{"S":"A\\B#{{id}}"}},":b":{{"S":"\u202eX\u0007"}}}}}}]}}]}}"#
    ));
    let text = imported_config(&m).to_toml(None, "m.json");
    assert!(
        !text.contains('\u{202e}') && !text.contains('\u{7}'),
        "{text}"
    );
    let parsed: toml::Table = toml::from_str(&text).unwrap();
    let p = parsed["pattern"][0].as_table().unwrap();
    assert_eq!(p["table"].as_str(), Some("app"));
    // A table name with such characters is not one DynamoDB takes: refused, not escaped.
    let err = parse_model(
        &format!(r#"{{"DataModel":[{{"TableName":"t\u202e\"x",{KEYS}}}]}}"#),
        "m.json",
    )
    .unwrap_err();
    assert!(err.message.contains("is not one DynamoDB accepts"), "{err}");
    assert_eq!(p["pk"].as_str(), Some("A\\B#{id}"));
    assert_eq!(p["sk"]["begins_with"].as_str(), Some("\u{202e}X\u{7}"));
}

/// Cut anywhere, a model is an error of one line, never a panic; and every value replaced by
/// a value of another type is one too.
#[test]
fn damaged_models_are_errors_never_panics() {
    for cut in (0..SOCIAL.len()).step_by(89) {
        if let Err(e) = parse_model(&SOCIAL[..cut], "m.json") {
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }
    let root: serde_json::Value = serde_json::from_str(SHOP).unwrap();
    let mut paths = Vec::new();
    fn walk(v: &serde_json::Value, path: Vec<String>, out: &mut Vec<Vec<String>>) {
        if out.len() > 200 {
            return;
        }
        out.push(path.clone());
        match v {
            serde_json::Value::Object(m) => {
                for (k, v) in m.iter().take(6) {
                    let mut p = path.clone();
                    p.push(k.clone());
                    walk(v, p, out);
                }
            }
            serde_json::Value::Array(a) => {
                for (i, v) in a.iter().enumerate().take(2) {
                    let mut p = path.clone();
                    p.push(i.to_string());
                    walk(v, p, out);
                }
            }
            _ => {}
        }
    }
    walk(&root, Vec::new(), &mut paths);
    assert!(paths.len() > 100, "{}", paths.len());
    for path in paths.iter().skip(1) {
        for replacement in [
            serde_json::json!(7),
            serde_json::json!("x"),
            serde_json::json!([]),
            serde_json::json!({}),
        ] {
            let mut damaged = root.clone();
            let mut at = &mut damaged;
            for step in path {
                at = match at {
                    serde_json::Value::Object(m) => m.get_mut(step).unwrap(),
                    serde_json::Value::Array(a) => &mut a[step.parse::<usize>().unwrap()],
                    _ => unreachable!(),
                };
            }
            *at = replacement;
            match parse_model(&damaged.to_string(), "m.json") {
                // Whatever parses also converts.
                Ok(m) => drop(imported_config(&m).to_toml(m.name.as_deref(), "m.json")),
                Err(e) => assert!(!e.to_string().contains('\n'), "{e}"),
            }
        }
    }
}

#[test]
fn a_gsi_lists_several_partition_and_sort_attributes_in_order() {
    let s = |name: &str| format!(r#"{{"AttributeName":"{name}","AttributeType":"S"}}"#);
    let gsi = format!(
        r#","GlobalSecondaryIndexes":[{{"IndexName":"TournamentRegionIndex","KeyAttributes":{{"PartitionKey":[{},{}],"SortKey":[{},{}]}}}}]"#,
        s("tournamentId"),
        s("region"),
        s("round"),
        s("bracket")
    );
    let m = model(&one_table(&gsi));
    let index = &m.tables[0].indexes[0];
    assert_eq!(index.keys.partition().len(), 2);
    assert_eq!(
        index.keys.names(),
        ["tournamentId", "region", "round", "bracket"]
    );
    // Only a GSI takes several: the table's own key is one and at most one.
    let table = format!(
        r#"{{"DataModel":[{{"TableName":"app","KeyAttributes":{{"PartitionKey":[{},{}]}}}}]}}"#,
        s("a"),
        s("b")
    );
    assert!(
        error(&table).contains("a table's key is one partition and at most one sort attribute"),
        "{}",
        error(&table)
    );
    // Five sort attributes are more than DynamoDB holds.
    let five: Vec<String> = (0..5).map(|i| s(&format!("s{i}"))).collect();
    let too_many = format!(
        r#","GlobalSecondaryIndexes":[{{"IndexName":"Wide","KeyAttributes":{{"PartitionKey":{},"SortKey":[{}]}}}}]"#,
        s("p"),
        five.join(",")
    );
    assert!(
        error(&one_table(&too_many)).contains("at most 4 sort attributes, not 5"),
        "{}",
        error(&one_table(&too_many))
    );
}

#[test]
fn a_query_on_a_multi_attribute_gsi_becomes_a_template_per_key_attribute() {
    let s = |name: &str| format!(r#"{{"AttributeName":"{name}","AttributeType":"S"}}"#);
    let gsi = format!(
        r##","GlobalSecondaryIndexes":[{{"IndexName":"TournamentRegionIndex","KeyAttributes":{{"PartitionKey":[{},{}],"SortKey":[{},{}]}}}}],
        "AccessPatterns":[{{"Name":"matches of a round","IndexName":"TournamentRegionIndex",
          "KeyConditionExpression":"tournamentId = :t AND #r = :r AND round = :round AND begins_with(bracket, :b)",
          "ExpressionAttributeNames":{{"#r":"region"}},
          "ExpressionAttributeValues":{{":r":{{"S":"<region>"}},":b":{{"S":"UP"}}}}}},
          {{"Name":"no region","IndexName":"TournamentRegionIndex","KeyConditionExpression":"tournamentId = :t"}}]"##,
        s("tournamentId"),
        s("region"),
        s("round"),
        s("bracket")
    );
    let m = model(&one_table(&gsi));
    let imported = imported_config(&m);
    let p = &imported.patterns[0];
    assert_eq!(p.name, "matches-of-a-round");
    assert_eq!(p.pk, ["{t}", "{region}"]);
    assert_eq!(p.sk_eq, ["{round}"]);
    assert_eq!(p.sk, Some(SortTemplate::BeginsWith("UP".into())));
    assert_eq!(p.params(), ["t", "region", "round"]);
    // DynamoDB's rule holds on import: a Query without every partition attribute is skipped.
    assert!(
        imported
            .skipped
            .iter()
            .any(|l| l.starts_with("access pattern 'no region'")
                && l.contains("does not compare partition key 'region'")),
        "{:?}",
        imported.skipped
    );
    // The config text spells the lists, and reads back to the same pattern.
    let text = imported.to_toml(None, "m.json");
    assert!(
        text.contains("pk = [\"{t}\", \"{region}\"]\nsk_eq = \"{round}\"\n"),
        "{text}"
    );
    let back = crate::design::access_pattern::parse_patterns_file(&text, "m.toml").unwrap();
    assert_eq!(&back[0], p);
}
