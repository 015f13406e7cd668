//! Which attributes a CSV export puts in its columns: the table's key attributes first, then
//! either the columns the items pane shows or every attribute the exported items carry.

use std::borrow::Borrow;

use crate::item::attribute_rank::rank_attributes;
use crate::item::value::Item;

/// The key attributes, then `shown` (the items pane's attribute columns) without repeats.
pub fn csv_columns(key_names: &[String], shown: &[String]) -> Vec<String> {
    let mut columns: Vec<String> = Vec::with_capacity(key_names.len() + shown.len());
    for name in key_names.iter().chain(shown) {
        if !columns.contains(name) {
            columns.push(name.clone());
        }
    }
    columns
}

/// The key attributes, then every other attribute of `items`, most common first (ties by
/// name), so the file's first columns are the ones most rows fill.
pub fn all_attributes<I: Borrow<Item>>(
    key_names: &[String],
    items: impl IntoIterator<Item = I>,
) -> Vec<String> {
    let skip: Vec<&str> = key_names.iter().map(String::as_str).collect();
    let rest = rank_attributes(items, &skip, usize::MAX);
    csv_columns(key_names, &rest)
}
