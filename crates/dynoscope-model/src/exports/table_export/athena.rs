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
use crate::design::schema::{KeyAttr, TableInfo};
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

/// `(label, partition key)` of the table and of each GSI.
// multi-attribute: not yet — a GSI keyed by several attributes is left out (and said so by
// `multi_attribute_gsis`), not counted by its first attribute.
fn targets(info: &TableInfo) -> Vec<(String, &KeyAttr)> {
    let mut out = vec![("table".to_string(), info.keys.partition_key())];
    for index in &info.indexes {
        if index.kind == crate::design::schema::IndexKind::Gsi && !index.keys.is_multi_attribute() {
            out.push((format!("GSI {}", index.name), index.keys.partition_key()));
        }
    }
    out
}

/// The GSIs the queries leave out, each with its key.
fn multi_attribute_gsis(info: &TableInfo) -> Vec<String> {
    info.indexes
        .iter()
        .filter(|i| i.kind == crate::design::schema::IndexKind::Gsi && i.keys.is_multi_attribute())
        .map(|i| format!("GSI {} ({})", i.name, i.keys.display()))
        .collect()
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
    for skipped in multi_attribute_gsis(info) {
        let line = format!("{skipped}: multi-attribute partition keys are not counted here yet");
        let _ = writeln!(out, "{}", sql_comment(&line));
    }
    match summary.format {
        ExportFormat::DynamoJson => {
            let _ = writeln!(
                out,
                "CREATE EXTERNAL TABLE IF NOT EXISTS {table} (line string)\nLOCATION {};",
                hive_literal(&location(summary))
            );
            for (label, key) in &targets {
                let path = json_path(key);
                let comment = sql_comment(&format!(
                    "top {top} partition keys of the {label} ({}), by items and by bytes of their JSON lines",
                    key.name
                ));
                let _ = write!(
                    out,
                    "\n{comment}\n\
                     SELECT json_extract_scalar(line, {path}) AS key,\n       count(*) AS items,\n       sum(length(line)) AS json_bytes\n\
                     FROM {table}\nWHERE json_extract_scalar(line, {path}) IS NOT NULL\nGROUP BY 1\nORDER BY items DESC\nLIMIT {top};\n"
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
            for (i, (label, key)) in targets.iter().enumerate() {
                let c = column(i);
                let comment = sql_comment(&format!(
                    "top {top} partition keys of the {label} ({}), by items (Ion lines have no length in Athena)",
                    key.name
                ));
                let _ = write!(
                    out,
                    "\n{comment}\n\
                     SELECT {c} AS key, count(*) AS items\nFROM {table}\nWHERE {c} IS NOT NULL\nGROUP BY 1\nORDER BY items DESC\nLIMIT {top};\n"
                );
            }
        }
    }
    out
}
