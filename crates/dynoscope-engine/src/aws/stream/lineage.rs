//! Which shards to read and when: a shard starts once its parent has been read to its end (or
//! the parent is gone or was never to be read), so the changes of one key arrive in order.

use super::source::ShardInfo;
use super::StreamStart;

/// Where a shard's first iterator points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ShardStart {
    Latest,
    TrimHorizon,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Waiting(ShardStart),
    Running,
    Finished,
}

#[derive(Debug, Clone)]
struct Known {
    id: String,
    parent: Option<String>,
    phase: Phase,
}

/// A shard to start now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ReadyShard {
    pub shard_id: String,
    pub parent_shard_id: Option<String>,
    pub start: ShardStart,
}

/// The shards known so far, in the order they were listed.
#[derive(Debug, Default)]
pub(super) struct Lineage {
    shards: Vec<Known>,
}

impl Lineage {
    fn position(&self, id: &str) -> Option<usize> {
        self.shards.iter().position(|k| k.id == id)
    }

    /// The shards listed when reading starts. From LATEST only open shards are read (a closed
    /// one holds only the past); otherwise every shard from TRIM_HORIZON.
    pub fn plan_initial(&mut self, listed: &[ShardInfo], start: StreamStart) {
        for shard in listed {
            let phase = match start {
                StreamStart::Latest if shard.is_closed() => Phase::Finished,
                StreamStart::Latest => Phase::Waiting(ShardStart::Latest),
                StreamStart::TrimHorizon | StreamStart::Since { .. } => {
                    Phase::Waiting(ShardStart::TrimHorizon)
                }
            };
            self.add(shard, phase);
        }
    }

    fn add(&mut self, shard: &ShardInfo, phase: Phase) {
        if self.position(&shard.shard_id).is_none() {
            self.shards.push(Known {
                id: shard.shard_id.clone(),
                parent: shard.parent_shard_id.clone(),
                phase,
            });
        }
    }

    /// A later listing: shards not seen before appeared after reading started, so all their
    /// records are new (TRIM_HORIZON). Finished shards no longer listed are past the
    /// retention and forgotten, so the list stays as long as the stream's. Returns how many
    /// shards are new.
    pub fn update(&mut self, listed: &[ShardInfo]) -> usize {
        self.shards
            .retain(|k| k.phase != Phase::Finished || listed.iter().any(|s| s.shard_id == k.id));
        let before = self.shards.len();
        for shard in listed {
            self.add(shard, Phase::Waiting(ShardStart::TrimHorizon));
        }
        self.shards.len() - before
    }

    /// Waiting shards whose parent is finished, gone, or was never listed; they are marked
    /// running.
    pub fn take_ready(&mut self) -> Vec<ReadyShard> {
        let mut ready = Vec::new();
        for i in 0..self.shards.len() {
            let Phase::Waiting(start) = self.shards[i].phase else {
                continue;
            };
            let parent_done = match &self.shards[i].parent {
                None => true,
                Some(p) => self
                    .position(p)
                    .is_none_or(|at| self.shards[at].phase == Phase::Finished),
            };
            if parent_done {
                self.shards[i].phase = Phase::Running;
                ready.push(ReadyShard {
                    shard_id: self.shards[i].id.clone(),
                    parent_shard_id: self.shards[i].parent.clone(),
                    start,
                });
            }
        }
        ready
    }

    pub fn finish(&mut self, id: &str) {
        if let Some(at) = self.position(id) {
            self.shards[at].phase = Phase::Finished;
        }
    }

    pub fn all_finished(&self) -> bool {
        self.shards.iter().all(|k| k.phase == Phase::Finished)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.shards.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(id: &str, parent: Option<&str>, closed: bool) -> ShardInfo {
        ShardInfo {
            shard_id: id.into(),
            parent_shard_id: parent.map(String::from),
            ending_sequence_number: closed.then(|| "9".into()),
        }
    }

    fn ids(ready: &[ReadyShard]) -> Vec<&str> {
        ready.iter().map(|r| r.shard_id.as_str()).collect()
    }

    #[test]
    fn children_wait_for_their_parent_and_latest_skips_closed_shards() {
        let listed = [
            shard("a", None, true),
            shard("b", Some("a"), false),
            shard("c", Some("a"), false),
            shard("d", Some("gone"), false),
        ];
        let mut latest = Lineage::default();
        latest.plan_initial(&listed, StreamStart::Latest);
        let ready = latest.take_ready();
        assert_eq!(ids(&ready), ["b", "c", "d"]);
        assert!(ready.iter().all(|r| r.start == ShardStart::Latest));

        let mut all = Lineage::default();
        all.plan_initial(&listed, StreamStart::TrimHorizon);
        assert_eq!(ids(&all.take_ready()), ["a", "d"]);
        assert!(
            all.take_ready().is_empty(),
            "running shards are not handed out twice"
        );
        all.finish("a");
        assert_eq!(ids(&all.take_ready()), ["b", "c"]);
        assert!(!all.all_finished());
        for id in ["b", "c", "d"] {
            all.finish(id);
        }
        assert!(all.all_finished());
    }

    #[test]
    fn later_shards_start_from_trim_horizon_and_trimmed_ones_are_forgotten() {
        let mut l = Lineage::default();
        l.plan_initial(&[shard("a", None, false)], StreamStart::Latest);
        assert_eq!(ids(&l.take_ready()), ["a"]);
        let split = [shard("a", None, true), shard("b", Some("a"), false)];
        assert_eq!(l.update(&split), 1);
        assert!(l.take_ready().is_empty(), "a is still being read");
        l.finish("a");
        let ready = l.take_ready();
        assert_eq!(ids(&ready), ["b"]);
        assert_eq!(ready[0].start, ShardStart::TrimHorizon);
        // a falls out of the listing (past 24 h): forgotten, and b is not read twice.
        assert_eq!(l.update(&[shard("b", Some("a"), false)]), 0);
        assert_eq!(l.len(), 1);
        assert!(l.take_ready().is_empty());
    }
}
