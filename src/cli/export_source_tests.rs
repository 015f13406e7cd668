use super::*;

/// An export's table as `export_info` leaves it: keys not known yet, no index.
fn export_table(name: &str) -> TableInfo {
    TableInfo {
        name: name.into(),
        status: "EXPORT".into(),
        keys: KeySchema::simple(KeyAttr::new(String::new(), KeyType::S), None),
        indexes: Vec::new(),
        billing_mode: String::new(),
        provisioned: None,
        item_count: 0,
        size_bytes: 0,
        ttl_attribute: None,
        stream: None,
        on_demand_max: None,
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn names(keys: &KeySchema) -> (Vec<String>, Vec<String>) {
    let side = |list: &[KeyAttr]| list.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    (side(keys.partition()), side(keys.sort()))
}

/// An export read without DescribeTable: `--index` names a multi-attribute GSI's attributes
/// joined by `+` on each side, so hotkeys counts partitions by the whole tuple and a Query
/// pins every partition attribute; `tournamentId,region` was read as a partition and a sort.
#[test]
fn index_keys_name_every_attribute_of_a_multi_attribute_index() {
    let mut info = export_table("matches");
    index_from_keys(&mut info, "tournamentId + region,round+bracket+matchId").unwrap();
    let index = info
        .index("tournamentId + region,round+bracket+matchId")
        .unwrap();
    assert_eq!(
        names(&index.keys),
        (
            strings(&["tournamentId", "region"]),
            strings(&["round", "bracket", "matchId"])
        )
    );
    let mut info = export_table("app");
    index_from_keys(&mut info, "GSI1PK,GSI1SK").unwrap();
    assert_eq!(
        names(&info.indexes[0].keys),
        (strings(&["GSI1PK"]), strings(&["GSI1SK"]))
    );
    for bad in ["a,b,c", "a+,b", ",b", "a+b+c+d+e", "a+a,b"] {
        let mut info = export_table("app");
        let e = index_from_keys(&mut info, bad).unwrap_err();
        assert!(e.message.contains(bad), "{bad}: {}", e.message);
        assert_eq!(e.code, 2);
    }
}
