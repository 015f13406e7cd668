//! Plans: the ops an edit, a new item, a delete or an undo sends, each with its guard.

use super::condition::{same_value, Guard};
use super::diff::{diff, AttributeEdit};
use super::key_of;
use super::render::RenderedOp;
use crate::design::schema::KeySchema;
use crate::item::value::{AttrValue, Item};

/// Deletes (and restores) of marked items go in transactions of at most this many items.
pub const MAX_TRANSACTION_ITEMS: usize = 25;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteKind {
    Edit,
    KeyChange,
    Create,
    Delete,
    Undo,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpAction {
    Put(Item),
    Update {
        set: Vec<(String, AttrValue)>,
        remove: Vec<String>,
    },
    Delete,
}

/// One item's write: what is sent, on which condition, and the item before and after (for
/// the audit file, for updating the loaded items, and for undo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteOp {
    pub action: OpAction,
    pub key: Item,
    pub guard: Guard,
    pub before: Option<Item>,
    pub after: Option<Item>,
}

/// One request: a single op, or a TransactWriteItems of several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WritePlan {
    pub table: String,
    pub kind: WriteKind,
    pub ops: Vec<WriteOp>,
}

impl WritePlan {
    /// The API operation sent.
    pub fn operation(&self) -> &'static str {
        match self.ops.as_slice() {
            [op] => match op.action {
                OpAction::Put(_) => "PutItem",
                OpAction::Update { .. } => "UpdateItem",
                OpAction::Delete => "DeleteItem",
            },
            _ => "TransactWriteItems",
        }
    }

    pub fn render(&self) -> Result<Vec<RenderedOp>, PlanError> {
        self.ops.iter().map(|op| op.render(&self.table)).collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    NoChange,
    /// One line: an expression past DynamoDB's limits.
    TooBig(String),
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlanError::NoChange => f.write_str("no changes: nothing to send"),
            PlanError::TooBig(why) => f.write_str(why),
        }
    }
}

/// An item before and after a write dynoscope made, for undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoImage {
    pub before: Option<Item>,
    pub after: Option<Item>,
}

/// `version` + 1 in `item`, unless the user already changed it from `loaded`'s.
pub(crate) fn bump_version(item: &mut Item, loaded: Option<&Item>, version: Option<&str>) {
    let Some(name) = version else {
        return;
    };
    let old = loaded.and_then(|l| l.get(name));
    let changed = match (old, item.get(name)) {
        (Some(a), Some(b)) => !same_value(a, b),
        (None, Some(_)) => true,
        _ => false,
    };
    if changed {
        return;
    }
    let next = match old {
        Some(AttrValue::N(n)) => increment(n),
        _ => "1".to_string(),
    };
    item.insert(name, AttrValue::N(next));
}

/// `n` + 1; a version that is no whole number starts again at 1 (a version is a counter).
fn increment(n: &str) -> String {
    n.trim()
        .parse::<i128>()
        .ok()
        .and_then(|v| v.checked_add(1))
        .map_or_else(|| "1".to_string(), |v| v.to_string())
}

fn update_op(before: &Item, after: &Item, key: Item, version: Option<&str>) -> Option<WriteOp> {
    let changes = diff(before, after);
    if changes.is_empty() {
        return None;
    }
    let (mut set, mut remove, mut added) = (Vec::new(), Vec::new(), Vec::new());
    for change in changes {
        match change {
            AttributeEdit::Added(name, v) => {
                added.push(name.clone());
                set.push((name, v));
            }
            AttributeEdit::Changed(name, _, v) => set.push((name, v)),
            AttributeEdit::Removed(name, _) => remove.push(name),
        }
    }
    Some(WriteOp {
        action: OpAction::Update { set, remove },
        key,
        guard: Guard::unchanged(before, &added, version),
        before: Some(before.clone()),
        after: Some(after.clone()),
    })
}

/// The ops that take `before` (at its key) to `after` (at its key), each guarded.
fn transition(
    before: Option<&Item>,
    after: Option<&Item>,
    keys: &KeySchema,
    version: Option<&str>,
) -> Vec<WriteOp> {
    let pk = keys.partition_key().name.as_str();
    match (before, after) {
        (Some(b), Some(a)) if key_of(b, keys) == key_of(a, keys) => {
            update_op(b, a, key_of(b, keys), version)
                .into_iter()
                .collect()
        }
        (b, a) => {
            let mut ops = Vec::new();
            if let Some(a) = a {
                ops.push(WriteOp {
                    action: OpAction::Put(a.clone()),
                    key: key_of(a, keys),
                    guard: Guard::absent(pk),
                    before: None,
                    after: Some(a.clone()),
                });
            }
            if let Some(b) = b {
                ops.push(WriteOp {
                    action: OpAction::Delete,
                    key: key_of(b, keys),
                    guard: Guard::unchanged(b, &[], version),
                    before: Some(b.clone()),
                    after: None,
                });
            }
            ops
        }
    }
}

fn checked(plan: WritePlan) -> Result<WritePlan, PlanError> {
    plan.render()?;
    Ok(plan)
}

/// An edit of `loaded` into `edited`: an UpdateItem, or (a changed key) a transaction.
pub fn plan_edit(
    table: &str,
    keys: &KeySchema,
    loaded: &Item,
    edited: &Item,
    version: Option<&str>,
) -> Result<WritePlan, PlanError> {
    if diff(loaded, edited).is_empty() {
        return Err(PlanError::NoChange);
    }
    let mut edited = edited.clone();
    bump_version(&mut edited, Some(loaded), version);
    let kind = if key_of(loaded, keys) == key_of(&edited, keys) {
        WriteKind::Edit
    } else {
        WriteKind::KeyChange
    };
    checked(WritePlan {
        table: table.to_string(),
        kind,
        ops: transition(Some(loaded), Some(&edited), keys, version),
    })
}

pub fn plan_create(
    table: &str,
    keys: &KeySchema,
    item: &Item,
    version: Option<&str>,
) -> Result<WritePlan, PlanError> {
    let mut item = item.clone();
    bump_version(&mut item, None, version);
    checked(WritePlan {
        table: table.to_string(),
        kind: WriteKind::Create,
        ops: transition(None, Some(&item), keys, version),
    })
}

/// Deletes of `items`: one DeleteItem, or transactions of up to 25.
pub fn plan_delete(
    table: &str,
    keys: &KeySchema,
    items: &[Item],
    version: Option<&str>,
) -> Result<Vec<WritePlan>, PlanError> {
    items
        .chunks(MAX_TRANSACTION_ITEMS)
        .map(|chunk| {
            checked(WritePlan {
                table: table.to_string(),
                kind: WriteKind::Delete,
                ops: chunk
                    .iter()
                    .flat_map(|item| transition(Some(item), None, keys, version))
                    .collect(),
            })
        })
        .collect()
}

/// Puts every item back as it was before dynoscope's write, each op on condition that the
/// item is still what that write left (a deleted item still absent).
pub fn plan_undo(
    table: &str,
    keys: &KeySchema,
    images: &[UndoImage],
    version: Option<&str>,
) -> Result<Vec<WritePlan>, PlanError> {
    let mut groups: Vec<Vec<WriteOp>> = Vec::new();
    for image in images {
        let mut before = image.before.clone();
        if let Some(b) = before.as_mut() {
            // The restored item gets a new version too, so other writers see a change.
            let current = image.after.as_ref();
            if let (Some(name), Some(a)) = (version, current) {
                if let Some(v) = a.get(name) {
                    b.insert(name, v.clone());
                }
                bump_version(b, Some(a), version);
            }
        }
        groups.push(transition(
            image.after.as_ref(),
            before.as_ref(),
            keys,
            version,
        ));
    }
    // A key change's two ops stay in one transaction: transactions end between images.
    let mut plans = Vec::new();
    let mut current: Vec<WriteOp> = Vec::new();
    for group in groups {
        if current.len() + group.len() > MAX_TRANSACTION_ITEMS {
            plans.push(std::mem::take(&mut current));
        }
        current.extend(group);
    }
    if !current.is_empty() {
        plans.push(current);
    }
    plans
        .into_iter()
        .map(|ops| {
            checked(WritePlan {
                table: table.to_string(),
                kind: WriteKind::Undo,
                ops,
            })
        })
        .collect()
}
