//! The export (`x`), one feature in one folder: the dialog and the job it starts (`dialog`), the
//! dialog's keys (`keys`), the run once it starts, with its progress, cancel and end (`run`),
//! and a damaged export's report (`damage`). `ui::export` draws the dialog. The read an export
//! tees into its file stays with the read's owner, `app::reads`.

pub(crate) mod damage;
pub(crate) mod design;
mod dialog;
pub(crate) mod keys;
pub(crate) mod run;

pub use dialog::*;

#[cfg(test)]
pub(crate) mod damage_tests;
#[cfg(test)]
mod design_tests;
#[cfg(test)]
mod keys_tests;
