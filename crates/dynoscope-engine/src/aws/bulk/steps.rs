//! What one item of a run sends: the conditional write, its worst-case write units (reserved
//! with the guard before it goes) and the image the item has once it is written (to recognise
//! a write that went through although its answer was lost).

use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::write::bulk::cost::item_cost;
use crate::model::write::bulk::BulkItem;
use crate::model::write::{plan_delete, plan_edit, plan_undo, UndoImage, WritePlan};

pub struct Step {
    pub plan: WritePlan,
    pub worst: f64,
    pub written: Option<Item>,
}

/// The run's write of `item`, conditional on it being what was read; `None` when the
/// statement leaves it as it is (nothing is sent).
pub fn run_step(info: &TableInfo, item: &BulkItem) -> Result<Option<Step>, String> {
    if item.unchanged() {
        return Ok(None);
    }
    let (table, keys) = (&info.name, &info.keys);
    let plan = match &item.after {
        Some(after) => {
            plan_edit(table, keys, &item.before, after, None).map_err(|e| e.to_string())?
        }
        None => plan_delete(table, keys, std::slice::from_ref(&item.before), None)
            .map_err(|e| e.to_string())?
            .pop()
            .ok_or("nothing to delete")?,
    };
    Ok(Some(Step {
        plan,
        worst: item_cost(info, &item.before, item.after.as_ref()).total(),
        written: item.after.clone(),
    }))
}

/// Undo's write of an item the run wrote: back to its before-image, conditional on it being
/// still what the run wrote.
pub fn undo_step(info: &TableInfo, item: &BulkItem) -> Result<Step, String> {
    let image = UndoImage {
        before: Some(item.before.clone()),
        after: item.after.clone(),
    };
    let plan = plan_undo(&info.name, &info.keys, std::slice::from_ref(&image), None)
        .map_err(|e| e.to_string())?
        .pop()
        .ok_or("nothing to undo")?;
    let worst = match &item.after {
        Some(after) => item_cost(info, after, Some(&item.before)).total(),
        None => item_cost(info, &item.before, None).total(),
    };
    Ok(Step {
        plan,
        worst,
        written: Some(item.before.clone()),
    })
}
