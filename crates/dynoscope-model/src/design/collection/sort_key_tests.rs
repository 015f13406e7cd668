use super::*;
use crate::design::collection::dynamo_cmp;
use crate::design::collection::fixtures::*;

#[test]
fn encoded_sort_keys_order_like_dynamo_cmp() {
    let pool = value_pool();
    let encode = |v: &AttrValue| {
        let mut out = Vec::new();
        encode_sort_key(v, &mut out);
        out
    };
    for a in &pool {
        assert!(!encode(a).is_empty(), "only a missing key encodes empty");
        for b in &pool {
            assert_eq!(
                encode(a).cmp(&encode(b)),
                dynamo_cmp(a, b),
                "{a:?} vs {b:?}"
            );
        }
    }
}
