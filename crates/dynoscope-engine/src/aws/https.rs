//! The one HTTPS client every AWS SDK client of dynoscope sends through: hyper 1 and rustls 0.23
//! with the `ring` crypto provider, built the way the SDK builds its default client.
//!
//! The SDK's default client (`default-https-client`) is the same stack with `aws-lc-rs`, whose C
//! library (`aws-lc-sys`) was the third-largest unit of a release build and a large part of the
//! debug one (docs/benchmarks.md §17.8); `ring` does the same TLS 1.2/1.3 handshakes in a
//! fraction of the build. What is kept of the default: the system's trust store (and
//! `SSL_CERT_FILE`/`SSL_CERT_DIR`, which `rustls-native-certs` reads), the connector settings
//! and sleep the SDK hands each client (connect and read timeouts), and the `HTTPS_PROXY`/
//! `NO_PROXY` environment that the current behaviour version honours. Without the SDK's
//! default feature, a client given no HTTP client fails its first request, so every config of
//! dynoscope starts from `load_sdk_config` (which sets this one) or sets it itself.

use std::sync::LazyLock;

use aws_smithy_http_client::proxy::ProxyConfig;
use aws_smithy_http_client::tls::{self, rustls_provider::CryptoMode, TlsContext, TrustStore};
use aws_smithy_http_client::{Builder, ConnectorBuilder};
use aws_smithy_runtime_api::client::http::SharedHttpClient;

/// A new HTTPS client: rustls over `ring`, the system's roots, the proxy environment.
pub fn client() -> SharedHttpClient {
    Builder::new().build_with_connector_fn(|settings, runtime_components| {
        let mut connector = ConnectorBuilder::default()
            .tls_provider(tls::Provider::Rustls(CryptoMode::Ring))
            .tls_context(trust());
        connector.set_connector_settings(settings.cloned());
        if let Some(components) = runtime_components {
            connector.set_sleep_impl(components.sleep_impl());
        }
        connector.set_proxy_config(Some(ProxyConfig::from_env()));
        connector.build()
    })
}

/// The system's roots, when it has a usable one. With none (a container without
/// ca-certificates, or `SSL_CERT_FILE` naming no certificate), the SDK's debug builds stop on an
/// assertion; an empty store instead lets the handshake fail, and the request with it, with the
/// error line that names the certificate nobody vouches for.
fn trust() -> TlsContext {
    static USABLE_SYSTEM_ROOT: LazyLock<bool> = LazyLock::new(|| {
        let found = rustls_native_certs::load_native_certs().certs;
        rustls::RootCertStore::empty()
            .add_parsable_certificates(found)
            .0
            > 0
    });
    TlsContext::builder()
        .with_trust_store(TrustStore::default().with_native_roots(*USABLE_SYSTEM_ROOT))
        .build()
        .unwrap_or_default()
}
