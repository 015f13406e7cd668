//! The help screen's text, laid out for the terminal's width: every binding from the keymap
//! with its description wrapped beside its keys, then what no single key does. Computed here,
//! not in the draw function, because `update` needs the number of lines to stop scrolling.

use super::keymap::Keymap;
use crate::model::text::sanitize::display_width;
use crate::model::text::wrap::word_wrap;

/// One row of the help: keys (only on a binding's first row) and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLine {
    pub keys: String,
    pub text: String,
    /// A note below the bindings rather than a binding.
    pub note: bool,
}

/// What no single binding says: chords, the picker, keys that work everywhere.
pub const NOTES: [&str; 7] = [
    "g r: open the selected related collection of the item under the cursor (listed above the item detail, Enter opens one there too); Backspace or Alt-← comes back.",
    "Table picker: type to filter, Enter opens, Esc quits. Mouse wheel scrolls.",
    "Query builder: Enter runs exactly what EXPLAIN shows; Tab (or → at the end of the field) accepts a completion; Ctrl-U clears the field. Here and in the pattern palette, Ctrl-O lists key completions by count instead of in key order.",
    "Live pane (W): 1/5/t window, Tab ranking, f follow, p/space pause, Enter change, Esc close.",
    "Metrics pane (M): ↑/↓, PgUp/PgDn, g/G scroll, Esc or M closes; refreshed every minute.",
    "Ctrl-C quits and Ctrl-Z suspends (fg resumes), from anywhere.",
    "↑/↓, PgUp/PgDn, g/G scroll this help; any other key closes it.",
];

/// Widest key column shown; longer key lists wrap too.
const MAX_KEYS_WIDTH: usize = 24;

/// The help's rows at `width` columns (inside the popup's border).
pub fn help_lines(keymap: &Keymap, width: usize) -> Vec<HelpLine> {
    let rows = keymap.help_rows();
    let keys_width = rows
        .iter()
        .map(|r| display_width(&r.keys))
        .max()
        .unwrap_or(0)
        .min(MAX_KEYS_WIDTH);
    // Two spaces between the keys and the text.
    let text_width = width.saturating_sub(keys_width + 2).max(10);
    let mut out = Vec::new();
    for row in &rows {
        let keys = word_wrap(&row.keys, keys_width.max(1));
        let text = word_wrap(&row.help, text_width);
        for i in 0..keys.len().max(text.len()) {
            out.push(HelpLine {
                keys: keys.get(i).cloned().unwrap_or_default(),
                text: text.get(i).cloned().unwrap_or_default(),
                note: false,
            });
        }
    }
    out.push(HelpLine {
        keys: String::new(),
        text: String::new(),
        note: true,
    });
    for note in NOTES {
        for text in word_wrap(note, width.max(10)) {
            out.push(HelpLine {
                keys: String::new(),
                text,
                note: true,
            });
        }
    }
    out
}

/// Width of the key column for `keymap`: the draw function aligns on it.
pub fn keys_width(keymap: &Keymap) -> usize {
    keymap
        .help_rows()
        .iter()
        .map(|r| display_width(&r.keys))
        .max()
        .unwrap_or(0)
        .min(MAX_KEYS_WIDTH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_use_the_width_and_wrap() {
        let keymap = Keymap::default();
        let wide = help_lines(&keymap, 156);
        let scan = wide
            .iter()
            .find(|l| l.text.starts_with("Launch a parallel scan"))
            .unwrap();
        assert!(
            scan.text.ends_with("rate limit"),
            "one line at 160 columns: {scan:?}"
        );
        let narrow = help_lines(&keymap, 50);
        let at = narrow
            .iter()
            .position(|l| l.text.starts_with("Launch a parallel scan"))
            .unwrap();
        assert_eq!(narrow[at].keys, "S");
        assert!(narrow[at + 1].keys.is_empty() && !narrow[at + 1].text.is_empty());
        assert!(narrow.len() > wide.len());
        let text_width = 50 - keys_width(&keymap) - 2;
        assert!(narrow
            .iter()
            .filter(|l| !l.note)
            .all(|l| display_width(&l.text) <= text_width));
        assert!(narrow.iter().any(|l| l.note && l.text.starts_with("g r:")));
    }
}
