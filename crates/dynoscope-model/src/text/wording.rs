//! Counts for people: digit groups, a noun that agrees with its count (`1 item`, `2 items`),
//! shares as percentages, sizes and dollars. Every layer formats counts through these, so no screen says
//! `1 items`.

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `part` of `whole` as a fraction, 0 for an empty whole: what [`percent`] shows.
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// A fraction as a percentage with one decimal: `0.1234` → `12.3%`.
pub fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// `noun` for `n` of it: the singular for exactly one, else its plural (`noun` + `s`).
pub fn noun(n: u64, singular: &str) -> String {
    if n == 1 {
        singular.to_string()
    } else {
        format!("{singular}s")
    }
}

/// `noun` for `n` of it with its verb: `change was`, `changes were`.
pub fn were(n: u64, singular: &str) -> String {
    if n == 1 {
        format!("{singular} was")
    } else {
        format!("{singular}s were")
    }
}

/// `1 item`, `0 items`, `1,234 items`.
pub fn count(n: u64, singular: &str) -> String {
    format!("{} {}", thousands(n), noun(n, singular))
}

/// [`count`] for a noun whose plural is not `+s` (`1 entry`, `2 entries`).
pub fn count_as(n: u64, singular: &str, plural: &str) -> String {
    format!(
        "{} {}",
        thousands(n),
        if n == 1 { singular } else { plural }
    )
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1, "item"), "1 item");
        assert_eq!(count(0, "item"), "0 items");
        assert_eq!(count(2, "segment"), "2 segments");
        assert_eq!(count(1234, "page"), "1,234 pages");
        assert_eq!(count_as(1, "entry", "entries"), "1 entry");
        assert_eq!(count_as(3, "entry", "entries"), "3 entries");
        assert_eq!(noun(1, "shard"), "shard");
        assert_eq!(were(1, "change"), "change was");
        assert_eq!(were(0, "change"), "changes were");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn shares_are_fractions_of_a_whole_and_percent_shows_one_decimal() {
        assert_eq!(share(1, 4), 0.25);
        assert_eq!(share(3, 0), 0.0);
        assert_eq!(share(0, 0), 0.0);
        assert_eq!(percent(share(1, 4)), "25.0%");
        assert_eq!(percent(share(1, 3)), "33.3%");
        assert_eq!(percent(0.0), "0.0%");
        assert_eq!(percent(1.0), "100.0%");
    }
}
