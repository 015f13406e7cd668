//! The last changes, for the live view's tail list: at most so many, and at most so many bytes
//! (a change can carry two 400 KB images), oldest dropped first.

use std::collections::VecDeque;

use super::change::Change;

#[derive(Debug, Clone)]
pub struct TailBuffer {
    /// Each change with its footprint, measured once.
    changes: VecDeque<(Change, usize)>,
    bytes: usize,
    max_changes: usize,
    max_bytes: usize,
    /// Changes dropped to stay within the bounds.
    dropped: u64,
}

impl TailBuffer {
    pub fn new(max_changes: usize, max_bytes: usize) -> Self {
        TailBuffer {
            changes: VecDeque::with_capacity(max_changes.min(4096)),
            bytes: 0,
            max_changes: max_changes.max(1),
            max_bytes,
            dropped: 0,
        }
    }

    /// Keeps `change`, dropping the oldest ones past either bound. The newest change is always
    /// kept, even when it alone is over the byte bound.
    pub fn push(&mut self, change: Change) {
        let footprint = change.footprint();
        self.bytes += footprint;
        self.changes.push_back((change, footprint));
        while self.changes.len() > self.max_changes
            || (self.bytes > self.max_bytes && self.changes.len() > 1)
        {
            let (_, old) = self.changes.pop_front().expect("more than one");
            self.bytes -= old;
            self.dropped += 1;
        }
    }

    /// Oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Change> + ExactSizeIterator {
        self.changes.iter().map(|(c, _)| c)
    }

    pub fn get(&self, index: usize) -> Option<&Change> {
        self.changes.get(index).map(|(c, _)| c)
    }

    pub fn len(&self) -> usize {
        self.changes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::super::change::fixtures::change;
    use super::super::change::ChangeEvent;
    use super::*;

    fn numbered(n: usize, payload: usize) -> Change {
        let v = "x".repeat(payload);
        let mut c = change(
            ChangeEvent::Insert,
            &format!("K{n}"),
            None,
            Some(&[("v", &v)]),
        );
        c.sequence_number = n.to_string();
        c
    }

    #[test]
    fn keeps_the_newest_within_both_bounds() {
        let mut t = TailBuffer::new(3, usize::MAX);
        for n in 0..10 {
            t.push(numbered(n, 1));
        }
        let kept: Vec<&str> = t.iter().map(|c| c.sequence_number.as_str()).collect();
        assert_eq!(kept, ["7", "8", "9"]);
        assert_eq!(t.dropped(), 7);

        let one = numbered(0, 10_000).footprint();
        let mut t = TailBuffer::new(100, one * 2 + one / 2);
        for n in 0..10 {
            t.push(numbered(n, 10_000));
            assert!(t.bytes() <= one * 2 + one / 2);
        }
        assert_eq!(t.len(), 2);
        assert_eq!(t.get(1).unwrap().sequence_number, "9");
        let sum: usize = t.iter().map(Change::footprint).sum();
        assert_eq!(t.bytes(), sum);
    }

    #[test]
    fn an_oversized_change_is_still_shown() {
        let mut t = TailBuffer::new(10, 100);
        t.push(numbered(1, 5_000));
        assert_eq!(t.len(), 1);
        t.push(numbered(2, 5_000));
        assert_eq!(t.len(), 1);
        assert_eq!(t.get(0).unwrap().sequence_number, "2");
    }
}
