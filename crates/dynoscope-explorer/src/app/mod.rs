//! The explorer's state and its pure `update`; key handling goes through a keymap that is data.

pub mod column_choice;
pub mod columns;
pub mod config;
pub mod effect;
pub mod explorer;
pub mod export;
pub mod help;
pub mod history_file;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod live;
pub mod metrics;
pub mod msg;
pub mod query_form;
pub mod reads;
pub mod request_cli;
pub mod request_log;
pub(crate) mod scroll;
pub mod sent_view;
pub mod state;
pub mod table;
pub mod text_input;
pub mod update;
pub mod writes;

#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
