//! The explorer's state and its pure `update`; key handling goes through a keymap that is data.

pub mod builder;
mod builder_update;
pub mod columns;
pub mod config;
pub mod keymap;
pub mod msg;
mod reads;
pub mod request_log;
pub mod scan_launcher;
pub mod state;
pub mod update;

#[cfg(test)]
mod builder_tests;
#[cfg(test)]
pub mod fixtures;
#[cfg(test)]
mod scan_tests;
#[cfg(test)]
mod update_tests;
