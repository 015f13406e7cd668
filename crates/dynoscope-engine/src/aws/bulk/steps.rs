//! What one item of a run sends: the conditional write, its worst-case write units (reserved
//! with the guard before it goes) and the image the item has once it is written (to recognise
//! a write that went through although its answer was lost).
//!
//! [`preflight`] plans every item of a run before its journal starts: a write DynamoDB would
//! refuse for its item whatever happens meanwhile (a condition or update past the expression
//! limits, an index key left empty, an attribute with no name, an image past 400 KB) is found
//! there, so the run is refused with nothing written rather than stopped midway on it.

use crate::model::design::schema::TableInfo;
use crate::model::formats::json::append_plain_json;
use crate::model::item::value::Item;
use crate::model::write::bulk::cost::item_cost;
use crate::model::write::bulk::BulkItem;
use crate::model::write::{plan_delete, plan_edit, plan_undo, validate, UndoImage, WritePlan};

pub struct Step {
    pub plan: WritePlan,
    pub worst: f64,
    pub written: Option<Item>,
}

/// The image the plan's one op leaves (`None`: deleted); the version attribute, if any,
/// incremented as the write sends it.
fn written_by(plan: &WritePlan, fallback: Option<&Item>) -> Option<Item> {
    match plan.ops.as_slice() {
        [op] => op.after.clone(),
        _ => fallback.cloned(),
    }
}

/// The run's write of `item`, conditional on it being what was read (with `version`, on
/// that attribute, which the write increments); `None` when the statement leaves it as it
/// is (nothing is sent).
pub fn run_step(
    info: &TableInfo,
    item: &BulkItem,
    version: Option<&str>,
) -> Result<Option<Step>, String> {
    if item.unchanged() {
        return Ok(None);
    }
    let (table, keys) = (&info.name, &info.keys);
    let plan = match &item.after {
        Some(after) => {
            plan_edit(table, keys, &item.before, after, version).map_err(|e| e.to_string())?
        }
        None => plan_delete(table, keys, std::slice::from_ref(&item.before), version)
            .map_err(|e| e.to_string())?
            .pop()
            .ok_or("nothing to delete")?,
    };
    Ok(Some(Step {
        worst: item_cost(info, &item.before, item.after.as_ref()).total(),
        written: written_by(&plan, item.after.as_ref()),
        plan,
    }))
}

/// Undo's write of an item the run wrote: back to its before-image, conditional on it being
/// still what the run wrote.
pub fn undo_step(info: &TableInfo, item: &BulkItem, version: Option<&str>) -> Result<Step, String> {
    let image = UndoImage {
        before: Some(item.before.clone()),
        after: item.after.clone(),
    };
    let plan = plan_undo(
        &info.name,
        &info.keys,
        std::slice::from_ref(&image),
        version,
    )
    .map_err(|e| e.to_string())?
    .pop()
    .ok_or("nothing to undo")?;
    let worst = match &item.after {
        Some(after) => item_cost(info, after, Some(&item.before)).total(),
        None => item_cost(info, &item.before, None).total(),
    };
    Ok(Step {
        written: written_by(&plan, Some(&item.before)),
        plan,
        worst,
    })
}

/// Plans `todo`'s writes (`undo`: their undo) and checks each against what DynamoDB accepts,
/// before anything is written: `Err` is one line naming the first item that cannot be
/// written, why, and how many cannot in all.
pub fn preflight(
    info: &TableInfo,
    items: &[BulkItem],
    todo: &[usize],
    undo: bool,
    version: Option<&str>,
) -> Result<(), String> {
    let mut first: Option<String> = None;
    let mut bad = 0usize;
    for &n in todo {
        let item = &items[n];
        let step = if undo {
            undo_step(info, item, version).map(Some)
        } else {
            run_step(info, item, version)
        };
        let problem = match step {
            Err(why) => Some(why),
            Ok(None) => None,
            Ok(Some(step)) => step
                .written
                .as_ref()
                .map(|image| validate(image, info))
                .filter(|problems| !problems.is_empty())
                .map(|problems| format!("its new image: {}", problems.join("; "))),
        };
        if let Some(why) = problem {
            bad += 1;
            if first.is_none() {
                let mut key = String::new();
                append_plain_json(&mut key, &item.key(info));
                first = Some(format!("item {key}: {why}"));
            }
        }
    }
    match first {
        None => Ok(()),
        Some(line) => Err(format!(
            "{bad} of {} items cannot be written as planned, so nothing was written; {line}",
            todo.len()
        )),
    }
}
