//! The bulk dialog (`B`) as plain state: one action (set a typed attribute, remove one, or
//! delete) over the marked items, its preview (the same text `partiql`'s dry run prints: count,
//! sample diffs, WCU, time), and, once the terminal loop runs it, its progress and the
//! journal's path. Planning is the model's (`bulk::action`); nothing here writes.

use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::write::bulk::action::{parse_value, plan_action, BulkAction};
use crate::model::write::bulk::preview::{self, Report};
use crate::model::write::bulk::BulkItem;

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
}

#[derive(Debug, Clone, PartialEq)]
pub struct BulkDialog {
    /// The marked items as they were loaded (each write is conditional on them).
    pub items: Vec<Item>,
    pub choice: BulkChoice,
    pub name: String,
    /// The value to set, typed: plain JSON, or DynamoDB JSON for sets and binary.
    pub value: String,
    /// The value field has the keys (else the name field).
    pub on_value: bool,
    pub stage: BulkStage,
}

impl BulkDialog {
    pub fn new(items: Vec<Item>) -> BulkDialog {
        BulkDialog {
            items,
            choice: BulkChoice::Set,
            name: String::new(),
            value: String::new(),
            on_value: false,
            stage: BulkStage::Edit { error: None },
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
    pub fn preview(&mut self, info: &TableInfo, rate: Option<f64>) {
        let planned = self
            .action()
            .and_then(|action| Ok((plan_action(info, &action, self.items.clone())?, action)));
        self.stage = match planned {
            Ok((planned, action)) => {
                let summary = preview::summarize(info, &planned);
                let text = preview::text(&Report {
                    verb: action.verb(),
                    table: &info.name,
                    read: "the marked items",
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
        d.preview(&demo_info(), None);
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
        d.preview(&demo_info(), None);
        let BulkStage::Edit { error: Some(e) } = &d.stage else {
            panic!("{:?}", d.stage);
        };
        assert!(e.contains("'DONE' is not a JSON value"), "{e}");
        d.name = "SK".into();
        d.value = "\"x\"".into();
        d.preview(&demo_info(), None);
        assert!(matches!(d.stage, BulkStage::Edit { error: Some(_) }));
        d.choice = BulkChoice::Delete;
        d.preview(&demo_info(), None);
        assert!(matches!(d.stage, BulkStage::Preview { .. }));
    }
}
