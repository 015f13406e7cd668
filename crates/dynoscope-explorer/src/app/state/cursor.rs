//! A cursor in a scrolling list.

/// A cursor in a scrolling list, with the first visible row. The offset is kept in state
/// (adjusted by `update` with the pane height) so drawing never has to mutate anything.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ListCursor {
    pub cursor: usize,
    pub offset: usize,
}

impl ListCursor {
    /// Moves by `delta` rows within `len`, keeping the cursor inside a window of `height` rows.
    pub fn move_by(&mut self, delta: isize, len: usize, height: usize) {
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        let target = (self.cursor as isize).saturating_add(delta);
        self.cursor = target.clamp(0, len as isize - 1) as usize;
        self.keep_visible(len, height);
    }

    pub fn jump(&mut self, index: usize, len: usize, height: usize) {
        self.cursor = 0;
        self.offset = 0;
        self.move_by(index as isize, len, height);
    }

    pub fn keep_visible(&mut self, len: usize, height: usize) {
        let height = height.max(1);
        if len == 0 {
            *self = ListCursor::default();
            return;
        }
        self.cursor = self.cursor.min(len - 1);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + height {
            self.offset = self.cursor + 1 - height;
        }
        self.offset = self.offset.min(len.saturating_sub(height));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_stays_in_window_and_range() {
        let mut c = ListCursor::default();
        c.move_by(5, 10, 3);
        assert_eq!((c.cursor, c.offset), (5, 3));
        c.move_by(100, 10, 3);
        assert_eq!((c.cursor, c.offset), (9, 7));
        c.move_by(-8, 10, 3);
        assert_eq!((c.cursor, c.offset), (1, 1));
        c.move_by(-5, 10, 3);
        assert_eq!((c.cursor, c.offset), (0, 0));
        c.move_by(1, 0, 3);
        assert_eq!(c, ListCursor::default());
        let mut shrink = ListCursor {
            cursor: 8,
            offset: 6,
        };
        shrink.keep_visible(4, 3);
        assert_eq!((shrink.cursor, shrink.offset), (3, 1));
    }
}
