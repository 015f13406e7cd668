//! Exports in S3 (`s3://bucket/prefix/AWSDynamoDB/<id>/`): the client, built from the same
//! credential chain, region and profile as DynamoDB's; the export's folder found with
//! ListObjectsV2 and HeadObject; its objects streamed with GetObject. Nothing else is called,
//! so the read-only policy needs only s3:GetObject and s3:ListBucket.
//!
//! The S3 endpoint is the SDK's own (`AWS_ENDPOINT_URL_S3`, a profile's `services`), never
//! `--endpoint-url`, which names DynamoDB's (as for CloudWatch). A local endpoint (moto, MinIO)
//! gets path-style addressing, since `bucket.localhost` names no host, and the same dummy
//! credentials as DynamoDB Local when the chain has none.

use std::io::Read;

use aws_config::retry::RetryConfig;
use aws_config::Region;
use aws_credential_types::provider::ProvideCredentials;
use aws_credential_types::Credentials;
use aws_sdk_s3::error::{ProvideErrorMetadata, SdkError};
use aws_smithy_types::byte_stream::ByteStream;
use aws_types::origin::Origin;

use super::ExportOpenError;
use crate::aws::connect::{load_sdk_config, parse_endpoint, LOCAL_FALLBACK_REGION};
use crate::aws::endpoint::EndpointProbe;
use crate::aws::{ConnectError, ConnectOptions};
use crate::model::engine::permission::is_access_denied;
use crate::model::exports::table_export::{confined, FileProblem, MANIFEST_MAX_BYTES};
use crate::model::text::sanitize::sanitize;

/// Where an export is in S3, and the client that reads it.
#[derive(Debug, Clone)]
pub struct S3Export {
    client: aws_sdk_s3::Client,
    pub bucket: String,
    /// The key prefix of the export's folder, ending in `/` (or empty: the bucket's root).
    pub folder: String,
}

/// `s3://bucket/prefix` as bucket and prefix (ending in `/` unless empty); `None` when `text`
/// is not an S3 URL at all (a path on disk).
pub fn parse_url(text: &str) -> Option<Result<(String, String), ExportOpenError>> {
    let rest = text.strip_prefix("s3://").or_else(|| {
        text.get(..5)
            .filter(|s| s.eq_ignore_ascii_case("s3://"))
            .map(|_| &text[5..])
    })?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Some(Err(ExportOpenError(format!(
            "export '{text}' names no bucket; write s3://BUCKET/PREFIX/AWSDynamoDB/<export id>/"
        ))));
    }
    let mut prefix = prefix.trim_start_matches('/').to_string();
    if !prefix.is_empty() && !prefix.ends_with('/') {
        prefix.push('/');
    }
    Some(Ok((bucket.to_string(), prefix)))
}

fn local_credentials() -> Credentials {
    Credentials::new(
        "dynoscopelocal",
        "dynoscopelocal",
        None,
        None,
        "dynoscope-local-fallback",
    )
}

/// The URL the S3 client sends to, asked of its own endpoint resolver; nothing is sent.
async fn resolve(client: &aws_sdk_s3::Client) -> Result<String, String> {
    let (probe, seen) = EndpointProbe::new();
    let outcome = client
        .list_buckets()
        .customize()
        .config_override(
            aws_sdk_s3::Config::builder()
                .credentials_provider(Credentials::new("probe", "probe", None, None, "probe"))
                .retry_config(RetryConfig::disabled()),
        )
        .interceptor(probe)
        .send()
        .await;
    let url = seen.lock().ok().and_then(|mut s| s.take());
    match (url, outcome) {
        (Some(url), _) => Ok(url),
        (None, Err(e)) => Err(crate::aws::error::chain(&e)),
        (None, Ok(_)) => Err("the endpoint probe was sent".into()),
    }
}

/// The S3 client for `opts` (the DynamoDB connection's options).
pub async fn client(opts: &ConnectOptions) -> Result<aws_sdk_s3::Client, ConnectError> {
    if let Some(url) = &opts.endpoint_url {
        parse_endpoint(url)?;
    }
    let sdk = load_sdk_config(opts).await;
    let mut own = sdk.to_builder();
    if opts.endpoint_url.is_some() {
        own.set_endpoint_url(None);
        own.insert_origin("endpoint_url", Origin::unknown());
    }
    let own = own.build();
    let configured_region = own.region().map(|r| r.to_string());
    let region = configured_region
        .clone()
        .unwrap_or_else(|| LOCAL_FALLBACK_REGION.to_string());
    // An export's objects (GetObject) are streams their reader bounds itself; every other
    // answer (ListObjectsV2…) is capped like any client's.
    let mut builder = aws_sdk_s3::config::Builder::from(&own)
        .region(Region::new(region))
        .interceptor(crate::aws::response_cap::interceptor(&["GetObject"]));
    let url = resolve(&aws_sdk_s3::Client::from_conf(builder.clone().build()))
        .await
        .map_err(|why| {
            ConnectError::BadEndpoint(
                "(the S3 endpoint, from AWS_ENDPOINT_URL_S3 or the profile)".into(),
                why,
            )
        })?;
    let is_local = parse_endpoint(&url)?;
    if !is_local && configured_region.is_none() {
        return Err(ConnectError::NoRegion);
    }
    if is_local {
        builder = builder.force_path_style(true);
    }
    let creds = match own.credentials_provider() {
        Some(provider) => provider
            .provide_credentials()
            .await
            .map(|_| ())
            .map_err(|e| crate::aws::error::chain(&e)),
        None => Err("no credential provider".to_string()),
    };
    if let Err(detail) = creds {
        if !is_local {
            return Err(ConnectError::NoCredentials {
                endpoint: crate::model::text::redact::redact_userinfo(&url).into_owned(),
                detail,
            });
        }
        builder = builder.credentials_provider(local_credentials());
    }
    Ok(aws_sdk_s3::Client::from_conf(builder.build()))
}

/// A failed S3 call in one line: a denial names the permission, the rest the SDK's reason.
fn failure<E: ProvideErrorMetadata + std::error::Error + 'static>(
    e: &SdkError<E, aws_smithy_runtime_api::client::orchestrator::HttpResponse>,
    permission: &str,
    what: &str,
) -> String {
    let status = e.raw_response().map(|r| r.status().as_u16());
    let code = e.as_service_error().and_then(|s| s.code());
    if code.is_some_and(is_access_denied) || (code.is_none() && status == Some(403)) {
        return format!(
            "these credentials are not allowed '{permission}' on {what}; add it to the IAM policy (the manual's docs/permissions.md lists the read-only policy)"
        );
    }
    let why = match (code, e.as_service_error().and_then(|s| s.message())) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        (Some(code), None) => code.to_string(),
        _ => crate::aws::error::chain(e),
    };
    format!("cannot read {what}: {}", sanitize(&why))
}

impl S3Export {
    /// `s3://bucket/key`, for messages.
    pub fn url_of(&self, key: &str) -> String {
        sanitize(&format!("s3://{}/{key}", self.bucket)).into_owned()
    }

    /// Finds the export at or just below `s3://bucket/prefix` (as on disk: the folder holding
    /// `manifest-summary.json`, or one above exactly one `AWSDynamoDB/<id>/`).
    pub async fn find(
        client: aws_sdk_s3::Client,
        bucket: String,
        prefix: String,
    ) -> Result<S3Export, ExportOpenError> {
        let mut export = S3Export {
            client,
            bucket,
            folder: prefix.clone(),
        };
        if export
            .exists(&format!("{prefix}{}", super::SUMMARY))
            .await?
        {
            return Ok(export);
        }
        let mut found = export.children(&format!("{prefix}AWSDynamoDB/")).await?;
        if found.is_empty() {
            found = export.children(&prefix).await?;
        }
        let mut holding = Vec::new();
        for child in found {
            if export.exists(&format!("{child}{}", super::SUMMARY)).await? {
                holding.push(child);
            }
        }
        let here = export.url_of(&prefix);
        match holding.len() {
            1 => {
                export.folder = holding.pop().expect("one");
                Ok(export)
            }
            0 => Err(ExportOpenError(format!(
                "no export in '{here}': it holds no {}, nor AWSDynamoDB/<export id>/{}; give the export's folder",
                super::SUMMARY, super::SUMMARY
            ))),
            n => Err(ExportOpenError(format!(
                "'{here}' holds {n} exports ({}); give one of their folders",
                holding
                    .iter()
                    .map(|p| p.trim_end_matches('/').rsplit('/').next().unwrap_or(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    async fn exists(&self, key: &str) -> Result<bool, ExportOpenError> {
        match self
            .client
            .head_object()
            .bucket(&self.bucket)
            .key(key)
            .send()
            .await
        {
            Ok(_) => Ok(true),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_not_found()) => Ok(false),
            Err(e) => Err(ExportOpenError(failure(
                &e,
                "s3:GetObject",
                &format!("'{}'", self.url_of(key)),
            ))),
        }
    }

    /// The "folders" right below `prefix` (keys ending in `/`).
    async fn children(&self, prefix: &str) -> Result<Vec<String>, ExportOpenError> {
        let mut pages = self
            .client
            .list_objects_v2()
            .bucket(&self.bucket)
            .prefix(prefix)
            .delimiter("/")
            .into_paginator()
            .send();
        let mut found = Vec::new();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| {
                let what = format!("'{}'", self.url_of(prefix));
                match e.as_service_error() {
                    Some(s) if s.is_no_such_bucket() => ExportOpenError(format!(
                        "bucket '{}' does not exist (or is in another account); check the s3:// URL",
                        sanitize(&self.bucket)
                    )),
                    _ => ExportOpenError(failure(&e, "s3:ListBucket", &what)),
                }
            })?;
            found.extend(
                page.common_prefixes()
                    .iter()
                    .filter_map(|p| p.prefix().map(str::to_string)),
            );
        }
        found.sort();
        Ok(found)
    }

    /// The key of `relative` below the export's prefix, if it stays below it (see
    /// [`confined`]): S3 keys are literal, but a `..` or absolute key names another prefix.
    pub(super) fn key_of(&self, relative: &str) -> Result<String, String> {
        confined(relative).map(|relative| format!("{}{relative}", self.folder))
    }

    /// The whole of a manifest as text, read up to [`MANIFEST_MAX_BYTES`].
    pub async fn read_manifest(&self, name: &str) -> Result<String, ExportOpenError> {
        let key = self.key_of(name).map_err(ExportOpenError)?;
        let what = format!("'{}'", self.url_of(&key));
        let object = self
            .client
            .get_object()
            .bucket(&self.bucket)
            .key(&key)
            .send()
            .await
            .map_err(|e| match e.as_service_error() {
                Some(s) if s.is_no_such_key() => {
                    ExportOpenError(format!("cannot read {what}: it does not exist"))
                }
                _ => ExportOpenError(failure(&e, "s3:GetObject", &what)),
            })?;
        let too_large = |size: u64| {
            ExportOpenError(format!(
                "cannot read {what}: {}",
                super::resolve::too_large(size)
            ))
        };
        let said = object.content_length().map_or(0, |n| n.max(0) as u64);
        if said > MANIFEST_MAX_BYTES {
            return Err(too_large(said));
        }
        // The length said is the server's word: the body is capped as it arrives too.
        let mut body = object.body;
        let mut bytes = Vec::new();
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| ExportOpenError(format!("cannot read {what}: {e}")))?;
            bytes.extend_from_slice(&chunk);
            if bytes.len() as u64 > MANIFEST_MAX_BYTES {
                return Err(too_large(bytes.len() as u64));
            }
        }
        String::from_utf8(bytes)
            .map_err(|_| ExportOpenError(format!("cannot read {what}: it is not UTF-8 text")))
    }

    /// A data file, streamed. Called on a blocking thread (a reader's), never on the runtime.
    pub fn open_blocking(
        &self,
        key: &str,
        runtime: &tokio::runtime::Handle,
    ) -> Result<Box<dyn Read + Send>, FileProblem> {
        let sent = runtime.block_on(
            self.client
                .get_object()
                .bucket(&self.bucket)
                .key(key)
                .send(),
        );
        match sent {
            Ok(object) => Ok(Box::new(BlockingBody {
                body: object.body,
                chunk: bytes::Bytes::new(),
                runtime: runtime.clone(),
            })),
            Err(e) if e.as_service_error().is_some_and(|s| s.is_no_such_key()) => {
                Err(FileProblem::Missing)
            }
            Err(e) => Err(FileProblem::Unreadable(failure(
                &e,
                "s3:GetObject",
                &format!("'{}'", self.url_of(key)),
            ))),
        }
    }
}

/// An object's body read as `std::io::Read`, a chunk at a time as it arrives (so memory is a
/// chunk, not the object), by blocking the reader's own thread on the runtime.
struct BlockingBody {
    body: ByteStream,
    chunk: bytes::Bytes,
    runtime: tokio::runtime::Handle,
}

impl Read for BlockingBody {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.chunk.is_empty() {
            match self.runtime.block_on(self.body.next()) {
                None => return Ok(0),
                Some(Ok(chunk)) => self.chunk = chunk,
                Some(Err(e)) => return Err(std::io::Error::other(e)),
            }
        }
        let n = buf.len().min(self.chunk.len());
        buf[..n].copy_from_slice(&self.chunk.split_to(n));
        Ok(n)
    }
}

#[cfg(test)]
#[path = "s3_tests.rs"]
mod tests;
