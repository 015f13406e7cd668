//! clap value parsers for every numeric flag: the value is checked against its range from
//! [`crate::model::input::limits`] while parsing, so a bad one is refused by clap's own one-line
//! error (`invalid value '1e20' for '--timeout <SECS>': out of range; use 0.01 to 3600
//! seconds`), with the text exactly as typed and exit code 2, before anything runs.

use crate::aws::read::MAX_SEGMENTS;
use crate::model::input::limits::{self, CountRange};
use crate::model::input::names;

const SEGMENTS: CountRange = CountRange {
    min: 1,
    max: MAX_SEGMENTS as u64,
    unit: "segments",
};

pub fn timeout(text: &str) -> Result<f64, String> {
    limits::TIMEOUT_SECS.parse(text)
}

pub fn max_attempts(text: &str) -> Result<u32, String> {
    limits::MAX_ATTEMPTS.parse(text)
}

pub fn max_rcu(text: &str) -> Result<f64, String> {
    limits::MAX_RCU.parse(text)
}

pub fn rcu_per_second(text: &str) -> Result<f64, String> {
    limits::RCU_PER_SECOND.parse(text)
}

pub fn limit(text: &str) -> Result<usize, String> {
    limits::LIMIT.parse(text)
}

pub fn page_size(text: &str) -> Result<i32, String> {
    limits::PAGE_SIZE.parse(text)
}

pub fn max_items(text: &str) -> Result<usize, String> {
    limits::MAX_ITEMS.parse(text)
}

pub fn segments(text: &str) -> Result<u32, String> {
    SEGMENTS.parse(text)
}

pub fn top(text: &str) -> Result<usize, String> {
    limits::TOP_KEYS.parse(text)
}

pub fn users(text: &str) -> Result<u32, String> {
    limits::DEMO_USERS.parse(text)
}

/// A table name DynamoDB accepts (or its ARN): an empty one is refused here, not by the SDK.
pub fn table_name(text: &str) -> Result<String, String> {
    names::check_table_name(text).map(|()| text.to_string())
}

pub fn region(text: &str) -> Result<String, String> {
    names::check_region(text).map(|()| text.to_string())
}

/// `--columns`: at least one attribute name.
pub fn columns(text: &str) -> Result<String, String> {
    names::parse_columns(text).map(|_| text.to_string())
}
