//! Text for people and for terminals: the one gate between untrusted item text and the terminal
//! (`sanitize`), an attribute value as a table cell, wrapping and shortening, counts in words,
//! endpoints with their credentials masked, and the words dynoscope puts into the shell command
//! lines and the SQL it prints.

pub mod cell;
pub mod escaped;
pub mod markdown;
pub mod redact;
pub mod sanitize;
pub mod shell;
pub mod shorten;
pub mod sql_text;
pub mod wording;
pub mod wrap;
