//! The `diagnose --sample-keys` sample on a multi-attribute GSI (issue 52): its partitions are
//! counted by the whole partition key, not by the first attribute's value.

use super::*;
use crate::aws::read::memory::MemorySource;
use crate::aws::MemoryEngine;
use crate::model::fixtures::{multi_attribute_info, string_item};

#[test]
fn the_sample_projects_every_partition_attribute() {
    let info = multi_attribute_info();
    let index = "TournamentRegionIndex";
    let (spec, partition) =
        sample_spec(&info.name, Some(index), info.keys_for(Some(index)).unwrap());
    assert_eq!(partition, ["tournamentId", "region"]);
    assert_eq!(spec.projection.as_deref(), Some("#k0, #k1"));
    assert_eq!(
        spec.names,
        [
            ("#k0".to_string(), "tournamentId".to_string()),
            ("#k1".to_string(), "region".to_string())
        ]
    );
    assert_eq!(spec.index.as_deref(), Some(index));
}

#[tokio::test(start_paused = true)]
async fn a_multi_attribute_index_is_counted_by_its_whole_partition_key() {
    // By tournamentId alone W24 is largest (8 items); by the whole key, 'S25 · EU' (6) is.
    let rows = [("W24", "EU", 4), ("W24", "US", 4), ("S25", "EU", 6)];
    let mut items = Vec::new();
    for (tournament, region, n) in rows {
        for i in 0..n {
            let id = format!("{tournament}-{region}-{i}");
            items.push(string_item(&[
                ("matchId", &id),
                ("tournamentId", tournament),
                ("region", region),
            ]));
        }
    }
    let info = multi_attribute_info();
    let engine =
        MemoryEngine::new().with_table(info.clone(), MemorySource::new(items, &["matchId"]));
    let target = Target::Index("TournamentRegionIndex".into());
    let (found, notes) = sample(&engine, &info, &[target], 100.0, None).await;
    assert!(notes.is_empty(), "{notes:?}");
    let top = &found[0];
    assert_eq!(
        (top.key.as_str(), top.items, top.sampled),
        ("S25 · EU", 6, 14)
    );
}
