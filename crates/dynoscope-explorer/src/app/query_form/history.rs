//! What query history keeps of the builder: a form query's fields, or a PartiQL statement, and
//! refilling the builder from one.

use std::collections::HashMap;

use super::field::Field;
use super::form::{KeySample, QueryForm};
use crate::app::msg::{Effect, FileEffect};
use crate::app::state::State;
use crate::model::design::schema::MAX_KEY_ATTRIBUTES;
use crate::model::query::completion::CompletionOrder;

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

/// What the query form and the palette keep for the session, between openings.
#[derive(Debug, Clone, Default)]
pub struct QueryMemory {
    /// Query history per table and endpoint (`history_file::history_key`), newest last.
    pub history: HashMap<String, Vec<HistoryEntry>>,
    /// Key samples the user asked for (Ctrl-S in the query form), per endpoint, table and index,
    /// kept for the session: reopening the form or choosing the index again reads nothing.
    pub key_samples: HashMap<String, KeySample>,
    /// Key completions in key order or by count (Ctrl-O in the query form and the palette).
    pub completion_order: CompletionOrder,
    /// The palette's Ctrl-K checks, per table and pattern.
    pub pattern_checks: crate::app::state::PatternChecks,
}

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
        let key_parts =
            (0..MAX_KEY_ATTRIBUTES as u8).flat_map(|n| [Field::PkAt(n), Field::SkAt(n)]);
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
        .chain(key_parts)
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

/// Adds `entry` to `table`'s history (newest last, once, at most [`HISTORY_PER_TABLE`]), and
/// the effect that saves it per table and endpoint unless the config says `history = false`.
pub(super) fn remember(state: &mut State, table: &str, entry: HistoryEntry) -> Option<Effect> {
    let key = crate::app::history_file::history_key(&state.endpoint, table);
    let history = state.queries.history.entry(key).or_default();
    history.retain(|h| *h != entry);
    history.push(entry);
    if history.len() > HISTORY_PER_TABLE {
        history.remove(0);
    }
    state.config.history.then(|| {
        Effect::Files(FileEffect::SaveHistory {
            endpoint: state.endpoint.clone(),
            table: table.to_string(),
            entries: history.clone(),
        })
    })
}
