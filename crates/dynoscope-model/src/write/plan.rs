//! Plans: the ops an edit, a new item, a delete or an undo sends, each with its guard.

use super::condition::{same_value, Guard};
use super::diff::{diff, AttributeEdit};
use super::key_of;
use super::render::RenderedOp;
use crate::design::schema::KeySchema;
use crate::item::value::{AttrValue, Item};

/// Restores of deleted items go in transactions of at most this many items.
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

/// One request: a single op, or a TransactWriteItems of several; or a move, sent in turn.
///
/// A delete never goes in a transaction: a condition can only name attributes, so an
/// attribute another writer added after the read passes it, and only a DeleteItem on its own
/// can return what it removed (`ALL_OLD`) to be compared with the image read (and put back
/// when they differ). So a plan of several ops with a delete among them is a move: a PutItem
/// of the new key on `attribute_not_exists`, then the DeleteItem of the old key; when the
/// delete is refused (or had to be put back), `rollback` takes the put back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WritePlan {
    pub table: String,
    pub kind: WriteKind,
    pub ops: Vec<WriteOp>,
    /// `rollback[i]` undoes `ops[i]`: sent in reverse for the ops written before the one that
    /// was refused. Empty unless the plan is sent in turn.
    pub rollback: Vec<WriteOp>,
}

/// What [`WritePlan::operation`] says of a move.
pub const MOVE_OPERATION: &str = "PutItem+DeleteItem";

impl WritePlan {
    /// The API operation sent.
    pub fn operation(&self) -> &'static str {
        match self.ops.as_slice() {
            [op] => match op.action {
                OpAction::Put(_) => "PutItem",
                OpAction::Update { .. } => "UpdateItem",
                OpAction::Delete => "DeleteItem",
            },
            _ if self.in_turn() => MOVE_OPERATION,
            _ => "TransactWriteItems",
        }
    }

    /// Several ops sent one after another (a delete among them), not as a transaction.
    pub fn in_turn(&self) -> bool {
        self.ops.len() > 1 && self.ops.iter().any(|op| op.action == OpAction::Delete)
    }

    pub fn render(&self) -> Result<Vec<RenderedOp>, PlanError> {
        self.ops.iter().map(|op| op.render(&self.table)).collect()
    }

    /// A plan of `ops`: a move gets the op that takes back each put before its delete.
    fn new(table: &str, kind: WriteKind, ops: Vec<WriteOp>, version: Option<&str>) -> Self {
        let mut plan = WritePlan {
            table: table.to_string(),
            kind,
            ops,
            rollback: Vec::new(),
        };
        if plan.in_turn() {
            plan.rollback = plan
                .ops
                .iter()
                .map(|op| match (&op.action, &op.after) {
                    // A put on `attribute_not_exists` is taken back by a delete of exactly
                    // what it wrote (itself compared with what it removes).
                    (OpAction::Put(_), Some(after)) => WriteOp {
                        action: OpAction::Delete,
                        key: op.key.clone(),
                        guard: Guard::unchanged(after, &[], version),
                        before: Some(after.clone()),
                        after: None,
                    },
                    // The last op: never taken back.
                    _ => op.clone(),
                })
                .collect();
        }
        plan
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
    for op in &plan.rollback {
        op.render(&plan.table)?;
    }
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
    checked(WritePlan::new(
        table,
        kind,
        transition(Some(loaded), Some(&edited), keys, version),
        version,
    ))
}

pub fn plan_create(
    table: &str,
    keys: &KeySchema,
    item: &Item,
    version: Option<&str>,
) -> Result<WritePlan, PlanError> {
    let mut item = item.clone();
    bump_version(&mut item, None, version);
    checked(WritePlan::new(
        table,
        WriteKind::Create,
        transition(None, Some(&item), keys, version),
        version,
    ))
}

/// Deletes of `items`: one DeleteItem each (never a transaction: see [`WritePlan`]).
pub fn plan_delete(
    table: &str,
    keys: &KeySchema,
    items: &[Item],
    version: Option<&str>,
) -> Result<Vec<WritePlan>, PlanError> {
    items
        .iter()
        .map(|item| {
            checked(WritePlan::new(
                table,
                WriteKind::Delete,
                transition(Some(item), None, keys, version),
                version,
            ))
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
    // Restores and updates go in transactions of up to 25, ending between images; an image
    // whose undo deletes (a created item) is a plan of its own, and a key change's two images
    // (its put, then its delete) are undone by a move back: the old key's put, then the new
    // key's delete, in turn.
    let mut plans = Vec::new();
    let mut current: Vec<WriteOp> = Vec::new();
    let lone = |g: &[WriteOp], put: bool| {
        matches!(g, [op] if matches!(op.action, OpAction::Put(_)) == put
            && (put || op.action == OpAction::Delete))
    };
    let mut groups = groups.into_iter().peekable();
    while let Some(mut group) = groups.next() {
        if lone(&group, false) && groups.peek().is_some_and(|next| lone(next, true)) {
            let delete = std::mem::replace(&mut group, groups.next().expect("peeked"));
            group.extend(delete);
        }
        let deletes = group.iter().any(|op| op.action == OpAction::Delete);
        if (deletes || current.len() + group.len() > MAX_TRANSACTION_ITEMS) && !current.is_empty() {
            plans.push(std::mem::take(&mut current));
        }
        if deletes {
            plans.push(group);
        } else {
            current.extend(group);
        }
    }
    if !current.is_empty() {
        plans.push(current);
    }
    plans
        .into_iter()
        .map(|ops| checked(WritePlan::new(table, WriteKind::Undo, ops, version)))
        .collect()
}
