//! A stable colour per entity kind.

/// FNV-1a rather than std's hasher, whose output is allowed to change between releases and
/// would reshuffle every kind's colour.
pub fn kind_color_index(kind: &str, palette_len: usize) -> usize {
    if palette_len == 0 {
        return 0;
    }
    (fnv1a_64(kind.as_bytes()) % palette_len as u64) as usize
}

fn fnv1a_64(bytes: &[u8]) -> u64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET_BASIS, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(PRIME)
    })
}

#[cfg(test)]
#[path = "color_tests.rs"]
mod tests;
