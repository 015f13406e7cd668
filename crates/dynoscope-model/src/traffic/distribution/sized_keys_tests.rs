use super::*;

#[test]
fn a_batch_counts_as_its_items_added_one_by_one() {
    let pairs = [("USER#1", 10), ("", 3), ("漢字", 400_000), ("USER#1", 7)];
    let mut batch = SizedKeys::with_capacity(2);
    let mut one_by_one = KeyDistribution::bounded(2);
    for (key, bytes) in pairs {
        batch.key_buffer().push_str(key);
        batch.push(bytes);
        one_by_one.add(key, bytes);
    }
    assert_eq!(batch.iter().collect::<Vec<_>>(), pairs);
    let mut batched = KeyDistribution::bounded(2);
    batched.add_sized(&batch);
    assert_eq!(batched.entries().len(), one_by_one.entries().len());
    assert_eq!(batched.total_bytes(), one_by_one.total_bytes());
    assert_eq!(batched.largest_item(), Some((400_000, "漢字")));
    assert_eq!(batched.top(3), one_by_one.top(3));
}

#[test]
fn a_multi_attribute_partition_is_every_value_in_key_schema_order() {
    use super::partition_text;
    use crate::item::value::{AttrValue, Item};
    let mut item = Item::new();
    item.insert("region", AttrValue::S("EU-WEST".into()));
    item.insert("tournamentId", AttrValue::S("WINTER2024".into()));
    item.insert("seedGroup", AttrValue::N("1".into()));
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    assert_eq!(
        partition_text(&item, &names(&["tournamentId", "region"])),
        "WINTER2024 · EU-WEST"
    );
    assert_eq!(
        partition_text(&item, &names(&["tournamentId", "seedGroup"])),
        "WINTER2024 · 1"
    );
    assert_eq!(partition_text(&item, &names(&["region"])), "EU-WEST");
}
