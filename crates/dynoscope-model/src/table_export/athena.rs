//! `hotkeys --export … --athena`: for an export too big for one machine, the Athena DDL over
//! its `data/` prefix and the SQL of the same analysis (top partition keys by items, and by
//! bytes where the format allows), for the table's key and each GSI's.
//!
//! DYNAMODB_JSON: one `string` column holding each whole line (Athena's default SerDe splits on
//! `\x01`, which JSON never holds raw), read with `json_extract_scalar`, so the line's length
//! stands in for the item's bytes. ION: the Ion SerDe with one path extractor per key
//! attribute; Athena sees no line length there, so it ranks by items only.

use std::fmt::Write as _;

use super::{ExportFormat, ManifestSummary};
use crate::schema::{KeyAttr, TableInfo};

/// A SQL string literal: single quotes doubled.
fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A name Athena accepts unquoted: lowercase letters, digits and `_`.
fn table_name(info: &TableInfo, summary: &ManifestSummary) -> String {
    let raw = format!(
        "ddb_{}_{}",
        info.name,
        summary.export_id.split('-').next().unwrap_or("")
    );
    raw.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
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

/// `(label, partition key)` of the table and of each GSI.
fn targets(info: &TableInfo) -> Vec<(String, &KeyAttr)> {
    let mut out = vec![("table".to_string(), &info.keys.partition_key)];
    for index in &info.indexes {
        if index.kind == crate::schema::IndexKind::Gsi {
            out.push((format!("GSI {}", index.name), &index.keys.partition_key));
        }
    }
    out
}

fn json_path(key: &KeyAttr) -> String {
    let name = key.name.replace('\\', "\\\\").replace('"', "\\\"");
    literal(&format!(
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
        name.to_string()
    } else {
        format!("'{}'", name.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

pub fn athena_sql(info: &TableInfo, summary: &ManifestSummary, top: usize) -> String {
    let table = table_name(info, summary);
    let targets = targets(info);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- Athena: export {} of table {} at {} ({})",
        summary.export_id,
        info.name,
        summary.export_time.as_deref().unwrap_or("?"),
        summary.format.as_str()
    );
    match summary.format {
        ExportFormat::DynamoJson => {
            let _ = writeln!(
                out,
                "CREATE EXTERNAL TABLE IF NOT EXISTS {table} (line string)\nLOCATION {};",
                literal(&location(summary))
            );
            for (label, key) in &targets {
                let path = json_path(key);
                let _ = write!(
                    out,
                    "\n-- top {top} partition keys of the {label} ({}), by items and by bytes of their JSON lines\n\
                     SELECT json_extract_scalar(line, {path}) AS key,\n       count(*) AS items,\n       sum(length(line)) AS json_bytes\n\
                     FROM {table}\nWHERE json_extract_scalar(line, {path}) IS NOT NULL\nGROUP BY 1\nORDER BY items DESC\nLIMIT {top};\n",
                    key.name
                );
            }
        }
        ExportFormat::Ion => {
            let columns: Vec<String> = (0..targets.len())
                .map(|i| format!("{} string", column(i)))
                .collect();
            let extractors: Vec<String> = targets
                .iter()
                .enumerate()
                .map(|(i, (_, key))| {
                    format!(
                        "  {} = {}",
                        literal(&format!("ion.{}.path_extractor", column(i))),
                        literal(&format!("(Item {})", ion_symbol(&key.name)))
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "CREATE EXTERNAL TABLE IF NOT EXISTS {table} ({})\nROW FORMAT SERDE 'com.amazon.ionhiveserde.IonHiveSerDe'\nWITH SERDEPROPERTIES (\n{}\n)\nSTORED AS ION\nLOCATION {};",
                columns.join(", "),
                extractors.join(",\n"),
                literal(&location(summary))
            );
            for (i, (label, key)) in targets.iter().enumerate() {
                let c = column(i);
                let _ = write!(
                    out,
                    "\n-- top {top} partition keys of the {label} ({}), by items (Ion lines have no length in Athena)\n\
                     SELECT {c} AS key, count(*) AS items\nFROM {table}\nWHERE {c} IS NOT NULL\nGROUP BY 1\nORDER BY items DESC\nLIMIT {top};\n",
                    key.name
                );
            }
        }
    }
    out
}
