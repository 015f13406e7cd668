//! Number formatting for people.

pub use crate::model::text::wording::{bytes, count, count_as, dollars, thousands};

pub use crate::model::traffic::capacity::format_units as units;

/// ` · us-east-1 · profile default · http://…`: where requests go, for the titles.
pub fn connection(state: &crate::app::state::State) -> String {
    use crate::model::text::sanitize::sanitize;
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
