//! Which endpoint the SDK will really send to, and a guard that keeps writes on this machine.
//!
//! aws-config decides the endpoint from many places: `--endpoint-url`, `AWS_ENDPOINT_URL(_
//! DYNAMODB)`, a profile's `endpoint_url` or `services` section, and `ignore_configured_
//! endpoint_urls` in the environment or the profile (which turns all but the flag off). Reading
//! some of them ourselves once let `seed` believe it was local while the SDK went to the
//! regional endpoint. So the SDK is asked: a harmless request goes through the client's own
//! pipeline, with throwaway credentials, and is stopped just before signing, after the endpoint
//! resolver has written the URL into it. Nothing is sent.

use std::sync::{Arc, Mutex};

use aws_config::retry::RetryConfig;
use aws_credential_types::Credentials;
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;

/// Records the request's URL when the endpoint is known, then stops the request.
#[derive(Debug)]
pub(crate) struct EndpointProbe {
    seen: Arc<Mutex<Option<String>>>,
}

impl EndpointProbe {
    /// A probe for another service's client (S3's), and where it writes the URL it saw.
    pub(crate) fn new() -> (Self, Arc<Mutex<Option<String>>>) {
        let seen = Arc::new(Mutex::new(None));
        (EndpointProbe { seen: seen.clone() }, seen)
    }
}

const PROBE_STOP: &str = "dynoscope endpoint probe: stopped before signing, nothing sent";

impl Intercept for EndpointProbe {
    fn name(&self) -> &'static str {
        "dynoscope-endpoint-probe"
    }

    fn read_before_signing(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        if let Ok(mut seen) = self.seen.lock() {
            *seen = Some(context.request().uri().to_string());
        }
        Err(PROBE_STOP.into())
    }
}

/// The URL `client` sends requests to, as its endpoint resolver decides it. The identity is
/// resolved before the endpoint, so the probe brings its own (static) credentials: no
/// credential chain runs, nothing is signed, and the request is never transmitted.
pub async fn resolve(client: &Client) -> Result<String, String> {
    let seen = Arc::new(Mutex::new(None));
    let outcome = client
        .list_tables()
        .limit(1)
        .customize()
        .config_override(
            aws_sdk_dynamodb::Config::builder()
                .credentials_provider(Credentials::new(
                    "probe",
                    "probe",
                    None,
                    None,
                    "dynoscope-endpoint-probe",
                ))
                .retry_config(RetryConfig::disabled()),
        )
        .interceptor(EndpointProbe { seen: seen.clone() })
        .send()
        .await;
    let url = seen.lock().ok().and_then(|mut s| s.take());
    match (url, outcome) {
        (Some(url), _) => Ok(url),
        (None, Err(e)) => Err(super::error::chain(&e)),
        (None, Ok(_)) => Err("the endpoint probe was sent".into()),
    }
}

/// The endpoint named by the SDK's "failed to apply endpoint `URL` to request `…`" error.
pub fn applied_endpoint(why: &str) -> Option<String> {
    let start = why.find("failed to apply endpoint `")? + "failed to apply endpoint `".len();
    let rest = &why[start..];
    let end = rest.find("` to request").or_else(|| rest.find('`'))?;
    Some(rest[..end].to_string())
}

/// Whether `url`'s host is this machine: `localhost`, 127.0.0.0/8 or ::1. `None` when it has
/// no host at all.
pub fn is_loopback(url: &url::Url) -> Option<bool> {
    Some(match url.host()? {
        url::Host::Domain(d) => d.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    })
}

/// Refuses, before signing and so before anything is sent, every request whose host is not
/// this machine. Installed on the seeding client: the writes stay local even if the check made
/// when connecting were ever wrong.
#[derive(Debug)]
pub struct LoopbackOnly;

impl Intercept for LoopbackOnly {
    fn name(&self) -> &'static str {
        "dynoscope-loopback-only"
    }

    fn read_before_signing(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        _: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let uri = context.request().uri();
        let local = url::Url::parse(uri)
            .ok()
            .as_ref()
            .and_then(is_loopback)
            .unwrap_or(false);
        if local {
            Ok(())
        } else {
            Err(format!(
                "refused to send a write to '{}': dynoscope writes only to an endpoint on this machine",
                crate::model::text::redact::redact_userinfo(uri)
            )
            .into())
        }
    }
}

/// A client whose HTTP layer records what would be sent and sends nothing.
#[cfg(test)]
pub(crate) mod recording {
    use std::sync::{Arc, Mutex};

    use aws_config::retry::RetryConfig;
    use aws_config::{BehaviorVersion, Region};
    use aws_credential_types::Credentials;
    use aws_sdk_dynamodb::Client;
    use aws_smithy_runtime_api::client::http::{
        http_client_fn, HttpConnector, HttpConnectorFuture, SharedHttpConnector,
    };
    use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
    use aws_smithy_runtime_api::client::result::ConnectorError;

    pub type Sent = Arc<Mutex<Vec<String>>>;

    #[derive(Debug)]
    struct Recorder(Sent);

    impl HttpConnector for Recorder {
        fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
            self.0.lock().unwrap().push(request.uri().to_string());
            HttpConnectorFuture::ready(Err(ConnectorError::other(
                "test connector: nothing is sent".into(),
                None,
            )))
        }
    }

    pub fn client(endpoint_url: Option<&str>) -> (Client, Sent) {
        let sent: Sent = Arc::default();
        let connector = SharedHttpConnector::new(Recorder(sent.clone()));
        let mut builder = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("eu-west-1"))
            .credentials_provider(Credentials::new("AKID", "secret", None, None, "test"))
            .retry_config(RetryConfig::disabled())
            .http_client(http_client_fn(move |_, _| connector.clone()));
        if let Some(url) = endpoint_url {
            builder = builder.endpoint_url(url);
        }
        (Client::from_conf(builder.build()), sent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_probe_reads_the_endpoint_the_client_would_use_and_sends_nothing() {
        let cases = [
            (None, "https://dynamodb.eu-west-1.amazonaws.com/"),
            (Some("http://127.0.0.1:8000"), "http://127.0.0.1:8000/"),
            (Some("http://localhost:9"), "http://localhost:9/"),
        ];
        for (flag, want) in cases {
            let (client, sent) = recording::client(flag);
            assert_eq!(resolve(&client).await.as_deref(), Ok(want), "{flag:?}");
            assert!(
                sent.lock().unwrap().is_empty(),
                "{flag:?}: something was sent"
            );
        }
    }

    #[test]
    fn loopback_hosts() {
        for (url, want) in [
            ("http://localhost:8000/", Some(true)),
            ("http://LOCALHOST/", Some(true)),
            ("http://127.3.2.1:1/", Some(true)),
            ("http://[::1]:8000/", Some(true)),
            ("https://dynamodb.eu-west-1.amazonaws.com/", Some(false)),
            ("http://localhost.example.com/", Some(false)),
            ("http://10.0.0.1/", Some(false)),
            ("data:text/plain,x", None),
        ] {
            assert_eq!(is_loopback(&url::Url::parse(url).unwrap()), want, "{url}");
        }
    }
}
