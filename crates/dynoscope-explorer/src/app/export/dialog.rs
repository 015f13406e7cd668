//! The export dialog (`x`) and the export it starts: what to write, in which format, where;
//! and, once started, its progress until the file is in place.

use crate::model::design::collection::{ItemId, ItemStore};
use crate::model::exports::export::ExportFormat;
use crate::model::item::value::Item;

/// Which items go to the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportScope {
    /// The item under the cursor.
    Item,
    Marked,
    /// The selected item collection.
    Collection,
    /// Everything loaded.
    Loaded,
    /// What is loaded, then the running or resumable read streamed to the file to its end,
    /// items beyond `--max-items` included.
    Stream,
}

impl ExportScope {
    pub const ALL: [ExportScope; 5] = [
        ExportScope::Item,
        ExportScope::Marked,
        ExportScope::Collection,
        ExportScope::Loaded,
        ExportScope::Stream,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ExportScope::Item => "the item under the cursor",
            ExportScope::Marked => "the marked items",
            ExportScope::Collection => "the selected collection",
            ExportScope::Loaded => "everything loaded",
            ExportScope::Stream => "the read, streamed to its end",
        }
    }
}

/// A CSV's columns: the key attributes and the items pane's columns, or every attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvChoice {
    Shown,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportField {
    Scope,
    Format,
    Columns,
    Path,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportStage {
    Editing,
    /// Asked the file system whether the path is free.
    Checking,
    /// The file exists: `y` replaces it.
    ConfirmOverwrite,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDialog {
    pub scope: ExportScope,
    pub format: ExportFormat,
    pub columns: CsvChoice,
    pub field: ExportField,
    pub path: String,
    /// The user typed in the path: a format change no longer rewrites its extension.
    pub path_edited: bool,
    /// Directories the last Tab offered, when more than one matched.
    pub completions: Vec<String>,
    pub stage: ExportStage,
    /// Why the last Enter was refused, or what the path check found.
    pub error: Option<String>,
    /// Counts shown beside each scope.
    pub counts: [Option<usize>; 5],
    pub job: u64,
    /// `X`: the design document of everything loaded (model export's Markdown), not items.
    pub design: bool,
}

/// The items an export starts with.
#[derive(Debug, Clone)]
pub enum ExportItems {
    List(Vec<Item>),
    /// A copy of the store and the ids to write, in order: decoded off the terminal thread.
    Store {
        store: Box<ItemStore>,
        ids: Vec<ItemId>,
    },
}

impl ExportItems {
    pub fn len(&self) -> usize {
        match self {
            ExportItems::List(items) => items.len(),
            ExportItems::Store { ids, .. } => ids.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the CSV's columns are, decided off the terminal thread for `All` (every attribute
/// of every item means decoding every item).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CsvColumns {
    Fixed(Vec<String>),
    /// The key attributes, then every attribute of the initial items.
    AllOf {
        keys: Vec<String>,
    },
}

/// An export as the terminal loop performs it.
#[derive(Debug, Clone)]
pub struct ExportRequest {
    pub job: u64,
    pub path: String,
    pub format: ExportFormat,
    pub columns: CsvColumns,
    /// The user agreed to replace an existing file.
    pub overwrite: bool,
    pub items: ExportItems,
    /// More items come from reads tee'd into it, until `|x| Effect::Export(ExportEffect::Finish(x))`.
    pub stream: bool,
    /// The file is the design document these items show of this table, not the items.
    pub design: Option<Box<crate::model::design::schema::TableInfo>>,
}

/// An export under way.
#[derive(Debug, Clone)]
pub struct ExportJob {
    pub id: u64,
    pub path: String,
    pub stream: bool,
    /// A stream export waiting for the running read to stop before it takes over.
    pub waiting_for_read: bool,
    pub items: u64,
    pub bytes: u64,
    /// `x` while it runs asks whether to cancel it.
    pub confirm_cancel: bool,
    /// A streaming export's request (without its items), held while the running read stops:
    /// what is loaded once it has stopped is exactly what the continuation will not read.
    pub pending: Option<Box<ExportRequest>>,
}
