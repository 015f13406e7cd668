//! The size-and-key pass of `hotkeys --export`: a full export's `{"Item":{…}}` line walked
//! once, byte by byte, for the two things a key count needs — the key attribute's text and the
//! item's DynamoDB size — without building the [`Item`](crate::item::value::Item). Building
//! it (an allocation per name, string and list) was most of the cost of reading an export.
//!
//! The full reader stays the definition: this pass answers only for lines it reads exactly as
//! that one does, and says `None` for anything else — an escape in a name or number, a string
//! escape it does not size exactly, a repeated name, a NULL that is not `true`, a key of another
//! type than S, N or B, deep nesting, anything malformed — so the caller reads that line with
//! the full reader and [`super::key_sizes::tally_of_item`], which gives the result or the error
//! it always gave. A differential test holds the two to the same answers.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::json_string::scan_string;
use super::key_sizes::{SizePlan, Tally};
use crate::item::item_size::{number_size, DOCUMENT_OVERHEAD, ELEMENT_OVERHEAD};
use crate::item::number::number_fits;

/// Deeper documents are left to the full reader: DynamoDB nests 32 levels, and serde_json stops
/// at 128 levels of JSON, two per level of DynamoDB JSON.
const MAX_DEPTH: usize = 32;

/// Buffers kept from line to line, so the pass allocates nothing once they have grown.
#[derive(Debug, Default)]
pub struct SizeScratch {
    /// Names of the maps being read (start and end in the line), to find a repeated one.
    names: Vec<(usize, usize)>,
    /// A binary value, decoded to check it and to learn its length.
    binary: Vec<u8>,
}

/// The tally of a full export's line, its key text appended to `key_out`; `None` (with
/// `key_out` as it was) when the full reader must decide.
pub fn tally_full_line(
    line: &str,
    plan: &SizePlan,
    key_out: &mut String,
    scratch: &mut SizeScratch,
) -> Option<Tally> {
    if plan.required.len() > 64 {
        return None;
    }
    scratch.names.clear();
    let mut pass = Pass {
        line,
        b: line.as_bytes(),
        i: 0,
        scratch,
    };
    pass.ws();
    pass.byte(b'{')?;
    pass.ws();
    let (start, end) = pass.name()?;
    if &line[start..end] != "Item" {
        return None;
    }
    pass.ws();
    pass.byte(b':')?;
    pass.ws();
    let top = pass.top_item(plan)?;
    pass.ws();
    pass.byte(b'}')?;
    pass.ws();
    if pass.i != line.len() {
        return None;
    }
    if top.present.count_ones() as usize != plan.required.len() {
        return Some(Tally::Skipped);
    }
    match top.key {
        None => {
            key_out.push_str("(no ");
            key_out.push_str(&plan.key);
            key_out.push(')');
        }
        Some(Scalar::Text(start, end)) => key_out.push_str(&line[start..end]),
        Some(Scalar::Binary(start, end)) => {
            // The key shows the bytes re-encoded, as the full reader's key text does.
            pass.scratch.binary.clear();
            BASE64
                .decode_vec(&line[start..end], &mut pass.scratch.binary)
                .ok()?;
            BASE64.encode_string(&pass.scratch.binary, key_out);
        }
        Some(Scalar::Other) => return None,
    }
    Some(Tally::Counted { bytes: top.bytes })
}

/// A value the key may be: its text's place in the line.
#[derive(Clone, Copy)]
enum Scalar {
    /// S without escapes, or N: the key text is the line's text.
    Text(usize, usize),
    /// B: base64 text.
    Binary(usize, usize),
    /// Anything else (an escaped S, a set, a document): left to the full reader.
    Other,
}

struct Top {
    bytes: usize,
    /// Bit `i` set: `plan.required[i]` was seen.
    present: u64,
    key: Option<Scalar>,
}

struct Pass<'a> {
    line: &'a str,
    b: &'a [u8],
    i: usize,
    scratch: &'a mut SizeScratch,
}

impl Pass<'_> {
    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn byte(&mut self, want: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&want)).then(|| self.i += 1)
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// A string with no escapes (a name, a type, a number, base64): its text's place.
    fn name(&mut self) -> Option<(usize, usize)> {
        let (start, end, escaped) = self.string()?;
        (!escaped).then_some((start, end))
    }

    /// A string: where its text is, its UTF-8 length once unescaped, and whether it had
    /// escapes (see [`scan_string`]).
    fn string_sized(&mut self) -> Option<(usize, usize, usize, bool)> {
        let (found, next) = scan_string(self.b, self.i)?;
        self.i = next;
        Some((found.start, found.end, found.len, found.escaped))
    }

    fn string(&mut self) -> Option<(usize, usize, bool)> {
        let (start, end, _, escaped) = self.string_sized()?;
        Some((start, end, escaped))
    }

    /// `N`'s text: its size, once it is a number DynamoDB holds.
    fn number(&mut self) -> Option<(usize, usize, usize)> {
        let (start, end) = self.name()?;
        let text = &self.line[start..end];
        number_fits(text).then(|| (start, end, number_size(text)))
    }

    /// `B`'s text: its decoded length, once it is base64 the full reader decodes.
    fn binary(&mut self) -> Option<(usize, usize, usize)> {
        let (start, end) = self.name()?;
        self.scratch.binary.clear();
        BASE64
            .decode_vec(&self.line[start..end], &mut self.scratch.binary)
            .ok()?;
        Some((start, end, self.scratch.binary.len()))
    }

    /// `[a, b, …]`, each element read by `element`; the sum of what it returns.
    fn array(
        &mut self,
        mut element: impl FnMut(&mut Self) -> Option<usize>,
    ) -> Option<(usize, usize)> {
        self.byte(b'[')?;
        self.ws();
        let (mut sum, mut count) = (0, 0);
        if self.byte(b']').is_some() {
            return Some((sum, count));
        }
        loop {
            sum += element(self)?;
            count += 1;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b']' => {
                    self.i += 1;
                    return Some((sum, count));
                }
                _ => return None,
            }
        }
    }

    /// A set's elements' sizes summed; an empty set is the full reader's to refuse.
    fn set(&mut self, element: impl FnMut(&mut Self) -> Option<usize>) -> Option<usize> {
        let (sum, count) = self.array(element)?;
        (count > 0).then_some(sum)
    }

    /// `{"name": value, …}` at `depth`, each member handed to `member` with its name's place
    /// and the value's size and scalar. A repeated name is `None`.
    fn members(
        &mut self,
        depth: usize,
        mut member: impl FnMut(&mut Self, (usize, usize), usize, Scalar),
    ) -> Option<()> {
        self.byte(b'{')?;
        self.ws();
        let mark = self.scratch.names.len();
        if self.byte(b'}').is_none() {
            loop {
                let (start, end) = self.name()?;
                let name = &self.b[start..end];
                let repeated = self.scratch.names[mark..]
                    .iter()
                    .any(|&(s, e)| &self.b[s..e] == name);
                if repeated {
                    return None;
                }
                self.scratch.names.push((start, end));
                self.ws();
                self.byte(b':')?;
                self.ws();
                let (size, scalar) = self.value(depth)?;
                member(self, (start, end), size, scalar);
                self.ws();
                match self.peek()? {
                    b',' => {
                        self.i += 1;
                        self.ws();
                    }
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.scratch.names.truncate(mark);
        Some(())
    }

    fn top_item(&mut self, plan: &SizePlan) -> Option<Top> {
        let mut top = Top {
            bytes: 0,
            present: 0,
            key: None,
        };
        self.members(1, |pass, (start, end), size, scalar| {
            let name = &pass.line[start..end];
            if name == plan.key {
                top.key = Some(scalar);
            }
            for (bit, required) in plan.required.iter().enumerate() {
                if name == required {
                    top.present |= 1 << bit;
                }
            }
            if plan.keeps(name) {
                top.bytes += name.len() + size;
            }
        })?;
        if top.key.is_some() && !plan.keeps(&plan.key) {
            top.key = None;
        }
        Some(top)
    }

    /// One DynamoDB JSON value, `{"T": …}`: its size as `item_size` counts it, and what it is
    /// as a key.
    fn value(&mut self, depth: usize) -> Option<(usize, Scalar)> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.byte(b'{')?;
        self.ws();
        let (start, end) = self.name()?;
        self.ws();
        self.byte(b':')?;
        self.ws();
        let found = match &self.b[start..end] {
            b"S" => {
                let (start, end, len, escaped) = self.string_sized()?;
                let scalar = if escaped {
                    Scalar::Other
                } else {
                    Scalar::Text(start, end)
                };
                (len, scalar)
            }
            b"N" => {
                let (start, end, size) = self.number()?;
                (size, Scalar::Text(start, end))
            }
            b"B" => {
                let (start, end, size) = self.binary()?;
                (size, Scalar::Binary(start, end))
            }
            b"SS" => (self.set(|p| p.string_sized().map(|s| s.2))?, Scalar::Other),
            b"NS" => (self.set(|p| p.number().map(|n| n.2))?, Scalar::Other),
            b"BS" => (self.set(|p| p.binary().map(|b| b.2))?, Scalar::Other),
            b"M" => {
                let mut sum = 0;
                self.members(depth + 1, |_, (start, end), size, _| {
                    sum += (end - start) + size + ELEMENT_OVERHEAD;
                })?;
                (DOCUMENT_OVERHEAD + sum, Scalar::Other)
            }
            b"L" => {
                let (sum, count) = self.array(|p| p.value(depth + 1).map(|v| v.0))?;
                (
                    DOCUMENT_OVERHEAD + sum + count * ELEMENT_OVERHEAD,
                    Scalar::Other,
                )
            }
            // DynamoDB writes NULL as `true`; any other value is the full reader's to judge.
            b"NULL" => (self.literal(b"true")?, Scalar::Other),
            b"BOOL" => (
                self.literal(b"true").or_else(|| self.literal(b"false"))?,
                Scalar::Other,
            ),
            _ => return None,
        };
        self.ws();
        self.byte(b'}')?;
        Some(found)
    }

    /// `word` (true, false): a NULL's or BOOL's one byte.
    fn literal(&mut self, word: &[u8]) -> Option<usize> {
        self.b[self.i..].starts_with(word).then(|| {
            self.i += word.len();
            1
        })
    }
}

#[cfg(test)]
#[path = "dynamo_json_sizes_tests.rs"]
mod tests;
