//! Refuses, before signing, every request that is not a read: installed on the read engine's
//! client, so the explorer and the subcommands cannot write through it whatever the code
//! above asks. Writes go through [`super::Writer`]'s own client only.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::BeforeTransmitInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::Intercept;
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::config_bag::ConfigBag;

/// The operations a reader sends.
pub const READ_OPERATIONS: &[&str] = &[
    "ListTables",
    "DescribeTable",
    "DescribeTimeToLive",
    "DescribeContributorInsights",
    "DescribeExport",
    "Query",
    "Scan",
    "GetItem",
];

/// ExecuteStatement reads only when its statement is one SELECT already spelled as dynoscope
/// re-renders it (no comment, single spaces): the body as signed is what is checked, so raw
/// text that DynamoDB's lexer could read otherwise than dynoscope's never leaves.
fn is_select_statement(operation: &str, context: &BeforeTransmitInterceptorContextRef<'_>) -> bool {
    if operation != "ExecuteStatement" {
        return false;
    }
    let Some(body) = context.request().body().bytes() else {
        return false;
    };
    serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v["Statement"]
                .as_str()
                .map(crate::model::query::partiql::is_sendable_read)
        })
        .unwrap_or(false)
}

#[derive(Debug)]
pub struct ReadOnly;

impl Intercept for ReadOnly {
    fn name(&self) -> &'static str {
        "dynoscope-read-only"
    }

    fn read_before_signing(
        &self,
        context: &BeforeTransmitInterceptorContextRef<'_>,
        _: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let operation = cfg.load::<Metadata>().map(|m| m.name()).unwrap_or("");
        if READ_OPERATIONS.contains(&operation) || is_select_statement(operation, context) {
            Ok(())
        } else {
            Err(format!(
                "refused to send {operation}: this client only reads; writes need --allow-writes"
            )
            .into())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::aws::endpoint::recording;
    use crate::aws::{Connection, Engine};

    /// The read engine's client refuses a write before anything is sent; reads go through.
    #[tokio::test]
    async fn the_read_engine_cannot_send_a_write() {
        let (client, sent) = recording::client(Some("http://127.0.0.1:9"));
        let engine = Engine::new(&Connection {
            client,
            streams: crate::aws::stream::client::unused_client(),
            cloudwatch: crate::aws::cloudwatch::unused_client(),
            endpoint: "http://127.0.0.1:9".into(),
            region: "us-east-1".into(),
            is_local: true,
        });
        let err = engine
            .client()
            .delete_item()
            .table_name("app")
            .key("PK", aws_sdk_dynamodb::types::AttributeValue::S("x".into()))
            .send()
            .await
            .unwrap_err();
        let text = crate::aws::error::chain(&err);
        assert!(text.contains("refused to send DeleteItem"), "{text}");
        assert!(sent.lock().unwrap().is_empty());
        let _ = engine.client().list_tables().send().await;
        assert_eq!(sent.lock().unwrap().len(), 1, "a read goes through");
        for write in [
            "UPDATE app SET a = 1 WHERE PK = 'x'",
            "/* */ DELETE FROM app WHERE PK = 'x'",
            // A SELECT to a lexer that ends `--` at LF only; an UPDATE to DynamoDB's.
            "--\rUPDATE \"app\" SET a = 666 WHERE PK = 'x' /*\nSELECT * FROM \"app\" */",
            // Raw text, even of a real SELECT, is not what a read-only path sends.
            "SELECT * FROM app -- a comment",
            "SELECT  *  FROM app",
            "SELECT * FROM app; DELETE FROM app WHERE PK = 'x'",
        ] {
            let err = engine
                .client()
                .execute_statement()
                .statement(write)
                .send()
                .await
                .unwrap_err();
            let text = crate::aws::error::chain(&err);
            assert!(text.contains("refused to send ExecuteStatement"), "{text}");
        }
        assert_eq!(sent.lock().unwrap().len(), 1, "no PartiQL write is sent");
        let _ = engine
            .client()
            .execute_statement()
            .statement("SELECT * FROM app")
            .send()
            .await;
        assert_eq!(
            sent.lock().unwrap().len(),
            2,
            "a PartiQL SELECT goes through"
        );
    }
}
