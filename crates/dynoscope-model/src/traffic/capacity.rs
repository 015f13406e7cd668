//! Consumed capacity as DynamoDB reports it, its running totals, and what it costs.

use std::collections::BTreeMap;

use serde::Serialize;

/// One response's `ConsumedCapacity` (requested with `ReturnConsumedCapacity=INDEXES`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Consumed {
    pub total: f64,
    pub table: f64,
    /// Per GSI/LSI, by index name.
    pub indexes: BTreeMap<String, f64>,
    /// Responses that did not say what they consumed (DynamoDB Local's ExecuteStatement):
    /// each is counted at the worst case of its request, never as zero.
    #[serde(skip_serializing_if = "is_zero")]
    pub unreported_pages: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Consumed {
    pub fn add(&mut self, other: &Consumed) {
        self.total += other.total;
        self.table += other.table;
        self.unreported_pages += other.unreported_pages;
        for (name, units) in &other.indexes {
            *self.indexes.entry(name.clone()).or_default() += units;
        }
    }
}

/// The on-demand read price used when the user configures none: USD per million read request
/// units, us-east-1 since November 2024.
pub const DEFAULT_PRICE_PER_MILLION_READS: f64 = 0.125;

/// USD cost of `units` read request units at `price_per_million`.
pub fn on_demand_cost(units: f64, price_per_million: f64) -> f64 {
    units * price_per_million / 1_000_000.0
}

/// Read units a full scan of `size_bytes` should cost: one unit per 4 KB read strongly
/// consistently, half that eventually consistently.
pub fn scan_estimate_units(size_bytes: u64, consistent: bool) -> f64 {
    let blocks = size_bytes.div_ceil(4096) as f64;
    if consistent {
        blocks
    } else {
        blocks / 2.0
    }
}

/// Read units the first page of a Scan should cost: `page_items` items at the average size
/// DescribeTable reports (`size_bytes / item_count`), at most the 1 MB a page reads and at
/// most the whole table or index; a request reads one 4 KB block at least.
pub fn first_page_units(
    item_count: u64,
    size_bytes: u64,
    page_items: u64,
    consistent: bool,
) -> f64 {
    const PAGE_BYTES: u64 = 1024 * 1024;
    let average = size_bytes.checked_div(item_count).unwrap_or(0);
    let bytes = (average * page_items.min(item_count))
        .min(PAGE_BYTES)
        .min(size_bytes)
        .max(1);
    scan_estimate_units(bytes, consistent)
}

/// Capacity units as DynamoDB reports them (halves are common), without float noise.
pub fn format_units(u: f64) -> String {
    if u == u.trunc() && u.abs() < 1e15 {
        format!("{}", u as i64)
    } else {
        let s = format!("{u:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// What a read stopped by `--max-rcu budget` did, for its note: a read stops once what it
/// consumed reaches the budget, usually with the page that passed it.
pub fn budget_stop(budget: f64, consumed: f64) -> String {
    let (budget_text, consumed_text) = (format_units(budget), format_units(consumed));
    if consumed > budget {
        format!(
            "stopped after the page that passed --max-rcu {budget_text}: {consumed_text} read units consumed"
        )
    } else {
        format!("stopped at --max-rcu {budget_text}: {consumed_text} read units consumed")
    }
}

/// The largest item DynamoDB stores.
pub const MAX_ITEM_BYTES: u64 = 400 * 1024;
/// A Query or Scan page stops once it has read 1 MB; the item that crosses the line is still
/// read whole, so a page can read up to 1 MB plus one item.
pub const MAX_PAGE_BYTES: u64 = 1024 * 1024 + MAX_ITEM_BYTES;

/// The most read units one Query or Scan request can consume, whatever the data: `limit` items
/// of the largest size, or a full page, whichever is less. Capacity guards reserve this before
/// a request is sent, so what they promise holds for data they have not seen yet.
pub fn worst_case_read_units(limit: Option<i32>, consistent: bool) -> f64 {
    let by_limit = limit.map_or(u64::MAX, |l| {
        (l.max(1) as u64).saturating_mul(MAX_ITEM_BYTES)
    });
    scan_estimate_units(by_limit.min(MAX_PAGE_BYTES), consistent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_page_reads_its_items_at_the_average_size_within_1_mb() {
        // 420 items of 155 B: all fit in a 1,000-item page, 65,100 B = 16 blocks, ½ each.
        assert_eq!(first_page_units(420, 65_100, 1000, false), 8.0);
        assert_eq!(first_page_units(420, 65_100, 1000, true), 16.0);
        // A million items of 310 B: 1,000 of them, 310,000 B = 76 blocks.
        assert_eq!(first_page_units(1_000_000, 310_000_000, 1000, false), 38.0);
        // 4 KB items: a page stops at 1 MB (256 blocks).
        assert_eq!(first_page_units(10_000, 40_960_000, 1000, true), 256.0);
        // Empty (or not yet counted): one block, the least a request costs.
        assert_eq!(first_page_units(0, 0, 1000, false), 0.5);
    }

    #[test]
    fn add_sums_table_and_each_index() {
        let mut sum = Consumed::default();
        let page = |t: f64, g: f64| Consumed {
            total: t + g,
            table: t,
            indexes: BTreeMap::from([("GSI1".to_string(), g)]),
            unreported_pages: 0,
        };
        sum.add(&page(1.5, 0.0));
        sum.add(&page(0.5, 2.0));
        assert_eq!(sum.total, 4.0);
        assert_eq!(sum.table, 2.0);
        assert_eq!(sum.indexes["GSI1"], 2.0);
    }

    #[test]
    fn cost_and_estimates() {
        let cases = [
            (1_000_000.0, 0.125, 0.125),
            (8_000_000.0, 0.25, 2.0),
            (0.0, 0.125, 0.0),
        ];
        for (units, price, cost) in cases {
            assert!((on_demand_cost(units, price) - cost).abs() < 1e-12);
        }
        assert_eq!(scan_estimate_units(4096, true), 1.0);
        assert_eq!(scan_estimate_units(4097, true), 2.0);
        assert_eq!(scan_estimate_units(4097, false), 1.0);
        assert_eq!(scan_estimate_units(0, false), 0.0);
    }

    #[test]
    fn a_budget_stop_says_what_happened() {
        assert_eq!(
            budget_stop(10.0, 12.0),
            "stopped after the page that passed --max-rcu 10: 12 read units consumed"
        );
        assert_eq!(
            budget_stop(0.5, 0.5),
            "stopped at --max-rcu 0.5: 0.5 read units consumed"
        );
    }

    #[test]
    fn worst_case_is_the_smaller_of_limit_items_and_a_page() {
        // One 400 KB item: 100 blocks of 4 KB.
        assert_eq!(worst_case_read_units(Some(1), true), 100.0);
        assert_eq!(worst_case_read_units(Some(1), false), 50.0);
        // 1 MB + 400 KB = 356 blocks, however many items are asked for.
        assert_eq!(worst_case_read_units(Some(2000), true), 356.0);
        assert_eq!(worst_case_read_units(None, false), 178.0);
        assert_eq!(worst_case_read_units(Some(0), false), 50.0);
    }
}
