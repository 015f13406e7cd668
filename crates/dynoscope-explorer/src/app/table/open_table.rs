//! One open table: what belongs to the table whichever view shows it (its description, the
//! live or metrics pane, a running export, the undo history, what reads taught about its kinds and
//! keys, the views kept for going back), the current [`View`] and the one dialog open.
//!
//! A new read, a walk to another collection and Backspace replace the `View` and keep the
//! rest, so nothing is carried between views by hand.

use super::{View, Visited};
use crate::app::state::{CoverPane, ExportJob, Loadable, Modal, UndoEntry};
use crate::model::design::part_names::KindPartNames;
use crate::model::design::relations::KeyKnowledge;
use crate::model::design::schema::{KeySchema, TableInfo};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Collections,
    Items,
    /// The related collections listed above the item detail.
    Related,
    Detail,
    /// The request log (Enter shows a request as sent).
    Log,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonMode {
    Plain,
    Dynamo,
}

/// A one-line text prompt (filter, partition key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompt {
    pub text: String,
    /// Why the last submission was refused, shown under the prompt.
    pub error: Option<String>,
}

#[derive(Debug, Clone)]
pub struct OpenTable {
    pub name: String,
    pub info: Loadable<TableInfo>,
    /// The loaded items and how they are shown: replaced by each new read.
    pub view: View,
    /// The one dialog open over the table, if any.
    pub modal: Option<Modal>,
    /// The live (`W`) or metrics (`M`) pane, drawn in place of the table's panes and over its
    /// dialog; one slot, so opening one closes the other.
    pub cover: Option<CoverPane>,
    /// The export under way (the dialog is `Modal::Export`).
    pub export_job: Option<ExportJob>,
    /// What `U` can undo (the write under way is `Modal::Write`).
    pub undo: Vec<UndoEntry>,
    /// What every page read in this table taught about its collections, for `related`.
    pub knowledge: KeyKnowledge,
    /// Each kind's key-part names, learnt from the most items of it any read held.
    pub part_names: KindPartNames,
    /// Views left for another collection, newest last (Backspace returns).
    pub visited: Visited,
}

impl OpenTable {
    pub fn new(name: String, info: Loadable<TableInfo>) -> Self {
        OpenTable {
            name,
            info,
            view: View::default(),
            modal: None,
            cover: None,
            export_job: None,
            undo: Vec::new(),
            knowledge: KeyKnowledge::default(),
            part_names: KindPartNames::default(),
            visited: Visited::default(),
        }
    }

    /// Keys of whatever reads go to: the table or the view's index.
    pub fn read_keys(&self) -> Option<&KeySchema> {
        self.info.loaded()?.keys_for(self.view.index.as_deref())
    }
}
