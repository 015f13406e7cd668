//! DynamoDB items and their values: the lossless in-memory form, numbers as exact decimal text, the
//! explorer's compact store of loaded items, item size as DynamoDB counts it, and which attributes
//! a table of items shows as columns.

pub mod attribute_rank;
pub mod compact;
pub mod item_size;
pub mod number;
pub mod value;
