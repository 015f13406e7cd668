//! Text for people and for terminals: the one gate between untrusted item text and the terminal
//! (`sanitize`), an attribute value as a table cell, wrapping and shortening, counts in words,
//! endpoints with their credentials masked, a fuzzy match of typed words (`fuzzy`), the words
//! dynoscope puts into the shell command lines and the SQL it prints, and Markdown and Mermaid
//! text (a copied table, a design document).

pub mod cell;
pub mod escaped;
pub mod fuzzy;
pub mod markdown;
pub mod redact;
pub mod sanitize;
pub mod shell;
pub mod shorten;
pub mod sql_text;
pub mod wording;
pub mod wrap;
