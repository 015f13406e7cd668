//! What a key count needs of each item, and nothing else: its partition-key text and its
//! DynamoDB size. A reader that can find both without building the item (an export's
//! size-and-key pass) delivers them in a [`SizedKeys`] batch: one string for all the keys of a
//! page, so a page costs a few allocations, not one per item.

use std::borrow::Cow;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;

use super::KeyDistribution;
use crate::item::value::{AttrValue, Item};

/// The partition key as a distribution counts it: S as is, N as its exact text, B as base64.
pub fn key_text<'a>(item: &'a Item, name: &str) -> Cow<'a, str> {
    match item.get(name) {
        Some(AttrValue::S(s)) | Some(AttrValue::N(s)) => Cow::Borrowed(s),
        Some(AttrValue::B(b)) => Cow::Owned(BASE64.encode(b)),
        // Key attributes are always S, N or B; anything else is shown by type, not guessed at.
        Some(other) => Cow::Owned(format!("({} {name})", other.type_name())),
        None => Cow::Owned(format!("(no {name})")),
    }
}

/// The partition key text of `item` under the partition attributes `names`: one attribute's
/// text, or (a multi-attribute key) each attribute's in key-schema order joined by ` · `, so
/// a partition is counted by its whole key, not by its first attribute.
pub fn partition_text<'a>(item: &'a Item, names: &[String]) -> Cow<'a, str> {
    match names {
        [one] => key_text(item, one),
        several => Cow::Owned(
            several
                .iter()
                .map(|name| key_text(item, name))
                .collect::<Vec<_>>()
                .join(" · "),
        ),
    }
}

/// Items as (key text, DynamoDB size) pairs, in the order they were read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SizedKeys {
    /// Every key's text, one after another.
    text: String,
    /// Per item: where its key ends in `text`, and its size.
    items: Vec<(usize, usize)>,
}

impl SizedKeys {
    pub fn with_capacity(items: usize) -> Self {
        SizedKeys {
            text: String::with_capacity(items * 24),
            items: Vec::with_capacity(items),
        }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Where the next key is written: the caller appends its text, then calls [`Self::push`].
    pub fn key_buffer(&mut self) -> &mut String {
        &mut self.text
    }

    /// Ends the item whose key was appended to [`Self::key_buffer`].
    pub fn push(&mut self, bytes: usize) {
        self.items.push((self.text.len(), bytes));
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        let mut start = 0;
        self.items.iter().map(move |&(end, bytes)| {
            let key = &self.text[start..end];
            start = end;
            (key, bytes)
        })
    }
}

impl KeyDistribution {
    /// Counts every item of `batch`, in order.
    pub fn add_sized(&mut self, batch: &SizedKeys) {
        for (key, bytes) in batch.iter() {
            self.add(key, bytes);
        }
    }
}

#[cfg(test)]
#[path = "sized_keys_tests.rs"]
mod tests;
