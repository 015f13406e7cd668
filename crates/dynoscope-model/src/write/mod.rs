//! Writes as plain data: what to send (a [`WritePlan`] of [`WriteOp`]s), the condition each
//! one carries that the stored item is still what the user saw ([`Guard`]), the request
//! rendered with placeholders within DynamoDB's expression limits, the attribute diff shown
//! before sending, and the checks an edited item must pass. No I/O: `aws::write` sends plans.
//!
//! Every write is conditional:
//! - an edit sends an UpdateItem that sets the changed and added attributes and removes the
//!   removed ones, on condition that every attribute of the loaded image still has its loaded
//!   value and that every attribute the edit adds is still absent. An UpdateItem rather than a
//!   PutItem of the whole image: a condition can only name attributes, so an attribute another
//!   writer added meanwhile, which neither image has, could not be protected, and a PutItem
//!   would silently drop it. An update leaves it alone.
//! - with a version attribute configured for the table, the condition is that attribute's
//!   loaded value (or its absence), and the write increments it;
//! - a changed key is a move sent in turn: a PutItem of the new key on `attribute_not_exists`,
//!   then a DeleteItem of the old key on the loaded image, the put taken back when the delete
//!   is refused (a delete never goes in a transaction: [`WritePlan`]);
//! - a new item is a PutItem on `attribute_not_exists` of the partition key; a delete is a
//!   DeleteItem on the loaded image, one per item.

pub mod bulk;
mod condition;
mod diff;
mod editing;
mod plan;
mod render;
mod template;
mod validate;

pub use condition::{same_value, Check, Guard};
pub use diff::{diff, rebase, three_way, AttributeEdit, ThreeWayRow};
pub use editing::{parse_edited, render_for_editor};
pub use plan::{
    plan_create, plan_delete, plan_edit, plan_undo, OpAction, PlanError, UndoImage, WriteKind,
    WriteOp, WritePlan, MAX_TRANSACTION_ITEMS, MOVE_OPERATION,
};
pub use render::{RenderedOp, MAX_EXPRESSION_BYTES, MAX_EXPRESSION_OPERATORS};
pub use template::new_item_template;
pub use validate::validate;

use crate::design::schema::KeySchema;
use crate::item::value::Item;

/// The key attributes of `item` under `keys` (those it has).
pub fn key_of(item: &Item, keys: &KeySchema) -> Item {
    let mut key = Item::new();
    for name in keys.names() {
        if let Some(v) = item.get(&name) {
            key.insert(name, v.clone());
        }
    }
    key
}

#[cfg(test)]
#[path = "write_tests.rs"]
mod tests;
