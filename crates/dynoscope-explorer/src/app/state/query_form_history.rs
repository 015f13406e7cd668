//! What query history keeps of the builder: a form query's fields, or a PartiQL statement, and
//! refilling the builder from one.

use super::query_form::{Field, QueryForm};

/// What history keeps of a query: enough to refill the builder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    pub raw: bool,
    /// A PartiQL statement (its text is `Field::Statement`'s), recalled in PartiQL mode.
    pub partiql: bool,
    pub index: usize,
    pub op: usize,
    pub descending: bool,
    pub texts: Vec<(Field, String)>,
}

pub const HISTORY_PER_TABLE: usize = 100;

impl QueryForm {
    pub fn history_entry(&self) -> HistoryEntry {
        if self.partiql {
            // The statement names its own table, index, order and limit.
            return HistoryEntry {
                raw: false,
                partiql: true,
                index: self.index,
                op: 0,
                descending: false,
                texts: [Field::Statement, Field::Parameters]
                    .into_iter()
                    .map(|f| (f, self.text(f)))
                    .filter(|(_, t)| !t.is_empty())
                    .collect(),
            };
        }
        let texts = [
            Field::Pk,
            Field::Sk,
            Field::SkHigh,
            Field::Limit,
            Field::Filter,
            Field::Projection,
            Field::RawKey,
            Field::RawNames,
            Field::RawValues,
        ]
        .into_iter()
        .map(|f| (f, self.text(f)))
        .filter(|(_, t)| !t.is_empty())
        .collect();
        HistoryEntry {
            raw: self.raw,
            partiql: false,
            index: self.index,
            op: self.op,
            descending: self.descending,
            texts,
        }
    }

    pub fn restore(&mut self, entry: &HistoryEntry) {
        let cursor = self.history_cursor;
        let sample = std::mem::take(&mut self.sample);
        let loaded_keys = std::mem::take(&mut self.loaded_keys);
        *self = QueryForm::new(entry.index);
        self.sample = sample;
        self.loaded_keys = loaded_keys;
        self.history_cursor = cursor;
        self.raw = entry.raw;
        self.partiql = entry.partiql;
        if entry.partiql {
            self.focus = Field::Statement;
        }
        self.op = entry.op;
        self.descending = entry.descending;
        for (field, value) in &entry.texts {
            self.set_text(*field, value);
        }
    }
}
