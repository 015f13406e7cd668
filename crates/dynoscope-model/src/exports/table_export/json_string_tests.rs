use proptest::prelude::*;

use super::*;

/// Text that is mostly plain with the bytes and escapes that matter mixed in.
fn quoted_body() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => "[a-zA-Z0-9 #:]{0,12}",
        // Any character but the ones that end or escape the string.
        1 => "[^\"\\\\]{0,3}",
        1 => prop_oneof![
            Just("\\\""), Just("\\\\"), Just("\\/"), Just("\\n"), Just("\\t"), Just("\\b"),
            Just("\\u00e9"), Just("\\u20AC"), Just("\\ud83e\\udd80"), Just("\\ud800"),
            Just("\\udc00"), Just("\\u12"), Just("\\x"), Just("\u{1}"), Just("\u{1f}"),
            Just("é"), Just("🦀"), Just("\u{7f}"),
        ]
        .prop_map(str::to_string),
    ];
    proptest::collection::vec(piece, 0..8).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(1000)))]

    /// The scan says what serde_json says: the string's UTF-8 length, or that it is no string.
    #[test]
    fn scan_string_sizes_what_serde_json_reads(body in quoted_body()) {
        let text = format!("\"{body}\"");
        let ours = scan_string(text.as_bytes(), 0).map(|(s, next)| {
            assert_eq!(next, text.len(), "{text}");
            assert_eq!(s.escaped, body.contains('\\'), "{text}");
            s.len
        });
        let theirs = serde_json::from_str::<String>(&text).ok().map(|s| s.len());
        prop_assert_eq!(ours, theirs, "{}", text);
    }

    /// The word-at-a-time skip stops where the byte-at-a-time one does.
    #[test]
    fn skip_plain_stops_at_the_first_stop_byte(bytes in proptest::collection::vec(any::<u8>(), 0..40), from in 0usize..40) {
        let from = from.min(bytes.len());
        let want = bytes[from..].iter().position(|&c| STRING_STOP[c as usize]).map_or(bytes.len(), |p| from + p);
        prop_assert_eq!(skip_plain(&bytes, from), want);
    }
}
