//! `hotkeys --export … --athena`: for an export too big for one machine, the Athena DDL over
//! its `data/` prefix and the SQL of the same analysis (top partition keys by items, and by
//! bytes where the format allows), for the table's key and each GSI's. A GSI keyed by several
//! partition attributes is ranked by their tuple, one column each in key-schema order, and a
//! GSI's ranking counts only the items that carry every key attribute it has, typed as its key
//! says (partition and sort: DynamoDB leaves any other item out of the index).
//!
//! DYNAMODB_JSON: one `string` column holding each whole line (Athena's default SerDe splits on
//! `\x01`, which JSON never holds raw), read with `json_extract_scalar`, so the line's length
//! stands in for the item's bytes. ION: the Ion SerDe with one path extractor per key
//! attribute; Athena sees no line length there, so it ranks by items only.

use std::fmt::Write as _;

use super::{ExportFormat, ManifestSummary};
use crate::design::schema::{IndexKind, KeyAttr, TableInfo};
use crate::text::sanitize::needs_escape;
use crate::text::sql_text::{hive_literal, sql_comment, sql_identifier, sql_literal};

/// A name Athena accepts unquoted: lowercase letters, digits and `_`.
fn table_name(info: &TableInfo, summary: &ManifestSummary) -> String {
    sql_identifier(&format!(
        "ddb_{}_{}",
        info.name,
        summary.export_id.split('-').next().unwrap_or("")
    ))
}

/// Where the data files are in S3, from the summary (`s3Bucket`, `s3Prefix`).
fn location(summary: &ManifestSummary) -> String {
    let bucket = summary.s3_bucket.as_deref().unwrap_or("BUCKET");
    let prefix = summary
        .s3_prefix
        .as_deref()
        .map(|p| p.trim_matches('/'))
        .filter(|p| !p.is_empty())
        .map(|p| format!("{p}/"))
        .unwrap_or_default();
    format!(
        "s3://{bucket}/{prefix}AWSDynamoDB/{}/data/",
        summary.export_id
    )
}

/// One ranking: the table's or a GSI's partition keys.
struct Target<'a> {
    label: String,
    /// The attributes its partition key is the tuple of, in key-schema order.
    partition: &'a [KeyAttr],
    /// The attributes an item must hold to be in it: a GSI holds only the items that carry
    /// every one of its key attributes (partition and sort); every item has the table's key.
    required: Vec<&'a KeyAttr>,
    /// How the comment names the key: the attribute, or the whole key schema of a
    /// multi-attribute index.
    shown: String,
}

/// The table, then each GSI (a multi-attribute one ranked by its whole partition tuple).
fn targets(info: &TableInfo) -> Vec<Target<'_>> {
    let table = info.keys.partition_key();
    let mut out = vec![Target {
        label: "table".to_string(),
        partition: std::slice::from_ref(table),
        required: vec![table],
        shown: table.name.clone(),
    }];
    for index in info.indexes.iter().filter(|i| i.kind == IndexKind::Gsi) {
        let keys = &index.keys;
        out.push(Target {
            label: format!("GSI {}", index.name),
            partition: keys.partition(),
            required: keys.attributes().collect(),
            shown: match keys.is_multi_attribute() {
                true => keys.display(),
                false => keys.partition_key().name.clone(),
            },
        });
    }
    out
}

/// The SELECT's key columns: `key` for one partition attribute, `key_1`, `key_2`, … in
/// key-schema order for several (an attribute's own name may not be an SQL identifier).
fn key_aliases(partition: &[KeyAttr]) -> Vec<String> {
    match partition.len() {
        1 => vec!["key".to_string()],
        n => (1..=n).map(|i| format!("key_{i}")).collect(),
    }
}

fn group_by(n: usize) -> String {
    (1..=n)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn json_path(key: &KeyAttr) -> String {
    let name = key.name.replace('\\', "\\\\").replace('"', "\\\"");
    sql_literal(&format!(
        "$[\"Item\"][\"{name}\"][\"{}\"]",
        key.key_type.as_str()
    ))
}

/// A column name for an Ion path extractor: `k0`, `k1`, … in the order of `targets`.
fn column(i: usize) -> String {
    format!("k{i}")
}

fn ion_symbol(name: &str) -> String {
    let bare = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if bare {
        return name.to_string();
    }
    // Ion's own escapes keep a control character out of the symbol's text; the DDL literal
    // around it then escapes the backslashes for Hive.
    let mut out = String::from("'");
    for c in name.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if needs_escape(c) && (c as u32) <= 0xffff => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if needs_escape(c) => out.push_str(&format!("\\U{:08x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

pub fn athena_sql(info: &TableInfo, summary: &ManifestSummary, top: usize) -> String {
    let table = table_name(info, summary);
    let targets = targets(info);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        sql_comment(&format!(
            "Athena: export {} of table {} at {} ({})",
            summary.export_id,
            info.name,
            summary.export_time.as_deref().unwrap_or("?"),
            summary.format.as_str()
        ))
    );
    match summary.format {
        ExportFormat::DynamoJson => {
            let _ = writeln!(
                out,
                "CREATE EXTERNAL TABLE IF NOT EXISTS {table} (line string)\nLOCATION {};",
                hive_literal(&location(summary))
            );
            for target in &targets {
                let columns: Vec<String> = target
                    .partition
                    .iter()
                    .zip(key_aliases(target.partition))
                    .map(|(key, alias)| {
                        format!("json_extract_scalar(line, {}) AS {alias}", json_path(key))
                    })
                    .collect();
                let present: Vec<String> = target
                    .required
                    .iter()
                    .map(|key| format!("json_extract_scalar(line, {}) IS NOT NULL", json_path(key)))
                    .collect();
                let comment = sql_comment(&format!(
                    "top {top} partition keys of the {} ({}), by items and by bytes of their JSON lines",
                    target.label, target.shown
                ));
                let _ = write!(
                    out,
                    "\n{comment}\n\
                     SELECT {},\n       count(*) AS items,\n       sum(length(line)) AS json_bytes\n\
                     FROM {table}\nWHERE {}\nGROUP BY {}\nORDER BY items DESC\nLIMIT {top};\n",
                    columns.join(",\n       "),
                    present.join("\n  AND "),
                    group_by(target.partition.len())
                );
            }
        }
        ExportFormat::Ion => {
            // One column per key attribute any ranking reads, in order of first use.
            let mut attributes: Vec<&KeyAttr> = Vec::new();
            for key in targets
                .iter()
                .flat_map(|t| t.partition.iter().chain(t.required.iter().copied()))
            {
                if !attributes.iter().any(|a| a.name == key.name) {
                    attributes.push(key);
                }
            }
            let column_of = |key: &KeyAttr| {
                column(
                    attributes
                        .iter()
                        .position(|a| a.name == key.name)
                        .unwrap_or(0),
                )
            };
            let columns: Vec<String> = (0..attributes.len())
                .map(|i| format!("{} string", column(i)))
                .collect();
            let extractors: Vec<String> = attributes
                .iter()
                .enumerate()
                .map(|(i, key)| {
                    format!(
                        "  {} = {}",
                        hive_literal(&format!("ion.{}.path_extractor", column(i))),
                        hive_literal(&format!("(Item {})", ion_symbol(&key.name)))
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "CREATE EXTERNAL TABLE IF NOT EXISTS {table} ({})\nROW FORMAT SERDE 'com.amazon.ionhiveserde.IonHiveSerDe'\nWITH SERDEPROPERTIES (\n{}\n)\nSTORED AS ION\nLOCATION {};",
                columns.join(", "),
                extractors.join(",\n"),
                hive_literal(&location(summary))
            );
            for target in &targets {
                let selected: Vec<String> = target
                    .partition
                    .iter()
                    .zip(key_aliases(target.partition))
                    .map(|(key, alias)| format!("{} AS {alias}", column_of(key)))
                    .collect();
                let present: Vec<String> = target
                    .required
                    .iter()
                    .map(|key| format!("{} IS NOT NULL", column_of(key)))
                    .collect();
                let comment = sql_comment(&format!(
                    "top {top} partition keys of the {} ({}), by items (Ion lines have no length in Athena)",
                    target.label, target.shown
                ));
                let _ = write!(
                    out,
                    "\n{comment}\n\
                     SELECT {}, count(*) AS items\nFROM {table}\nWHERE {}\nGROUP BY {}\nORDER BY items DESC\nLIMIT {top};\n",
                    selected.join(", "),
                    present.join(" AND "),
                    group_by(target.partition.len())
                );
            }
        }
    }
    out
}
