//! ISO-8601 dates and timestamps inside keys. `2023-04-01T12:00:00.001Z` holds `:`, which is
//! also a key separator (`User:UserA`), so a key splitter asks here first and keeps a
//! timestamp as one part whatever the separator.

/// Length in bytes of the ISO-8601 date or date-time that starts `text`, if one does:
/// `YYYY-MM-DD`, then optionally `T` (or `t`, as ElectroDB's lower-casing writes it, or a
/// space) and `HH:MM`, `:SS`, a fraction, and a zone (`Z`, `±HH:MM`, `±HHMM`, `±HH`).
pub fn iso_timestamp_len(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let digits =
        |at: usize, n: usize| b.len() >= at + n && b[at..at + n].iter().all(u8::is_ascii_digit);
    if !(digits(0, 4)
        && b.get(4) == Some(&b'-')
        && digits(5, 2)
        && b.get(7) == Some(&b'-')
        && digits(8, 2))
    {
        return None;
    }
    let date = 10;
    if !matches!(b.get(date), Some(b'T' | b't' | b' ')) || !digits(date + 1, 2) {
        return Some(date);
    }
    // `HH` alone after the `T` is not a time DynamoDB designs write; `HH:MM` at least.
    if b.get(date + 3) != Some(&b':') || !digits(date + 4, 2) {
        return Some(date);
    }
    let mut end = date + 6;
    if b.get(end) == Some(&b':') && digits(end + 1, 2) {
        end += 3;
        if matches!(b.get(end), Some(b'.' | b',')) && digits(end + 1, 1) {
            end += 2;
            while b.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
        }
    }
    match b.get(end) {
        Some(b'Z' | b'z') => end += 1,
        Some(b'+' | b'-') if digits(end + 1, 2) => {
            let hours = end + 3;
            end = if b.get(hours) == Some(&b':') && digits(hours + 1, 2) {
                hours + 3
            } else if digits(hours, 2) {
                hours + 2
            } else {
                hours
            };
        }
        _ => {}
    }
    Some(end)
}

/// `body` split at `separator`, except inside an ISO-8601 timestamp that starts a segment.
pub fn split_segments(body: &str, separator: char) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        // A timestamp spanning separators is one segment, up to the next separator after it.
        let skip = iso_timestamp_len(rest)
            .filter(|&n| rest[..n].contains(separator))
            .unwrap_or(0);
        match rest[skip..].find(separator) {
            Some(at) => {
                out.push(&rest[..skip + at]);
                rest = &rest[skip + at + separator.len_utf8()..];
            }
            None => {
                out.push(rest);
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_dates_and_timestamps() {
        let cases: &[(&str, Option<usize>)] = &[
            ("2023-04-01", Some(10)),
            ("2023-04-01T12:00:00.001Z", Some(24)),
            ("2023-04-01T12:00:00Z#x", Some(20)),
            ("2023-04-01T12:00", Some(16)),
            ("2023-04-01T12", Some(10)),
            ("2020-01-02t03:04:05z", Some(20)),
            ("2023-04-01T12:00:00+02:00", Some(25)),
            ("2023-04-01T12:00:00-0500", Some(24)),
            ("2023-04-01 12:00:00", Some(19)),
            ("2023-4-01", None),
            ("ORDER#2023-04-01", None),
            ("12:00:00", None),
            ("", None),
        ];
        for &(text, want) in cases {
            assert_eq!(iso_timestamp_len(text), want, "{text:?}");
        }
    }

    #[test]
    fn a_timestamp_is_one_segment_whatever_the_separator() {
        assert_eq!(
            split_segments("2023-04-01T12:00:00.001Z", ':'),
            ["2023-04-01T12:00:00.001Z"]
        );
        assert_eq!(
            split_segments("Game:2023-04-01T12:00:00Z:g1", ':'),
            ["Game", "2023-04-01T12:00:00Z", "g1"]
        );
        assert_eq!(split_segments("a:b::c", ':'), ["a", "b", "", "c"]);
        assert_eq!(
            split_segments("ORDER#2026-08-27#456", '#'),
            ["ORDER", "2026-08-27", "456"]
        );
        // Not a timestamp: split as ever.
        assert_eq!(split_segments("12:00:00", ':'), ["12", "00", "00"]);
        assert_eq!(split_segments("", ':'), [""]);
    }
}
