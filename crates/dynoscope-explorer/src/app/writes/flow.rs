//! A write on its way: the editor's result, the diff and request shown before sending, the
//! delete confirmation, the conflict view; and the undo stack of what dynoscope wrote.

use crate::app::state::Modal;
use crate::model::formats::json::JsonSpelling;
use crate::model::item::value::Item;
use crate::model::write::{AttributeEdit, ThreeWayRow, UndoImage, WriteKind, WritePlan};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteStage {
    /// The editor has the item.
    Editing,
    /// The diff and the request: Enter or `y` sends, Esc drops the edit.
    Preview,
    Sending,
    /// A condition failed: loaded, current and yours side by side; nothing was written.
    Conflict,
    /// `D`: the count and the keys, `y` deletes.
    ConfirmDelete,
}

#[derive(Debug, Clone)]
pub struct WriteFlow {
    /// Tags the editor's result and the writer's answers.
    pub id: u64,
    pub stage: WriteStage,
    pub kind: WriteKind,
    pub spelling: JsonSpelling,
    /// The item as loaded (`None` for a new item).
    pub loaded: Option<Item>,
    /// A new item's: the types of its kind's attributes, which decide what plain JSON cannot
    /// say (a set, binary), as the loaded item's do for an edit.
    pub types_from: Option<Item>,
    /// The text handed to the editor, to tell an unchanged file.
    pub text: String,
    /// The user's item, once the editor gave it back and it parsed.
    pub yours: Option<Item>,
    /// What to send: one plan, or the batches of a bulk delete or undo.
    pub plans: Vec<WritePlan>,
    /// Plans already written.
    pub sent: usize,
    pub changes: Vec<AttributeEdit>,
    /// The request as it will be sent, line by line.
    pub request: Vec<String>,
    /// Why it cannot be sent as it is: validation, a service error. One line each.
    pub problems: Vec<String>,
    /// The conflict: the op's item as stored now (`None`: gone) and the three-way rows.
    pub current: Option<Option<Item>>,
    pub conflict: Vec<ThreeWayRow>,
    /// Which op of the plan being sent met a changed item.
    pub conflict_index: usize,
    /// The problem is a failed request, not the item: Enter sends it again.
    pub retry: bool,
    /// The bulk delete's items, for the confirmation.
    pub targets: Vec<Item>,
    /// What the sent plans changed so far (for undo), accumulated across batches.
    pub done: Vec<UndoImage>,
    pub scroll: usize,
}

impl WriteFlow {
    /// The open write flow when it is write `id` and still at `stage`: an answer (the editor's
    /// text, the service's result) for a flow since closed, replaced or moved on finds none.
    pub(crate) fn at(modal: &mut Option<Modal>, id: u64, stage: WriteStage) -> Option<&mut Self> {
        modal
            .as_mut()
            .and_then(Modal::write_mut)
            .filter(|f| f.id == id && f.stage == stage)
    }

    pub fn new(id: u64, kind: WriteKind, spelling: JsonSpelling) -> Self {
        WriteFlow {
            id,
            stage: WriteStage::Editing,
            kind,
            spelling,
            loaded: None,
            types_from: None,
            text: String::new(),
            yours: None,
            plans: Vec::new(),
            sent: 0,
            changes: Vec::new(),
            request: Vec::new(),
            problems: Vec::new(),
            current: None,
            conflict: Vec::new(),
            conflict_index: 0,
            retry: false,
            targets: Vec::new(),
            done: Vec::new(),
            scroll: 0,
        }
    }
}

/// One write dynoscope made, as `U` undoes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoEntry {
    pub table: String,
    pub images: Vec<UndoImage>,
    /// What it was, for messages (`UpdateItem`, `3 DeleteItems`…).
    pub label: String,
    /// A bulk run (`B`): its journal and written items, undone by the bulk dialog (`images`
    /// is empty then).
    pub bulk: Option<super::BulkRecord>,
}
