//! A bulk run (or its undo) as the dialog shows it: the engine's tally as it streams back
//! (written / unchanged / conflicts / failed, WCU, elapsed time), which items were written,
//! the conflicts with the item as it is now, the journal's path, and how the run ended; and
//! the record `U` keeps of the session's last run.

use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_dynamo_json;
use crate::model::item::value::Item;
use crate::model::text::wording::count;
use crate::model::traffic::capacity::format_units;
use crate::model::write::bulk::cost::item_cost;
use crate::model::write::bulk::preview::{seconds_at, SAMPLE};
use crate::model::write::bulk::BulkItem;

/// The engine's tally of a run so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BulkProgress {
    pub done: usize,
    pub unchanged: usize,
    pub conflicts: usize,
    pub failed: usize,
    pub units: f64,
    pub throttles: u64,
    /// Milliseconds since the run started.
    pub elapsed_ms: u64,
}

impl BulkProgress {
    pub fn finished(&self) -> usize {
        self.done + self.unchanged + self.conflicts + self.failed
    }

    /// Seconds left for the `total - finished` items at the pace so far; `None` before the
    /// first item ended.
    pub fn eta_secs(&self, total: usize) -> Option<f64> {
        let finished = self.finished();
        (finished > 0).then(|| {
            let per_item = self.elapsed_ms as f64 / 1000.0 / finished as f64;
            per_item * total.saturating_sub(finished) as f64
        })
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum BulkEnded {
    /// Every item reached an outcome.
    Complete,
    /// Stopped before its end (Esc, `--max-wcu`): why.
    Stopped(String),
    /// It could not go on (the journal, a plan): why.
    Failed(String),
}

/// One run under way or ended, as the dialog draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkRun {
    /// Tags the runner's messages.
    pub id: u64,
    /// An undo (of `items`, back to their before-images) rather than a run.
    pub undo: bool,
    /// The items as planned, indexed as the runner's messages index them.
    pub items: Vec<BulkItem>,
    /// How many of them the run writes.
    pub total: usize,
    pub progress: BulkProgress,
    /// The items written, in order.
    pub written: Vec<usize>,
    /// Items that changed since they were read, with how they are now (`None`: gone).
    pub conflicts: Vec<(usize, Option<Item>)>,
    pub failures: Vec<(usize, String)>,
    /// The journal on disk, once the runner created it (a run has one, an undo none).
    pub journal: Option<String>,
    /// Esc asked the run to stop; it stops before its next item.
    pub stopping: bool,
    pub ended: Option<BulkEnded>,
}

impl BulkRun {
    pub fn new(id: u64, undo: bool, items: Vec<BulkItem>, total: usize) -> BulkRun {
        BulkRun {
            id,
            undo,
            items,
            total,
            progress: BulkProgress::default(),
            written: Vec::new(),
            conflicts: Vec::new(),
            failures: Vec::new(),
            journal: None,
            stopping: false,
            ended: None,
        }
    }

    pub fn running(&self) -> bool {
        self.ended.is_none()
    }

    /// The statement's verb: every item of a run gets the same action, and only a delete
    /// leaves nothing.
    pub fn verb(&self) -> &'static str {
        match self.items.first() {
            Some(item) if item.after.is_none() => "DELETE",
            _ => "UPDATE",
        }
    }
}

/// What `U` keeps of the session's last bulk run: its journal and the items it wrote, whose
/// before-images the undo restores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BulkRecord {
    pub journal: String,
    /// "UPDATE" or "DELETE".
    pub verb: String,
    pub items: Vec<BulkItem>,
    pub written: Vec<usize>,
}

impl BulkRecord {
    /// The undo's dry run: how many before-images it restores, what that costs and takes at
    /// `rate`, and the first keys.
    pub fn undo_text(&self, info: &TableInfo, rate: Option<f64>) -> String {
        let units: f64 = self
            .written
            .iter()
            .map(|&i| {
                let item = &self.items[i];
                // Undo writes the after-image back to the before-image.
                match &item.after {
                    Some(after) => item_cost(info, after, Some(&item.before)).total(),
                    None => item_cost(info, &item.before, None).total(),
                }
            })
            .sum();
        let mut text = format!(
            "undo of the bulk {} on '{}' restores {} to its before-image, each only if it is still what the run wrote (an item changed since is reported, not overwritten); about {} WCU\n",
            self.verb,
            info.name,
            count(self.written.len() as u64, "item"),
            format_units(units)
        );
        match (seconds_at(units, rate), rate) {
            (Some(secs), Some(rate)) => text.push_str(&format!(
                "time: about {secs:.1} s at --wcu-per-second {}\n",
                format_units(rate)
            )),
            _ => text.push_str("time: no --wcu-per-second, so as fast as the table takes them\n"),
        }
        text.push_str(&format!("journal: {}\n", self.journal));
        let sample: Vec<&usize> = self.written.iter().take(SAMPLE).collect();
        if !sample.is_empty() {
            text.push_str(&format!("first {} of the items restored:\n", sample.len()));
        }
        for &i in sample {
            let mut key = String::new();
            append_dynamo_json(&mut key, &self.items[i].key(info));
            text.push_str(&format!("  {key}\n"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::demo_info;
    use crate::model::item::value::AttrValue;

    fn item(sk: &str) -> Item {
        Item::from_attrs(vec![
            ("PK".to_string(), AttrValue::S("A".into())),
            ("SK".to_string(), AttrValue::S(sk.into())),
        ])
    }

    #[test]
    fn the_eta_follows_the_pace_so_far() {
        let p = BulkProgress {
            done: 2,
            elapsed_ms: 1000,
            ..BulkProgress::default()
        };
        assert_eq!(p.eta_secs(10), Some(4.0));
        assert_eq!(BulkProgress::default().eta_secs(10), None);
    }

    #[test]
    fn the_undo_preview_counts_only_the_items_written() {
        let mut after = item("1");
        after.insert("status".to_string(), AttrValue::S("DONE".into()));
        let record = BulkRecord {
            journal: "/j.jsonl".into(),
            verb: "UPDATE".into(),
            items: vec![
                BulkItem {
                    before: item("1"),
                    after: Some(after.clone()),
                },
                BulkItem {
                    before: item("2"),
                    after: Some(after),
                },
            ],
            written: vec![0],
        };
        let text = record.undo_text(&demo_info(), Some(2.0));
        assert!(
            text.contains("restores 1 item to its before-image"),
            "{text}"
        );
        assert!(text.contains("at --wcu-per-second 2"), "{text}");
        assert!(text.contains("\"SK\":{\"S\":\"1\"}"), "{text}");
        assert!(!text.contains("\"SK\":{\"S\":\"2\"}"), "{text}");
    }
}
