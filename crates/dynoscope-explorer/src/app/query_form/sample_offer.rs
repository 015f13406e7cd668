//! What `Ctrl-S` would sample from the form as it stands, and its price: the completion popup
//! offers it (`completion`), `key_sample` reads it. Pure: nothing here reads.

use super::field::Field;
use super::form::QueryForm;
use crate::model::design::collection::TUPLE_SEPARATOR;
use crate::model::design::schema::TableInfo;
use crate::model::traffic::capacity::format_units;

/// Keys in one sample: one small keys-only page.
pub const SAMPLE_KEYS: i32 = 100;

/// What `Ctrl-S` would read from the form as it stands.
pub(super) enum Wanted {
    PartitionKeys,
    /// The sort keys of the partition the form's partition fields give, one value per
    /// partition attribute.
    SortKeysOf(Vec<String>),
}

pub(super) fn wanted(b: &QueryForm, info: &TableInfo) -> Option<Wanted> {
    if b.raw || b.partiql {
        return None;
    }
    let keys = b.keys(info);
    if keys.is_multi_attribute() {
        return match b.focus {
            Field::PkAt(_) if !b.sample.pk_sampled => Some(Wanted::PartitionKeys),
            Field::SkAt(_) | Field::SkHigh => {
                let parts: Vec<String> = (0..keys.partition().len())
                    .map(|n| b.text(Field::PkAt(n as u8)))
                    .collect();
                let whole = parts.join(TUPLE_SEPARATOR);
                (parts.iter().all(|p| !p.is_empty())
                    && b.sample.for_pk.as_deref() != Some(whole.as_str()))
                .then_some(Wanted::SortKeysOf(parts))
            }
            _ => None,
        };
    }
    match b.focus {
        Field::Pk if !b.sample.pk_sampled => Some(Wanted::PartitionKeys),
        Field::Sk | Field::SkHigh if b.keys(info).sort_key().is_some() => {
            let pk = b.text(Field::Pk);
            (!pk.is_empty() && b.sample.for_pk.as_deref() != Some(pk.as_str()))
                .then_some(Wanted::SortKeysOf(vec![pk]))
        }
        _ => None,
    }
}

pub(super) fn estimate(b: &QueryForm, info: &TableInfo) -> f64 {
    info.sample_units(b.index_name(info).as_deref(), SAMPLE_KEYS as u64)
}

/// The popup's priced action, when a sample would add keys.
pub(super) fn offer(b: &QueryForm, info: &TableInfo) -> Option<String> {
    let what = match wanted(b, info)? {
        Wanted::PartitionKeys => "keys",
        Wanted::SortKeysOf(_) => "sort keys",
    };
    Some(format!(
        "Ctrl-S sample {SAMPLE_KEYS} {what} · ≈ {} RCU",
        format_units(estimate(b, info))
    ))
}
