//! Pure domain code: no I/O, no terminal types.

pub mod entity;
pub mod expression;
pub mod item_size;
pub mod key_condition;
pub mod number;
pub mod reserved;
pub mod sanitize;
pub mod schema;
pub mod value;
