//! dynoscope's pure domain code: no I/O, no terminal types, no AWS SDK. The binary crate
//! re-exports it as `dynoscope::model`.

pub mod demo;
pub mod design;
pub mod engine;
pub mod exports;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
pub mod formats;
pub mod input;
pub mod item;
pub mod query;
pub mod stream;
pub mod text;
pub mod traffic;
pub mod write;
