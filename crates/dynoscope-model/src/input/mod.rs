//! What people type, checked before it is used: the range of every number a flag, config value or
//! form takes, the names DynamoDB and the SDK accept, durations (`30s`, `1h30m`) and calendar
//! dates.

pub mod calendar;
pub mod duration;
pub mod limits;
pub mod names;
