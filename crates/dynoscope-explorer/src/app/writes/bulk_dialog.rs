//! The bulk dialog (`B`) as plain state: one action (set a typed attribute, remove one, or
//! delete) over the marked items (or the listed ones), its preview (the same text `partiql`'s
//! dry run prints: count, sample diffs, WCU, time), and, once the terminal loop runs it, its
//! progress and the journal's path ([`BulkRun`]); `U` opens it on a run's undo. Planning is
//! the model's (`bulk::action`); nothing here writes.

use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::write::bulk::action::{parse_value, plan_action, BulkAction};
use crate::model::write::bulk::preview::{self, Report};
use crate::model::write::bulk::with_version;
use crate::model::write::bulk::BulkItem;

use super::bulk_progress::{BulkRecord, BulkRun};

/// The statement a dialog run's journal names: `partiql` resumes a journal only when given
/// its statement again, and this one starts with the verb, as a bulk statement must.
pub fn explorer_statement(verb: &str, table: &str) -> String {
    format!("{verb} \"{table}\" -- explorer bulk dialog")
}

/// The command line that continues a dialog run stopped before its end.
pub fn resume_command(verb: &str, table: &str, journal: &str) -> String {
    format!(
        "dynoscope partiql '{}' --resume {journal} --allow-writes --yes",
        explorer_statement(verb, table)
    )
}

/// What the dialog does to each item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkChoice {
    Set,
    Remove,
    Delete,
}

impl BulkChoice {
    pub fn next(self) -> BulkChoice {
        match self {
            BulkChoice::Set => BulkChoice::Remove,
            BulkChoice::Remove => BulkChoice::Delete,
            BulkChoice::Delete => BulkChoice::Set,
        }
    }
}

/// The field of the edit stage that has the keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BulkField {
    Action,
    Name,
    Value,
}

/// Where the dialog is.
#[derive(Debug, Clone, PartialEq)]
pub enum BulkStage {
    /// Choosing the action; `error` is why the last preview was refused.
    Edit { error: Option<String> },
    /// The preview of the planned items; Enter runs them (only with --allow-writes).
    Preview {
        planned: Vec<BulkItem>,
        text: String,
    },
    /// A run or an undo under way, or ended (its tally, conflicts and journal).
    Run(BulkRun),
    /// `U`: what undoing the session's last bulk run would restore; Enter restores it.
    UndoPreview { record: BulkRecord, text: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct BulkDialog {
    /// The marked (or listed) items as they were loaded (each write is conditional on them).
    pub items: Vec<Item>,
    /// Which items they are, for the title and the preview: "marked" or "listed".
    pub scope: &'static str,
    pub choice: BulkChoice,
    pub name: String,
    /// The value to set, typed: plain JSON, or DynamoDB JSON for sets and binary.
    pub value: String,
    /// The field that has the keys.
    pub field: BulkField,
    pub stage: BulkStage,
    /// Rows scrolled off the top of the preview or the run.
    pub scroll: usize,
}

impl BulkDialog {
    pub fn new(items: Vec<Item>) -> BulkDialog {
        BulkDialog::of(items, "marked")
    }

    /// The dialog on `items`, which are the `scope` ones ("marked", "listed").
    pub fn of(items: Vec<Item>, scope: &'static str) -> BulkDialog {
        BulkDialog {
            items,
            scope,
            choice: BulkChoice::Set,
            name: String::new(),
            value: String::new(),
            field: BulkField::Action,
            stage: BulkStage::Edit { error: None },
            scroll: 0,
        }
    }

    /// The undo of `record`, previewed as `text`.
    pub fn undo(record: BulkRecord, text: String) -> BulkDialog {
        BulkDialog {
            stage: BulkStage::UndoPreview { record, text },
            ..BulkDialog::of(Vec::new(), "written")
        }
    }

    /// The fields the edit stage shows, in Tab order: a delete has no attribute to name.
    pub fn fields(&self) -> &'static [BulkField] {
        match self.choice {
            BulkChoice::Set => &[BulkField::Action, BulkField::Name, BulkField::Value],
            BulkChoice::Remove => &[BulkField::Action, BulkField::Name],
            BulkChoice::Delete => &[BulkField::Action],
        }
    }

    /// Moves the keys to the next (`forward`) or previous field, round.
    pub fn move_field(&mut self, forward: bool) {
        let fields = self.fields();
        let at = fields.iter().position(|f| *f == self.field).unwrap_or(0);
        let n = fields.len();
        self.field = fields[if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        }];
    }

    /// The run under way or ended, if the dialog is at one.
    pub fn run(&self) -> Option<&BulkRun> {
        match &self.stage {
            BulkStage::Run(run) => Some(run),
            _ => None,
        }
    }

    pub fn run_mut(&mut self) -> Option<&mut BulkRun> {
        match &mut self.stage {
            BulkStage::Run(run) => Some(run),
            _ => None,
        }
    }

    pub fn action(&self) -> Result<BulkAction, String> {
        Ok(match self.choice {
            BulkChoice::Set => BulkAction::Set {
                name: self.name.trim().to_string(),
                value: parse_value(&self.value)?,
            },
            BulkChoice::Remove => BulkAction::Remove {
                name: self.name.trim().to_string(),
            },
            BulkChoice::Delete => BulkAction::Delete,
        })
    }

    /// Plans the action over the items and shows the preview, or says why it cannot be done.
    /// With the table's `version` attribute each after-image increments it, as a
    /// `partiql` run's do: the writes are conditional on it and the journal holds it.
    pub fn preview(&mut self, info: &TableInfo, rate: Option<f64>, version: Option<&str>) {
        let planned = self.action().and_then(|action| {
            let mut planned = plan_action(info, &action, self.items.clone())?;
            with_version(&mut planned, version);
            Ok((planned, action))
        });
        self.stage = match planned {
            Ok((planned, action)) => {
                let summary = preview::summarize(info, &planned);
                let text = preview::text(&Report {
                    verb: action.verb(),
                    table: &info.name,
                    read: if self.scope == "listed" {
                        "the listed items"
                    } else {
                        "the marked items"
                    },
                    info,
                    items: &planned,
                    summary: &summary,
                    rate,
                });
                BulkStage::Preview { planned, text }
            }
            Err(error) => BulkStage::Edit { error: Some(error) },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fixtures::demo_info;
    use crate::model::item::value::AttrValue;

    fn item(sk: &str, status: &str) -> Item {
        Item::from_attrs(vec![
            ("PK".to_string(), AttrValue::S("A".into())),
            ("SK".to_string(), AttrValue::S(sk.into())),
            ("status".to_string(), AttrValue::S(status.into())),
        ])
    }

    #[test]
    fn the_preview_counts_the_items_written_and_shows_their_diff() {
        let mut d = BulkDialog::new(vec![item("1", "PENDING"), item("2", "DONE")]);
        d.name = "status".into();
        d.value = "\"DONE\"".into();
        d.preview(&demo_info(), None, None);
        let BulkStage::Preview { planned, text } = &d.stage else {
            panic!("no preview: {:?}", d.stage);
        };
        assert_eq!(planned.len(), 2);
        assert!(text.contains("matches 2 items"), "{text}");
        assert!(text.contains("1 would be written, 1 unchanged"), "{text}");
        assert!(text.contains("\n    status: "), "{text}");
    }

    #[test]
    fn a_bad_value_or_a_key_attribute_is_refused_with_the_reason() {
        let mut d = BulkDialog::new(vec![item("1", "PENDING")]);
        d.name = "status".into();
        d.value = "DONE".into();
        d.preview(&demo_info(), None, None);
        let BulkStage::Edit { error: Some(e) } = &d.stage else {
            panic!("{:?}", d.stage);
        };
        assert!(e.contains("'DONE' is not a JSON value"), "{e}");
        d.name = "SK".into();
        d.value = "\"x\"".into();
        d.preview(&demo_info(), None, None);
        assert!(matches!(d.stage, BulkStage::Edit { error: Some(_) }));
        d.choice = BulkChoice::Delete;
        d.preview(&demo_info(), None, None);
        assert!(matches!(d.stage, BulkStage::Preview { .. }));
    }

    #[test]
    fn tab_goes_round_the_fields_the_action_has() {
        let mut d = BulkDialog::new(vec![item("1", "PENDING")]);
        let mut seen = Vec::new();
        for _ in 0..3 {
            d.move_field(true);
            seen.push(d.field);
        }
        assert_eq!(seen, [BulkField::Name, BulkField::Value, BulkField::Action]);
        d.move_field(false);
        assert_eq!(d.field, BulkField::Value);
        d.choice = BulkChoice::Remove;
        d.field = BulkField::Name;
        d.move_field(true);
        assert_eq!(d.field, BulkField::Action);
        d.choice = BulkChoice::Delete;
        d.move_field(true);
        assert_eq!(d.field, BulkField::Action);
    }
}
