//! UTC timestamps for default export file names, from seconds since the Unix epoch.

use crate::input::calendar::civil_from_days;

/// `20261130T194900Z`: sortable, and free of characters a shell or a file system minds.
pub fn utc_stamp(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let secs = unix_seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(utc_stamp(951_782_400), "20000229T000000Z");
        assert_eq!(utc_stamp(1_798_761_599), "20261231T235959Z");
        assert_eq!(utc_stamp(1_796_154_600), "20261201T195000Z");
    }
}
