//! Where a read stands, from the pages it delivered: what a read resumed after a cancel or a
//! failure continues from, so that together they deliver what one uninterrupted read would,
//! each item once.

use super::{Page, ReadSpec, SegmentStart};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadProgress {
    /// Where each segment continues.
    pub starts: Vec<SegmentStart>,
    /// Items delivered per segment, by this read and the reads it continues.
    pub delivered: Vec<usize>,
    /// A page arrived whose continuation is unknown (a cut page without key attributes): a
    /// resume could repeat items, so none is offered.
    pub lost_track: bool,
}

impl ReadProgress {
    /// Before the first page: every segment where `spec` starts it.
    pub fn new(spec: &ReadSpec) -> Self {
        let segments = spec.segment_count() as usize;
        let mut starts = spec.starts.clone();
        starts.resize(segments, SegmentStart::Beginning);
        let mut delivered = spec.delivered.clone();
        delivered.resize(segments, 0);
        ReadProgress {
            starts,
            delivered,
            lost_track: false,
        }
    }

    pub fn record(&mut self, page: &Page) {
        let segment = page.segment as usize;
        if segment >= self.starts.len() {
            return;
        }
        match &page.resume {
            Some(start) => self.starts[segment] = start.clone(),
            None => self.lost_track = true,
        }
        self.delivered[segment] += page.item_count();
    }

    /// Some segment has items left to read (the limit aside).
    pub fn has_more(&self) -> bool {
        !self.lost_track && self.starts.iter().any(|s| *s != SegmentStart::Finished)
    }

    /// `spec` continued from here with what is left of its limit; `None` when nothing is left
    /// to read, or the limit is used up.
    pub fn resume(&self, spec: &ReadSpec) -> Option<ReadSpec> {
        self.continued(spec, self.delivered.clone())
    }

    /// `spec` continued from here with its whole limit again: the explorer's `n` after the
    /// limit loads the next `limit` items.
    pub fn past_limit(&self, spec: &ReadSpec) -> Option<ReadSpec> {
        self.continued(spec, Vec::new())
    }

    fn continued(&self, spec: &ReadSpec, delivered: Vec<usize>) -> Option<ReadSpec> {
        if !self.has_more() {
            return None;
        }
        let mut next = spec.clone();
        next.starts = self.starts.clone();
        next.delivered = delivered;
        let left = next.limit_left();
        let open = |i: usize| {
            next.starts[i] != SegmentStart::Finished
                && match (spec.limit, spec.limit_per_segment) {
                    (None, _) => true,
                    (Some(_), false) => left[0] > 0,
                    (Some(_), true) => left[i] > 0,
                }
        };
        (0..next.starts.len()).any(open).then_some(next)
    }
}
