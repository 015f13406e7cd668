//! Durations as people type them on the command line: `500ms`, `30s`, `10m`, `2h`, `1h30m`.
//!
//! A bare number is refused rather than guessed at: `--for 60` could mean seconds or minutes,
//! and a tail that stops an hour late (or a minute early) is worse than one line asking for a
//! unit.

use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("{flag} '{text}' is not a duration; write it with a unit, e.g. 30s, 10m, 2h or 1h30m")]
    Syntax { flag: String, text: String },
    #[error("{flag} '{text}' must be longer than zero")]
    Zero { flag: String, text: String },
    #[error("{flag} '{text}' is longer than {max_text}; {hint}")]
    TooLong {
        flag: String,
        text: String,
        max_text: String,
        hint: String,
    },
}

fn unit_millis(unit: &str) -> Option<u64> {
    Some(match unit {
        "ms" => 1,
        "s" => 1_000,
        "m" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        _ => return None,
    })
}

/// Parses `text` (for `flag`, named in the error) into a positive duration.
pub fn parse_duration(flag: &str, text: &str) -> Result<Duration, DurationError> {
    let syntax = || DurationError::Syntax {
        flag: flag.to_string(),
        text: text.to_string(),
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(syntax());
    }
    let mut rest = trimmed;
    let mut millis: u64 = 0;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(syntax());
        }
        let (number, after) = rest.split_at(digits);
        let unit_len = after
            .bytes()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let (unit, after) = after.split_at(unit_len);
        let per = unit_millis(unit).ok_or_else(syntax)?;
        let n: u64 = number.parse().map_err(|_| syntax())?;
        millis = n
            .checked_mul(per)
            .and_then(|m| millis.checked_add(m))
            .ok_or_else(syntax)?;
        rest = after;
    }
    if millis == 0 {
        return Err(DurationError::Zero {
            flag: flag.to_string(),
            text: text.to_string(),
        });
    }
    Ok(Duration::from_millis(millis))
}

/// Like [`parse_duration`], refusing anything longer than `max` with `hint` saying what to do.
pub fn parse_duration_at_most(
    flag: &str,
    text: &str,
    max: Duration,
    hint: &str,
) -> Result<Duration, DurationError> {
    let d = parse_duration(flag, text)?;
    if d > max {
        return Err(DurationError::TooLong {
            flag: flag.to_string(),
            text: text.to_string(),
            max_text: format_duration(max),
            hint: hint.to_string(),
        });
    }
    Ok(d)
}

/// The shortest spelling [`parse_duration`] reads back: `90s` → `1m30s`, `1500ms` → `1s500ms`.
pub fn format_duration(d: Duration) -> String {
    let mut millis = d.as_millis();
    if millis == 0 {
        return "0s".into();
    }
    let mut out = String::new();
    for (unit, per) in [("h", 3_600_000u128), ("m", 60_000), ("s", 1_000), ("ms", 1)] {
        if millis >= per {
            out.push_str(&format!("{}{unit}", millis / per));
            millis %= per;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units_and_combinations() {
        let cases = [
            ("500ms", 500),
            ("30s", 30_000),
            ("10m", 600_000),
            ("2h", 7_200_000),
            ("1h30m", 5_400_000),
            ("1d", 86_400_000),
            (" 45s ", 45_000),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration("--for", text),
                Ok(Duration::from_millis(millis)),
                "{text}"
            );
        }
    }

    #[test]
    fn bad_durations_name_the_flag_and_the_value() {
        for bad in [
            "",
            "60",
            "10 m",
            "m",
            "1.5h",
            "-1s",
            "10y",
            "s10",
            "99999999999999999999h",
        ] {
            let err = parse_duration("--since", bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--since '{bad}'")), "{err}");
            assert!(err.contains("30s"), "{err}");
        }
        let zero = parse_duration("--for", "0s").unwrap_err().to_string();
        assert_eq!(zero, "--for '0s' must be longer than zero");
    }

    #[test]
    fn at_most_refuses_longer_with_the_hint() {
        let day = Duration::from_secs(86_400);
        assert_eq!(parse_duration_at_most("--since", "24h", day, "x"), Ok(day));
        let err = parse_duration_at_most("--since", "25h", day, "use --trim-horizon")
            .unwrap_err()
            .to_string();
        assert_eq!(err, "--since '25h' is longer than 24h; use --trim-horizon");
    }

    #[test]
    fn format_round_trips() {
        for millis in [1, 999, 1_000, 61_000, 5_400_000, 86_400_000, 90_061_001] {
            let d = Duration::from_millis(millis);
            assert_eq!(parse_duration("x", &format_duration(d)), Ok(d), "{millis}");
        }
    }
}
