//! Building the DynamoDB client from aws-config's default chain plus dynoscope's flags.

use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};
use aws_credential_types::provider::ProvideCredentials;
use aws_credential_types::Credentials;
use aws_sdk_dynamodb::Client;

use super::endpoint::{self, is_loopback};
use crate::model::text::redact::redact_userinfo;

/// Where and how to connect; filled from `--profile`, `--region`, `--endpoint-url`.
#[derive(Debug, Clone, Default)]
pub struct ConnectOptions {
    pub profile: Option<String>,
    pub region: Option<String>,
    pub endpoint_url: Option<String>,
    /// Per-attempt timeout; `None` keeps the default.
    pub attempt_timeout: Option<Duration>,
    /// Total attempts per request including the first; `None` keeps the default.
    pub max_attempts: Option<u32>,
    /// The command that writes (`seed`): anything but an endpoint on this machine is refused,
    /// before credentials are looked for, so a missing AWS set-up cannot hide the reason.
    pub local_only: Option<&'static str>,
}

pub const DEFAULT_ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Throttling is the normal case during an incident, so retry more than the SDK's default 3,
/// but with short backoff (DynamoDB's own SDKs start at 25–50 ms) so that an unreachable
/// endpoint still fails within seconds.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 6;
const INITIAL_BACKOFF: Duration = Duration::from_millis(50);
const MAX_BACKOFF: Duration = Duration::from_secs(2);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// Region used against a local endpoint when none is configured: DynamoDB Local started with
/// `-sharedDb` ignores it, and a demo should not need AWS configuration.
pub(crate) const LOCAL_FALLBACK_REGION: &str = "us-east-1";
const LOCAL_HINT: &str = "pass --endpoint-url http://localhost:8000 (DynamoDB Local)";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConnectError {
    #[error(
        "bad endpoint URL '{0}': {1}; pass something like --endpoint-url http://localhost:8000"
    )]
    BadEndpoint(String, String),
    #[error("region '{0}' is not a region name (letters, digits and '-'); pass one such as --region us-east-1, or fix AWS_REGION or the profile's region")]
    BadRegion(String),
    #[error("no AWS region configured; pass --region (e.g. --region us-east-1) or set AWS_REGION")]
    NoRegion,
    #[error("no AWS credentials found for {endpoint} ({detail}); run 'aws configure' or 'aws sso login', or pass --profile")]
    NoCredentials { endpoint: String, detail: String },
    #[error("'{command}' only writes to a local endpoint, not '{endpoint}' (where the AWS SDK would send it); {LOCAL_HINT}")]
    NotLocal {
        command: &'static str,
        endpoint: String,
    },
    #[error("'{command}' only writes to a local endpoint and none is configured; {LOCAL_HINT}")]
    NoLocalEndpoint { command: &'static str },
}

#[derive(Debug, Clone)]
pub struct Connection {
    pub client: Client,
    /// DynamoDB Streams, configured like `client` (see [`super::stream::client`]).
    pub streams: aws_sdk_dynamodbstreams::Client,
    /// CloudWatch (metrics, Contributor Insights reports), at its own endpoint.
    pub cloudwatch: aws_sdk_cloudwatch::Client,
    /// The endpoint as shown in messages: the one the SDK sends to.
    pub endpoint: String,
    pub region: String,
    /// Whether that endpoint is on this machine (decides dummy credentials and writes).
    pub is_local: bool,
}

/// Checks an endpoint URL and says whether it points at this machine.
pub fn parse_endpoint(url: &str) -> Result<bool, ConnectError> {
    let bad = |why: String| ConnectError::BadEndpoint(redact_userinfo(url).into_owned(), why);
    // The URL parser would trim the ends and percent-encode a space inside; the SDK refuses
    // both later, with a dump of its request.
    if let Some(c) = url.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad(match c {
            ' ' => "it holds a space".to_string(),
            c => format!("it holds {}", c.escape_default()),
        }));
    }
    let parsed = url::Url::parse(url).map_err(|e| bad(e.to_string()))?;
    if parsed.scheme() != "http" && parsed.scheme() != "https" {
        return Err(bad(format!(
            "scheme '{}' is not http or https",
            parsed.scheme()
        )));
    }
    is_loopback(&parsed).ok_or_else(|| bad("no host".into()))
}

/// What the endpoint probe's failure says about the configuration, in a line: the SDK's own
/// text quotes its whole request (`Request { body: SdkBody … }`).
fn configured_endpoint_error(why: &str, region: &str) -> ConnectError {
    const FROM: &str = "it came from the AWS configuration (AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_DYNAMODB or a profile's endpoint_url)";
    if why.contains("`region`") {
        return ConnectError::BadRegion(region.to_string());
    }
    match endpoint::applied_endpoint(why) {
        Some(url) => {
            let reason = match parse_endpoint(&url) {
                Err(ConnectError::BadEndpoint(_, reason)) => reason,
                _ => "it is not a valid URI".to_string(),
            };
            ConnectError::BadEndpoint(
                redact_userinfo(&url).into_owned(),
                format!("{reason}; {FROM}"),
            )
        }
        None => ConnectError::BadEndpoint("(from the AWS configuration)".into(), why.to_string()),
    }
}

/// The SDK's request URL as shown in messages: credentials in it masked, and without its path,
/// which is always `/` and says nothing.
fn shown(url: &str) -> String {
    let url = redact_userinfo(url);
    url.strip_suffix('/').unwrap_or(&url).to_string()
}

/// aws-config's default chain with dynoscope's HTTPS client, retry, timeouts and `--profile`,
/// `--region`, `--endpoint-url`: shared by every client (and by the SSO and STS calls of the
/// credential chain), so each uses the same credentials, region and TLS stack.
pub async fn load_sdk_config(opts: &ConnectOptions) -> aws_types::SdkConfig {
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .http_client(super::https::client())
        .retry_config(
            RetryConfig::adaptive()
                .with_max_attempts(opts.max_attempts.unwrap_or(DEFAULT_MAX_ATTEMPTS))
                .with_initial_backoff(INITIAL_BACKOFF)
                .with_max_backoff(MAX_BACKOFF),
        )
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(CONNECT_TIMEOUT)
                .operation_attempt_timeout(opts.attempt_timeout.unwrap_or(DEFAULT_ATTEMPT_TIMEOUT))
                .build(),
        );
    if let Some(profile) = &opts.profile {
        loader = loader.profile_name(profile);
    }
    if let Some(region) = &opts.region {
        loader = loader.region(Region::new(region.clone()));
    }
    if let Some(url) = &opts.endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader.load().await
}

pub async fn connect(opts: &ConnectOptions) -> Result<Connection, ConnectError> {
    // The flag is checked first: its mistakes are the user's to fix, whatever else is set.
    if let Some(url) = &opts.endpoint_url {
        parse_endpoint(url)?;
    }
    let sdk_config = load_sdk_config(opts).await;

    // Local or not is decided by the URL the client will use, whatever configured it.
    let configured_region = sdk_config.region().map(|r| r.to_string());
    let region = configured_region
        .clone()
        .unwrap_or_else(|| LOCAL_FALLBACK_REGION.to_string());
    let mut builder = aws_sdk_dynamodb::config::Builder::from(&sdk_config)
        .region(Region::new(region.clone()))
        .interceptor(super::response_cap::interceptor(&[]));
    let url = endpoint::resolve(&Client::from_conf(builder.clone().build()))
        .await
        .map_err(|why| configured_endpoint_error(&why, &region))?;
    let is_local = parse_endpoint(&url)?;
    let shown_endpoint = shown(&url);
    match (opts.local_only, is_local, &configured_region) {
        (Some(command), false, None) => return Err(ConnectError::NoLocalEndpoint { command }),
        (Some(command), false, Some(_)) => {
            return Err(ConnectError::NotLocal {
                command,
                endpoint: shown_endpoint,
            })
        }
        (None, false, None) => return Err(ConnectError::NoRegion),
        _ => {}
    }

    let creds = match sdk_config.credentials_provider() {
        Some(provider) => provider
            .provide_credentials()
            .await
            .map(|_| ())
            .map_err(|e| crate::aws::error::chain(&e)),
        None => Err("no credential provider".to_string()),
    };
    let local_fallback = creds.is_err();
    if let Err(detail) = creds {
        if !is_local {
            return Err(ConnectError::NoCredentials {
                endpoint: shown_endpoint,
                detail,
            });
        }
        // DynamoDB Local accepts any key made of letters and digits; a demo must not need an
        // AWS account.
        builder = builder.credentials_provider(Credentials::new(
            "dynoscopelocal",
            "dynoscopelocal",
            None,
            None,
            "dynoscope-local-fallback",
        ));
    }
    let config = builder.build();
    let cloudwatch = super::cloudwatch::client(
        &sdk_config,
        &region,
        opts.endpoint_url.is_some(),
        local_fallback.then(|| {
            Credentials::new(
                "dynoscopelocal",
                "dynoscopelocal",
                None,
                None,
                "dynoscope-local-fallback",
            )
        }),
    );
    Ok(Connection {
        cloudwatch,
        // DynamoDB Local (or any endpoint not AWS's own) serves Streams at the same URL.
        streams: super::stream::client::streams_client(
            &sdk_config,
            &config,
            local_fallback,
            opts.endpoint_url.as_deref(),
            (!is_aws_endpoint(&url)).then_some(url.as_str()),
        ),
        client: Client::from_conf(config),
        endpoint: shown_endpoint,
        region,
        is_local,
    })
}

/// AWS's own DynamoDB endpoints (`dynamodb.REGION.amazonaws.com`, China's `.com.cn`), whose
/// Streams live at their own host.
fn is_aws_endpoint(url: &str) -> bool {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
        .is_some_and(|h| h.ends_with(".amazonaws.com") || h.ends_with(".amazonaws.com.cn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_locality_and_errors() {
        let cases = [
            ("http://localhost:8000", Ok(true)),
            ("http://127.0.0.1:8000", Ok(true)),
            ("http://127.0.0.2:8000", Ok(true)),
            ("http://[::1]:8000", Ok(true)),
            ("https://dynamodb.us-east-1.amazonaws.com", Ok(false)),
            ("http://10.0.0.1:8000", Ok(false)),
        ];
        for (url, want) in cases {
            assert_eq!(parse_endpoint(url), want, "{url}");
        }
        for bad in ["localhost:8000", "ftp://localhost", "not a url", "http://"] {
            let err = parse_endpoint(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("'{bad}'")), "{err}");
            assert!(err.contains("--endpoint-url"), "{err}");
        }
        let err = parse_endpoint("ftp://me:s3cret@localhost")
            .unwrap_err()
            .to_string();
        assert!(err.contains("'ftp://***@localhost'"), "{err}");
        assert_eq!(
            shown("http://me:s3cret@127.0.0.1:8000/"),
            "http://***@127.0.0.1:8000"
        );
    }
}
