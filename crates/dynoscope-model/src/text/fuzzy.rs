//! Matching what is typed against a line of text, as command palettes do: every typed word must
//! occur in the text as a subsequence of its characters (case ignored), and a match scores by
//! how readable it is: characters that start a word and run on from each other count most, a
//! whole word found as typed counts more than letters picked across the line. A small scorer
//! of our own rather than a matcher crate: the palette ranks tens of short lines.

/// Every matched character.
const MATCHED: i32 = 16;
/// A character that starts a word: `ld` prefers "Load the data" to "holding".
const WORD_START: i32 = 8;
/// A character right after the previous match, at least; a run that began at a word start
/// keeps that bonus, so a whole word typed as it is written beats letters picked across the
/// line.
const RUN: i32 = 4;
/// Skipping characters between two matched ones: this for the first skipped, and
/// [`GAP_EXTEND`] for each further one.
const GAP_OPEN: i32 = 3;
const GAP_EXTEND: i32 = 1;

/// The score of `query` against `text`: `None` when a word of `query` does not occur in `text`
/// (as a subsequence, not strewn across it); otherwise the sum of each word's best score. An empty query matches
/// everything with 0.
pub fn score(query: &str, text: &str) -> Option<u32> {
    let text: Vec<char> = text.chars().flat_map(char::to_lowercase).collect();
    query.split_whitespace().try_fold(0u32, |total, word| {
        let word: Vec<char> = word.chars().flat_map(char::to_lowercase).collect();
        word_score(&word, &text).map(|s| total + s)
    })
}

/// The best score of `word` as a subsequence of `text`: each place the word's first character
/// occurs is tried as a start, and from there each character is taken where it runs on from
/// the previous one, else at the next word start, else at its next occurrence.
fn word_score(word: &[char], text: &[char]) -> Option<u32> {
    let first = *word.first()?;
    (0..text.len())
        .filter(|&i| text[i] == first)
        .filter_map(|start| from_start(word, text, start))
        .max()
        // Letters strewn across the line are no match: on average a gap of a few characters
        // (or a word start) between two typed letters at most.
        .filter(|&s| s >= MATCHED * word.len() as i32 * 3 / 4)
        .map(|s| s.max(1) as u32)
}

fn from_start(word: &[char], text: &[char], start: usize) -> Option<i32> {
    let mut run_bonus = boundary(text, start);
    let mut score = MATCHED + run_bonus;
    let mut at = start;
    for &c in &word[1..] {
        if text.get(at + 1) == Some(&c) {
            at += 1;
            run_bonus = run_bonus.max(RUN).max(boundary(text, at));
            score += MATCHED + run_bonus;
            continue;
        }
        let mut rest = (at + 1..text.len()).filter(|&i| text[i] == c).peekable();
        let first = *rest.peek()?;
        let next = rest.find(|&i| starts_word(text, i)).unwrap_or(first);
        let skipped = (next - at - 1) as i32;
        run_bonus = boundary(text, next);
        score += MATCHED + run_bonus - GAP_OPEN - GAP_EXTEND * (skipped - 1);
        at = next;
    }
    Some(score)
}

fn boundary(text: &[char], at: usize) -> i32 {
    if starts_word(text, at) {
        WORD_START
    } else {
        0
    }
}

fn starts_word(text: &[char], at: usize) -> bool {
    at == 0 || !text[at - 1].is_alphanumeric()
}

#[cfg(test)]
mod tests {
    use super::score;

    #[test]
    fn every_word_must_occur_as_a_subsequence() {
        assert_eq!(score("", "anything"), Some(0));
        assert!(score("dlt", "Delete the item").is_some());
        assert!(score("delete item", "Delete the item").is_some());
        assert_eq!(score("delete zebra", "Delete the item"), None);
        assert_eq!(score("xyz", "Delete the item"), None);
        // Letters out of order do not match.
        assert_eq!(score("eted", "Delete"), None);
    }

    #[test]
    fn letters_strewn_across_the_line_are_no_match() {
        let line = "Switch region without restarting (the open table is opened again there)";
        assert_eq!(score("order", line), None);
        assert!(score("region", line).is_some());
        assert!(score("ky dist", "Key distribution").is_some());
    }

    #[test]
    fn case_is_ignored() {
        assert_eq!(score("LIVE", "live writes"), score("live", "Live Writes"));
    }

    #[test]
    fn a_whole_word_beats_letters_picked_across_the_line() {
        let whole = score("scan", "Scan again from the start").unwrap();
        let scattered = score("scan", "Show changes as numbers").unwrap();
        assert!(whole > scattered, "{whole} > {scattered}");
    }

    #[test]
    fn word_starts_beat_letters_inside_words() {
        // "ld" as the starts of "Load … Data" rather than inside "holding".
        let starts = score("ld", "Load the data").unwrap();
        let inside = score("ld", "holding").unwrap();
        assert!(starts > inside, "{starts} > {inside}");
    }

    #[test]
    fn the_best_start_is_found_not_the_first() {
        // The first 'e' is inside "Delete"; the best match of "export" starts at "Export".
        let best = score("export", "Delete, then export").unwrap();
        assert_eq!(best, score("export", "export").unwrap());
    }
}
