use super::fixtures::{keys, names, values};
use super::{check_expression, parse_key_condition};
use crate::design::schema::KeyType;

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Random token soup, and valid expressions with a few tokens swapped, must produce a
/// result or an error, never a panic.
#[test]
fn never_panics_on_generated_input() {
    const ALPHABET: &[&str] = &[
        "PK",
        "SK",
        "#pk",
        "#sk",
        "#n",
        "#nope",
        ":pk",
        ":s",
        ":s2",
        ":n",
        ":n9",
        ":b",
        ":map",
        ":empty",
        ":nope",
        "=",
        "<",
        "<=",
        ">",
        ">=",
        "<>",
        "!=",
        "(",
        ")",
        "[",
        "]",
        "[0]",
        ",",
        ".",
        "AND",
        "and",
        "OR",
        "NOT",
        "BETWEEN",
        "IN",
        "begins_with",
        "contains",
        "size",
        "status",
        "foo",
        "a.b",
        "5",
        "1.5",
        "1x",
        "'q'",
        "\"",
        "#",
        ":",
        "é",
        "-",
        "_",
        "",
    ];
    const VALID: &[&str] = &[
        "PK = :pk AND SK BETWEEN :n9 AND :n",
        "( #pk = :pk ) AND ( begins_with ( #sk , :s ) )",
        ":n < SK AND PK = :pk",
        "a . b [ 0 ] = :s OR NOT contains ( #n , :s2 )",
    ];
    let schemas = [
        keys(KeyType::S, Some(KeyType::S)),
        keys(KeyType::S, Some(KeyType::N)),
        keys(KeyType::B, Some(KeyType::B)),
        keys(KeyType::N, None),
    ];
    let (names, values) = (names(), values());
    let mut state = 0x5EED_u64;
    let mut pick = |n: usize| splitmix64(&mut state) as usize % n;
    for round in 0..6000 {
        let mut words: Vec<&str> = if round % 2 == 0 {
            (0..pick(14))
                .map(|_| ALPHABET[pick(ALPHABET.len())])
                .collect()
        } else {
            VALID[pick(VALID.len())].split(' ').collect()
        };
        for _ in 0..pick(3) {
            if !words.is_empty() {
                let at = pick(words.len());
                words[at] = ALPHABET[pick(ALPHABET.len())];
            }
        }
        let separator = if pick(2) == 0 { " " } else { "" };
        let expr = words.join(separator);
        let schema = &schemas[round % schemas.len()];
        let _ = parse_key_condition(&expr, &names, &values, schema);
        let _ = check_expression("filter", &expr, &names, &values);
    }
}
