//! The instants `export-start --from/--to` take: RFC 3339 (what aws-cli and DynamoDB print)
//! or epoch seconds (what `date +%s` prints), to milliseconds since the epoch.

use crate::input::calendar::days_from_civil;

/// Why a time was refused, in words that follow the quoted text.
pub type TimeError = &'static str;

/// `2026-01-01T12:00:00Z`, `2026-01-01T12:00:00.5+02:00`, `1767268800` or `1767268800.25`
/// to milliseconds since 1970-01-01 UTC (finer digits are dropped: AWS keeps seconds).
pub fn parse_instant(text: &str) -> Result<i64, TimeError> {
    let text = text.trim();
    if text.is_empty() {
        return Err("it is empty");
    }
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return epoch_seconds(text);
    }
    rfc3339(text)
}

fn epoch_seconds(text: &str) -> Result<i64, TimeError> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() || fraction.contains('.') {
        return Err("it is not a number of seconds");
    }
    let secs: i64 = whole
        .parse()
        .ok()
        .filter(|s| *s <= MAX_SECS)
        .ok_or("it is past the year 9999")?;
    Ok(secs * 1000 + millis(fraction)?)
}

/// 9999-12-31T23:59:59Z: RFC 3339 has four-digit years, and so does every time AWS prints.
const MAX_SECS: i64 = 253_402_300_799;

/// The first three digits of a fraction of a second, as milliseconds.
fn millis(fraction: &str) -> Result<i64, TimeError> {
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err("its fraction of a second is not digits");
    }
    let three: String = fraction.chars().chain("000".chars()).take(3).collect();
    Ok(three.parse().unwrap_or(0))
}

fn number(text: &str, digits: usize) -> Option<i64> {
    (text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

fn rfc3339(text: &str) -> Result<i64, TimeError> {
    const SHAPE: TimeError = "it is neither RFC 3339 nor epoch seconds";
    let (date, rest) = text
        .split_at_checked(10)
        .filter(|(_, rest)| rest.starts_with(['T', 't', ' ']))
        .ok_or(SHAPE)?;
    let rest = &rest[1..];
    let parts: Vec<&str> = date.split('-').collect();
    let [y, mo, d] = parts[..] else {
        return Err(SHAPE);
    };
    let (year, month, day) = match (number(y, 4), number(mo, 2), number(d, 2)) {
        (Some(y), Some(m), Some(d)) => (y, m as u32, d as u32),
        _ => return Err(SHAPE),
    };
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err("that day is not in the calendar");
    }
    let (clock, offset_secs) = split_offset(rest)?;
    let (hms, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let hms: Vec<&str> = hms.split(':').collect();
    let [h, mi, s] = hms[..] else {
        return Err(SHAPE);
    };
    let (hour, minute, second) = match (number(h, 2), number(mi, 2), number(s, 2)) {
        (Some(h), Some(m), Some(s)) if h < 24 && m < 60 && s < 61 => (h, m, s.min(59)),
        (Some(_), Some(_), Some(_)) => return Err("its time of day is out of range"),
        _ => return Err(SHAPE),
    };
    if fraction.is_empty() && clock.contains('.') {
        return Err("its fraction of a second is empty");
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_secs;
    Ok(secs * 1000 + millis(fraction)?)
}

/// `12:00:00Z` → (`12:00:00`, 0); `12:00:00+02:00` → (`12:00:00`, 7200).
fn split_offset(rest: &str) -> Result<(&str, i64), TimeError> {
    if let Some(clock) = rest.strip_suffix(['Z', 'z']) {
        return Ok((clock, 0));
    }
    let at = rest
        .rfind(['+', '-'])
        .ok_or("it has no time zone; end it with Z (UTC) or an offset such as +02:00")?;
    let (clock, offset) = rest.split_at(at);
    let sign = if offset.starts_with('-') { -1 } else { 1 };
    let (h, m) = offset[1..]
        .split_once(':')
        .ok_or("its offset is not ±HH:MM")?;
    match (number(h, 2), number(m, 2)) {
        (Some(h), Some(m)) if h < 24 && m < 60 => Ok((clock, sign * (h * 3600 + m * 60))),
        _ => Err("its offset is not ±HH:MM"),
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
