//! Number formatting for people.

pub use crate::model::wording::{count, count_as, thousands};

/// `1536` → `1.5 KB`, decimal-free below 1 KB.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KB", "MB", "GB", "TB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

pub use crate::model::capacity::format_units as units;

/// USD with enough digits to show a fraction of a cent.
pub fn dollars(d: f64) -> String {
    if d == 0.0 {
        "$0".to_string()
    } else if d < 0.01 {
        // Two significant digits, however small: a page of reads costs millionths of a dollar.
        let decimals = (-d.log10().floor()) as usize + 1;
        format!("${d:.decimals$}")
    } else {
        format!("${d:.2}")
    }
}

/// ` · us-east-1 · profile default · http://…`: where requests go, for the titles.
pub fn connection(state: &crate::app::state::State) -> String {
    use crate::model::sanitize::sanitize;
    let session = &state.session;
    let mut text = String::new();
    // An export is read from its files (the endpoint names where): no region or profile
    // is talked to for its items.
    if session.export.is_some() {
        return format!(" · {}", sanitize(&state.endpoint));
    }
    if !session.region.is_empty() {
        text.push_str(&format!(" · {}", sanitize(&session.region)));
    }
    if !session.profile.is_empty() {
        text.push_str(&format!(" · profile {}", sanitize(&session.profile)));
    }
    text.push_str(&format!(" · {}", sanitize(&state.endpoint)));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(38118), "38,118");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(1536), "1.5 KB");
        assert_eq!(bytes(8 * 1024 * 1024), "8.0 MB");
        assert_eq!(units(0.5), "0.5");
        assert_eq!(units(12.0), "12");
        assert_eq!(units(1.25), "1.25");
        assert_eq!(dollars(0.0), "$0");
        assert_eq!(dollars(0.000125), "$0.00013");
        assert_eq!(dollars(0.0000003125), "$0.00000031");
        assert_eq!(dollars(2.5), "$2.50");
    }
}
