//! Writes to items in memory, with the conditions evaluated as DynamoDB evaluates them: the
//! explorer's write flows (conflicts included) are tested against it under paused time.
//!
//! Compiled for tests only: `cfg(test)` in the crate, and the `test-engines` feature that
//! the test suite turns on for `tests/` (a release build has none of it).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{WriteBackend, WriteDone, WriteFailure, WriteResult};
use crate::aws::attempts::AttemptStats;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::traffic::capacity::Consumed;
use crate::model::write::{diff, OpAction, WritePlan};

/// Items by their key (its DynamoDB JSON), shared by clones.
#[derive(Clone, Default)]
pub struct MemoryWriter {
    items: Arc<Mutex<BTreeMap<String, Item>>>,
    /// Plans received, in order.
    sent: Arc<Mutex<Vec<WritePlan>>>,
}

fn key_text(key: &Item) -> String {
    let mut text = String::new();
    append_dynamo_json(&mut text, key);
    text
}

impl MemoryWriter {
    pub fn new() -> Self {
        MemoryWriter::default()
    }

    /// Stores `item` under `key` as another writer would, without a condition.
    pub fn put_raw(&self, key: &Item, item: Item) {
        self.items
            .lock()
            .expect("items")
            .insert(key_text(key), item);
    }

    pub fn get(&self, key: &Item) -> Option<Item> {
        self.items
            .lock()
            .expect("items")
            .get(&key_text(key))
            .cloned()
    }

    pub fn sent(&self) -> Vec<WritePlan> {
        self.sent.lock().expect("sent").clone()
    }
}

impl WriteBackend for MemoryWriter {
    fn write(&self, plan: WritePlan) -> impl std::future::Future<Output = WriteResult> + Send {
        let writer = self.clone();
        async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            writer.sent.lock().expect("sent").push(plan.clone());
            let mut items = writer.items.lock().expect("items");
            let attempts = AttemptStats {
                attempts: 1,
                ..Default::default()
            };
            // All conditions first: a transaction writes all or nothing, and so does a move
            // (the SDK writer takes its put back). A delete removes only the item read, as
            // the SDK writer's `ALL_OLD` check makes sure.
            for (index, op) in plan.ops.iter().enumerate() {
                let stored = items.get(&key_text(&op.key));
                let other = match (&op.action, op.before.as_ref(), stored) {
                    (OpAction::Delete, Some(read), Some(stored)) => !diff(read, stored).is_empty(),
                    _ => false,
                };
                if other || !op.guard.holds(stored) {
                    return Err(WriteFailure::Conflict {
                        index,
                        current: stored.cloned(),
                        operation: plan.operation(),
                        latency: Duration::from_millis(5),
                        attempts,
                        sent: None,
                    });
                }
            }
            for op in &plan.ops {
                let key = key_text(&op.key);
                match &op.action {
                    OpAction::Put(item) => {
                        items.insert(key, item.clone());
                    }
                    OpAction::Delete => {
                        items.remove(&key);
                    }
                    OpAction::Update { set, remove } => {
                        let mut item = items.get(&key).cloned().unwrap_or_else(|| op.key.clone());
                        for (name, value) in set {
                            item.insert(name.clone(), value.clone());
                        }
                        let kept = item
                            .into_attrs()
                            .into_iter()
                            .filter(|(n, _)| !remove.contains(n))
                            .collect();
                        items.insert(key, Item::from_attrs(kept));
                    }
                }
            }
            let units = plan.ops.len() as f64;
            Ok(WriteDone {
                operation: plan.operation(),
                consumed: Consumed {
                    total: units,
                    table: units,
                    indexes: Default::default(),
                    unreported_pages: 0,
                },
                latency: Duration::from_millis(5),
                attempts,
                items: plan.ops.len(),
                sent: None,
            })
        }
    }
}
