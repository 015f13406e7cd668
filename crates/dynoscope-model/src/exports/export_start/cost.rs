//! What starting an export will cost, from the table's size and the configured price.

use crate::text::wording::{bytes, dollars};

/// USD per GB an export reads (full: the table's size; incremental: the changes processed),
/// us-east-1's list price; `price_per_gb_export` in the config file overrides it.
pub const DEFAULT_PRICE_PER_GB_EXPORT: f64 = 0.10;

/// AWS bills GB of 2^30 bytes, as `bytes` prints them.
const GB: f64 = 1024.0 * 1024.0 * 1024.0;

/// An incremental export is billed for at least this much data.
const INCREMENTAL_MINIMUM_BYTES: u64 = 10 * 1024 * 1024;

/// The estimate, as comment lines (`# …`) so that the printed command stays a script.
/// `size_bytes` is DescribeTable's TableSizeBytes, which DynamoDB updates about every six hours.
pub fn cost_lines(size_bytes: u64, price_per_gb: f64, incremental: bool) -> Vec<String> {
    let table = dollars(size_bytes as f64 / GB * price_per_gb);
    let price = format!(
        "{} per GB (price_per_gb_export in the config file)",
        dollars(price_per_gb)
    );
    if incremental {
        let minimum = dollars(INCREMENTAL_MINIMUM_BYTES as f64 / GB * price_per_gb);
        vec![
            format!("# estimated cost: depends on the data changed in the window, priced per GB processed at {price}, billed with a 10 MB minimum ({minimum})"),
            format!("# upper bound: about {table} if it is as much as the whole table ({}, DescribeTable's size, updated about every 6 hours)", bytes(size_bytes)),
        ]
    } else {
        vec![format!(
            "# estimated cost: {table}: the table's {} (DescribeTable's size, updated about every 6 hours) at {price}",
            bytes(size_bytes)
        )]
    }
}
