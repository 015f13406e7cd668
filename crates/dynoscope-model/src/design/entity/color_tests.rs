use super::*;

#[test]
fn fnv1a_matches_reference_vectors() {
    let cases: &[(&str, u64)] = &[
        ("", 0xcbf2_9ce4_8422_2325),
        ("a", 0xaf63_dc4c_8601_ec8c),
        ("foobar", 0x8594_4171_f739_67e8),
    ];
    for (input, want) in cases {
        assert_eq!(fnv1a_64(input.as_bytes()), *want, "{input:?}");
    }
}

#[test]
fn colour_index_is_stable_and_in_range() {
    let cases: &[(&str, usize, usize)] = &[
        ("", 8, (0xcbf2_9ce4_8422_2325u64 % 8) as usize),
        ("a", 7, (0xaf63_dc4c_8601_ec8cu64 % 7) as usize),
        ("USER", 0, 0),
        ("USER", 1, 0),
    ];
    for (kind, len, want) in cases {
        assert_eq!(kind_color_index(kind, *len), *want, "{kind:?} mod {len}");
    }
    for kind in ["USER", "ORDER", "ITEM", "META"] {
        assert!(kind_color_index(kind, 6) < 6);
        assert_eq!(kind_color_index(kind, 6), kind_color_index(kind, 6));
    }
}
