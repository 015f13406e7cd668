//! The table picker: every table, filtered as the user types.

use std::collections::HashMap;

use super::{ListCursor, Loadable};
use crate::model::design::schema::TableInfo;

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
        // Without the list (ListTables denied or failed), the name typed is the table.
        if let Some(Loadable::Failed(_)) = &self.tables {
            let typed = self.filter.trim();
            return (!typed.is_empty()).then(|| typed.to_string());
        }
        self.visible().get(self.list.cursor).map(|s| s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ListTables denied: the picker opens the name typed instead of a listed one.
    #[test]
    fn without_the_list_the_typed_name_is_the_table() {
        let mut picker = Picker {
            tables: Some(Loadable::Failed("not allowed 'dynamodb:ListTables'".into())),
            ..Default::default()
        };
        assert_eq!(picker.highlighted(), None);
        picker.filter = " orders ".into();
        assert_eq!(picker.highlighted().as_deref(), Some("orders"));
        picker.tables = Some(Loadable::Loaded(vec!["other".into()]));
        assert_eq!(
            picker.highlighted(),
            None,
            "a listed table is picked from the list"
        );
    }
}
