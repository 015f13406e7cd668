//! The table picker: every table, filtered as the user types.

use std::collections::HashMap;

use super::{ListCursor, Loadable};
use crate::model::schema::TableInfo;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Picker {
    pub tables: Option<Loadable<Vec<String>>>,
    pub filter: String,
    /// The filter is selected (on returning from a table): typing replaces it.
    pub filter_selected: bool,
    pub list: ListCursor,
    pub describes: HashMap<String, Loadable<TableInfo>>,
}

impl Picker {
    /// Tables matching the filter (case-insensitive substring), in ListTables order.
    pub fn visible(&self) -> Vec<&str> {
        let Some(Loadable::Loaded(tables)) = &self.tables else {
            return Vec::new();
        };
        let needle = self.filter.to_lowercase();
        tables
            .iter()
            .filter(|t| needle.is_empty() || t.to_lowercase().contains(&needle))
            .map(String::as_str)
            .collect()
    }

    pub fn highlighted(&self) -> Option<String> {
        self.visible().get(self.list.cursor).map(|s| s.to_string())
    }
}
