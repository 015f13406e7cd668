//! Building the DynamoDB client from aws-config's default chain plus dynoscope's flags.

use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};
use aws_credential_types::provider::ProvideCredentials;
use aws_credential_types::Credentials;
use aws_sdk_dynamodb::Client;

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
const LOCAL_FALLBACK_REGION: &str = "us-east-1";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConnectError {
    #[error(
        "bad endpoint URL '{0}': {1}; pass something like --endpoint-url http://localhost:8000"
    )]
    BadEndpoint(String, String),
    #[error("no AWS region configured; pass --region (e.g. --region us-east-1) or set AWS_REGION")]
    NoRegion,
    #[error("no AWS credentials found for {endpoint} ({detail}); run 'aws configure' or 'aws sso login', or pass --profile")]
    NoCredentials { endpoint: String, detail: String },
}

#[derive(Debug, Clone)]
pub struct Connection {
    pub client: Client,
    /// DynamoDB Streams, configured like `client` (see [`super::stream::client`]).
    pub streams: aws_sdk_dynamodbstreams::Client,
    /// The endpoint as shown in messages.
    pub endpoint: String,
    pub region: String,
    pub is_local: bool,
}

/// The endpoint the SDK will use, as far as the flags and environment say: the flag, then
/// `AWS_ENDPOINT_URL_DYNAMODB`, then `AWS_ENDPOINT_URL` (aws-config's own precedence).
pub fn configured_endpoint(flag: Option<&str>) -> Option<String> {
    if let Some(url) = flag {
        return Some(url.to_string());
    }
    let ignore = std::env::var("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
        .map(|v| v.eq_ignore_ascii_case("true"))
        .unwrap_or(false);
    if ignore {
        return None;
    }
    ["AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"]
        .iter()
        .find_map(|name| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// Checks an endpoint URL and says whether it points at this machine.
pub fn parse_endpoint(url: &str) -> Result<bool, ConnectError> {
    let parsed =
        url::Url::parse(url).map_err(|e| ConnectError::BadEndpoint(url.into(), e.to_string()))?;
    if parsed.scheme() != "http" && parsed.scheme() != "https" {
        return Err(ConnectError::BadEndpoint(
            url.into(),
            format!("scheme '{}' is not http or https", parsed.scheme()),
        ));
    }
    let host = match parsed.host() {
        Some(h) => h,
        None => return Err(ConnectError::BadEndpoint(url.into(), "no host".into())),
    };
    Ok(match host {
        url::Host::Domain(d) => d.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    })
}

pub async fn connect(opts: &ConnectOptions) -> Result<Connection, ConnectError> {
    let endpoint = configured_endpoint(opts.endpoint_url.as_deref());
    let is_local = match &endpoint {
        Some(url) => parse_endpoint(url)?,
        None => false,
    };

    let mut loader = aws_config::defaults(BehaviorVersion::latest())
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
    let sdk_config = loader.load().await;

    let region = match sdk_config.region() {
        Some(r) => r.to_string(),
        None if is_local => LOCAL_FALLBACK_REGION.to_string(),
        None => return Err(ConnectError::NoRegion),
    };
    let shown_endpoint = endpoint
        .clone()
        .unwrap_or_else(|| format!("https://dynamodb.{region}.amazonaws.com"));

    let mut builder =
        aws_sdk_dynamodb::config::Builder::from(&sdk_config).region(Region::new(region.clone()));
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
    Ok(Connection {
        streams: super::stream::client::streams_client(
            &sdk_config,
            &config,
            local_fallback,
            opts.endpoint_url.as_deref(),
            endpoint.as_deref(),
        ),
        client: Client::from_conf(config),
        endpoint: shown_endpoint,
        region,
        is_local,
    })
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
    }
}
