//! Distributions built from (key, items, bytes per item), shared by the distribution tests.

use super::KeyDistribution;

/// A distribution from (key, items, bytes per item).
pub(super) fn dist(keys: &[(&str, u64, usize)]) -> KeyDistribution {
    let mut d = KeyDistribution::new();
    for &(key, items, bytes) in keys {
        for _ in 0..items {
            d.add(key, bytes);
        }
    }
    d
}

pub(super) fn numbered(prefix: &str, count: usize, items: u64) -> Vec<(String, u64, usize)> {
    (0..count)
        .map(|i| (format!("{prefix}{i:05}"), items, 10))
        .collect()
}

pub(super) fn owned(keys: &[(String, u64, usize)]) -> KeyDistribution {
    let borrowed: Vec<(&str, u64, usize)> =
        keys.iter().map(|(k, i, b)| (k.as_str(), *i, *b)).collect();
    dist(&borrowed)
}

pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}
