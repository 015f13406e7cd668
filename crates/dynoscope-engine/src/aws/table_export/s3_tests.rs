use super::*;

#[test]
fn s3_urls() {
    let ok = |t: &str| parse_url(t).unwrap().unwrap();
    assert_eq!(ok("s3://b"), ("b".into(), "".into()));
    assert_eq!(ok("s3://b/"), ("b".into(), "".into()));
    assert_eq!(
        ok("S3://b/p/AWSDynamoDB/01/"),
        ("b".into(), "p/AWSDynamoDB/01/".into())
    );
    assert_eq!(ok("s3://b/p"), ("b".into(), "p/".into()));
    assert!(parse_url("/tmp/export").is_none());
    assert!(parse_url("exports/s3://x").is_none());
    let err = parse_url("s3:///p").unwrap().unwrap_err().0;
    assert!(
        err.contains("'s3:///p'") && err.contains("s3://BUCKET"),
        "{err}"
    );
}

#[test]
fn a_denial_names_the_permission_with_or_without_an_error_code() {
    use aws_sdk_s3::operation::get_object::GetObjectError;
    use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
    use aws_smithy_types::body::SdkBody;
    use aws_smithy_types::error::ErrorMetadata;
    let answer = |status: u16, code: Option<&str>| {
        let mut meta = ErrorMetadata::builder().message("Access Denied");
        if let Some(code) = code {
            meta = meta.code(code);
        }
        let raw = HttpResponse::new(status.try_into().unwrap(), SdkBody::empty());
        SdkError::service_error(GetObjectError::generic(meta.build()), raw)
    };
    // A HEAD answer has no body, so no code: its status tells.
    for e in [answer(403, Some("AccessDenied")), answer(403, None)] {
        let line = failure(&e, "s3:GetObject", "'s3://b/k'");
        assert!(
            line.starts_with("these credentials are not allowed 's3:GetObject' on 's3://b/k'"),
            "{line}"
        );
    }
    let line = failure(&answer(503, Some("SlowDown")), "s3:GetObject", "'s3://b/k'");
    assert_eq!(line, "cannot read 's3://b/k': SlowDown: Access Denied");
}
