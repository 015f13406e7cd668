//! The query form (`:`), one feature in one folder: its state (`form`, `field`, `partiql`,
//! `history`, `sample_offer`), what its keys do (`keys`, `partiql_keys`), its completions and
//! key samples (`completion`, `key_sample`, and the loaded items' key values in `loaded_keys`).
//! `ui::query_form` draws it.
//!
//! The files depend one way, so each can be read without the others' internals:
//! `keys` → `partiql_keys` → `history` → `form` → `partiql`, `field`, `loaded_keys`; and
//! `keys` → `key_sample` → `completion` → `sample_offer` → `form`. Nothing below `keys` calls
//! back up. `multi_key` is the rest of `form`: the key fields of a multi-attribute key and the
//! sort operator both shapes read.

mod completion;
mod field;
mod form;
mod history;
mod key_sample;
mod keys;
mod loaded_keys;
mod multi_key;
mod partiql;
mod partiql_keys;
mod sample_offer;

pub use field::{Field, SORT_OPS};
pub use form::{Completion, FieldError, KeySample, PreparedQuery, QueryForm, RawInputs};
pub use history::{HistoryEntry, QueryMemory, HISTORY_PER_TABLE};
pub use loaded_keys::{LoadedKeys, LOADED_KEYS_LIMIT};
pub use partiql::{
    check_partiql, explain_area, PartiqlCheck, PartiqlForm, PartiqlReady, DIALECT_TABS,
};

// For the router and the other dialogs in `update`.
pub(crate) use completion::MAX_COMPLETIONS;
pub(crate) use key_sample::sample_event;
pub(crate) use keys::{open_query_form, paste, query_form_key};

#[cfg(test)]
pub(crate) mod builder_tests;
#[cfg(test)]
mod completion_tests;
#[cfg(test)]
mod partiql_completion_tests;
#[cfg(test)]
mod partiql_explain_tests;
#[cfg(test)]
mod partiql_tests;
