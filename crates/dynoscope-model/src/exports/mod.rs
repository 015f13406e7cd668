//! Exports: items as the bytes of an export file or of `--output` (`export`), the `export-start`
//! request checked and priced (`export_start`), and DynamoDB's S3 table exports read back without
//! I/O (`table_export`).

pub mod export;
pub mod export_start;
pub mod table_export;
