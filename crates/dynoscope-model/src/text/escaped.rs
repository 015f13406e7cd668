//! The one table of characters that never reach a person raw: what the terminal escaper
//! (`sanitize`) shows as `\u{…}` and the JSON writers (`formats::json`) write as `\uXXXX`.
//!
//! - C0 controls, DEL and C1 controls: ESC starts every terminal escape sequence (clear the
//!   screen, retitle the window, write the clipboard with OSC 52), BEL ends an OSC, U+009B is a
//!   one-byte CSI on some terminals.
//! - Every format character (General Category Cf) and every default-ignorable code point
//!   (Unicode's Default_Ignorable_Code_Point, unassigned ones included, so a character a later
//!   Unicode assigns there is covered too): bidi marks, embeddings, overrides and isolates that
//!   reorder what is read; zero-width spaces and joiners, tag characters (U+E0000 block),
//!   variation selectors, Hangul fillers and the like that make `USER#1` and `USER#1` + an
//!   invisible "ADMIN" look the same.
//! - The line and paragraph separators U+2028/U+2029, which would break a one-line cell.
//!
//! Derived from Unicode 16.0 (DerivedCoreProperties.txt and the Cf of UnicodeData.txt);
//! `escaped_tests.rs` checks it against regex-syntax's tables of both properties over every
//! code point, so a gap or an extra range is a failing test, not a review finding.

use std::cmp::Ordering;

/// Inclusive ranges of code points, sorted and apart (neither overlapping nor adjacent).
pub const ESCAPED: &[(u32, u32)] = &[
    // C0 controls.
    (0x0000, 0x001f),
    // DEL and the C1 controls.
    (0x007f, 0x009f),
    // Soft hyphen (Cf).
    (0x00ad, 0x00ad),
    // Combining grapheme joiner (default-ignorable).
    (0x034f, 0x034f),
    // Arabic number signs (Cf).
    (0x0600, 0x0605),
    // Arabic letter mark (Cf, bidi).
    (0x061c, 0x061c),
    // Arabic end of ayah (Cf).
    (0x06dd, 0x06dd),
    // Syriac abbreviation mark (Cf).
    (0x070f, 0x070f),
    // Arabic pound and piastre marks above (Cf).
    (0x0890, 0x0891),
    // Arabic disputed end of ayah (Cf).
    (0x08e2, 0x08e2),
    // Hangul choseong and jungseong fillers (default-ignorable).
    (0x115f, 0x1160),
    // Khmer inherent vowels (default-ignorable).
    (0x17b4, 0x17b5),
    // Mongolian free variation selectors and vowel separator (default-ignorable, U+180E Cf).
    (0x180b, 0x180f),
    // Zero-width space, non-joiner and joiner; left-to-right and right-to-left marks.
    (0x200b, 0x200f),
    // Line and paragraph separators; bidi embeddings and overrides.
    (0x2028, 0x202e),
    // Word joiner, invisible operators, bidi isolates, deprecated format controls.
    (0x2060, 0x206f),
    // Hangul filler (default-ignorable).
    (0x3164, 0x3164),
    // Variation selectors 1-16 (default-ignorable).
    (0xfe00, 0xfe0f),
    // Zero-width no-break space, the byte order mark (Cf).
    (0xfeff, 0xfeff),
    // Halfwidth Hangul filler (default-ignorable).
    (0xffa0, 0xffa0),
    // Unassigned default-ignorables and the interlinear annotation controls (Cf).
    (0xfff0, 0xfffb),
    // Kaithi number signs (Cf).
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    // Egyptian hieroglyph format controls (Cf).
    (0x13430, 0x1343f),
    // Shorthand format controls (Cf).
    (0x1bca0, 0x1bca3),
    // Musical symbol beams and phrases (Cf).
    (0x1d173, 0x1d17a),
    // Tag characters, variation selectors 17-256 and the rest of the plane-14 block.
    (0xe0000, 0xe0fff),
];

/// Whether `c` is written as an escape, by the terminal escaper and the JSON writers alike.
pub fn needs_escape(c: char) -> bool {
    let cp = u32::from(c);
    // Printable ASCII, the common case, without a search.
    if (0x20..0x7f).contains(&cp) {
        return false;
    }
    ESCAPED
        .binary_search_by(|&(lo, hi)| match (hi < cp, lo > cp) {
            (true, _) => Ordering::Less,
            (_, true) => Ordering::Greater,
            _ => Ordering::Equal,
        })
        .is_ok()
}

#[cfg(test)]
#[path = "escaped_tests.rs"]
mod tests;
