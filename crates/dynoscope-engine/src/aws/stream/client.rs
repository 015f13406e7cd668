//! The DynamoDB Streams client, built from the same configuration as the DynamoDB client: the
//! same profile, region, credentials (including the local fallback), retry and timeouts.

use aws_config::SdkConfig;
use aws_credential_types::Credentials;

/// `dynamodb`: the DynamoDB client's configuration; `local_fallback`: it was given the dummy
/// credentials DynamoDB Local accepts (no credentials were found for a local endpoint; the
/// SDK cannot hand a client's credentials provider on). `flag`: `--endpoint-url`; `endpoint`: the
/// DynamoDB endpoint configured by the flag or the environment, if any. DynamoDB Local serves
/// Streams on the same port, and aws-config would otherwise look for
/// `AWS_ENDPOINT_URL_DYNAMODB_STREAMS` only: a tail of a local table must not go to AWS. That
/// variable still wins over `AWS_ENDPOINT_URL_DYNAMODB` (not over the flag) when set.
pub fn streams_client(
    sdk_config: &SdkConfig,
    dynamodb: &aws_sdk_dynamodb::Config,
    local_fallback: bool,
    flag: Option<&str>,
    endpoint: Option<&str>,
) -> aws_sdk_dynamodbstreams::Client {
    let mut builder = aws_sdk_dynamodbstreams::config::Builder::from(sdk_config);
    builder.set_region(dynamodb.region().cloned());
    builder.push_interceptor(crate::aws::response_cap::interceptor(&[]));
    if local_fallback {
        // The same dummy key as the DynamoDB client's (see super::super::connect).
        builder.set_credentials_provider(Some(
            aws_credential_types::provider::SharedCredentialsProvider::new(Credentials::new(
                "dynoscopelocal",
                "dynoscopelocal",
                None,
                None,
                "dynoscope-local-fallback",
            )),
        ));
    }
    let own = std::env::var("AWS_ENDPOINT_URL_DYNAMODB_STREAMS")
        .ok()
        .filter(|v| !v.is_empty());
    let url = match (flag, own) {
        (Some(flag), _) => Some(flag),
        (None, Some(_)) => None,
        (None, None) => endpoint,
    };
    if let Some(url) = url {
        builder.set_endpoint_url(Some(url.to_string()));
    }
    aws_sdk_dynamodbstreams::Client::from_conf(builder.build())
}

/// A Streams client that is never called, for tests that build a `Connection` by hand.
#[cfg(test)]
pub(crate) fn unused_client() -> aws_sdk_dynamodbstreams::Client {
    aws_sdk_dynamodbstreams::Client::from_conf(
        aws_sdk_dynamodbstreams::Config::builder()
            .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
            .region(aws_sdk_dynamodbstreams::config::Region::new("us-east-1"))
            .build(),
    )
}
