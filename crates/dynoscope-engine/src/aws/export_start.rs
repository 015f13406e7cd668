//! `export-start`'s calls: DescribeTable for the ARN and size, ExportTableToPointInTime
//! (billed: sent only when the user said `--yes`) and DescribeExport to follow it.

use std::hash::{BuildHasher, Hasher};

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::primitives::DateTime;
use aws_sdk_dynamodb::types::{
    ExportDescription, ExportFormat as SdkFormat, ExportType, ExportViewType,
    IncrementalExportSpecification,
};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;

use super::{Connection, Engine, EngineError};
use crate::aws::error::FromSdk;
use crate::model::engine::permission::{is_access_denied, Denied};
use crate::model::exports::export_start::ExportRequest;
use crate::model::exports::table_export::ExportFormat;

/// What an export needs from DescribeTable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedTable {
    pub arn: String,
    /// TableSizeBytes: DynamoDB updates it about every six hours.
    pub size_bytes: u64,
}

/// One DescribeExport answer (or ExportTableToPointInTime's), as far as `export-start` tells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportProgress {
    pub arn: String,
    /// `IN_PROGRESS`, `COMPLETED` or `FAILED`.
    pub status: String,
    pub bucket: Option<String>,
    pub prefix: Option<String>,
    /// The S3 key of `manifest-summary.json`, once written.
    pub manifest: Option<String>,
    pub item_count: Option<i64>,
    pub billed_size_bytes: Option<i64>,
    pub failure_code: Option<String>,
    pub failure_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportCallError {
    /// `PointInTimeRecoveryUnavailableException`: exports read PITR's backups.
    PitrOff,
    Denied(Denied),
    Failed(EngineError),
}

impl Engine {
    pub async fn exported_table(&self, table: &str) -> Result<ExportedTable, EngineError> {
        let desc = self.table_description(table).await?;
        let arn = desc.as_ref().and_then(|d| d.table_arn.clone()).ok_or_else(|| {
            EngineError::service(format!(
                "DescribeTable at {} gave no TableArn for '{table}', and an export names its table by ARN",
                self.endpoint
            ))
        })?;
        Ok(ExportedTable {
            arn,
            size_bytes: desc.and_then(|d| d.table_size_bytes).unwrap_or(0).max(0) as u64,
        })
    }

    /// A read: the engine's read-only client sends it.
    pub async fn describe_export(&self, arn: &str) -> Result<ExportProgress, ExportCallError> {
        let out = self
            .client
            .describe_export()
            .export_arn(arn)
            .send()
            .await
            .map_err(|e| call_error(e, "DescribeExport", &self.endpoint))?;
        progress(out.export_description, "DescribeExport", &self.endpoint)
    }
}

/// Starts the export. The only caller is `export-start --yes`; the read engine's client
/// would refuse it, so it goes through the connection's own client.
pub async fn start_export(
    connection: &Connection,
    request: &ExportRequest,
) -> Result<ExportProgress, ExportCallError> {
    let mut send = connection
        .client
        .export_table_to_point_in_time()
        .table_arn(&request.table_arn)
        .s3_bucket(&request.bucket)
        .set_s3_prefix(request.prefix.clone())
        .set_s3_bucket_owner(request.bucket_owner.clone())
        .export_format(match request.format {
            ExportFormat::DynamoJson => SdkFormat::DynamodbJson,
            ExportFormat::Ion => SdkFormat::Ion,
        })
        // One token for the SDK's retries of this request: a retried start is the same export.
        .client_token(client_token());
    if let Some(w) = request.window {
        send = send
            .export_type(ExportType::IncrementalExport)
            .incremental_export_specification(
                IncrementalExportSpecification::builder()
                    .export_from_time(DateTime::from_millis(w.from_ms))
                    .export_to_time(DateTime::from_millis(w.to_ms))
                    .export_view_type(ExportViewType::NewAndOldImages)
                    .build(),
            );
    }
    let out = send
        .send()
        .await
        .map_err(|e| call_error(e, "ExportTableToPointInTime", &connection.endpoint))?;
    progress(
        out.export_description,
        "ExportTableToPointInTime",
        &connection.endpoint,
    )
}

/// 128 random bits in hex: unique to this run, so running the command again starts a new
/// export rather than returning the last one.
fn client_token() -> String {
    let random = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    format!("dynoscope-{:016x}{:016x}", random(), random())
}

fn call_error<E>(err: SdkError<E, HttpResponse>, operation: &str, endpoint: &str) -> ExportCallError
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    match err.as_service_error().and_then(|e| e.code()) {
        Some("PointInTimeRecoveryUnavailableException") => ExportCallError::PitrOff,
        Some(code) if is_access_denied(code) => {
            let (permission, skipped) = if operation == "DescribeExport" {
                ("dynamodb:DescribeExport", "following the export")
            } else {
                ("dynamodb:ExportTableToPointInTime", "starting the export")
            };
            ExportCallError::Denied(Denied::new(permission, skipped))
        }
        _ => ExportCallError::Failed(EngineError::from_sdk(err, operation, None, endpoint)),
    }
}

fn progress(
    d: Option<ExportDescription>,
    operation: &str,
    endpoint: &str,
) -> Result<ExportProgress, ExportCallError> {
    let d = d.ok_or_else(|| {
        ExportCallError::Failed(EngineError::service(format!(
            "{operation} at {endpoint} answered without an ExportDescription"
        )))
    })?;
    Ok(ExportProgress {
        status: d
            .export_status
            .as_ref()
            .map_or("UNKNOWN", |s| s.as_str())
            .to_string(),
        arn: d.export_arn.unwrap_or_default(),
        bucket: d.s3_bucket,
        prefix: d.s3_prefix,
        manifest: d.export_manifest,
        item_count: d.item_count,
        billed_size_bytes: d.billed_size_bytes,
        failure_code: d.failure_code,
        failure_message: d.failure_message,
    })
}
