//! A local S3 server for the tests: `moto_server` (moto[server] from PyPI, which
//! scripts/install-corpus-tools.sh installs into .cache/python-venv) started once per test
//! binary on a free port, as DynamoDB Local is (tests/integration/common/mod.rs), and dying with the test
//! process; and an upload of a folder (an export written by tests/integration/common/table_export.rs).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use aws_sdk_s3::config::{BehaviorVersion, Credentials, Region};

pub struct Moto {
    pub endpoint: String,
}

pub fn moto_server() -> PathBuf {
    match std::env::var_os("MOTO_SERVER") {
        Some(path) => PathBuf::from(path),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".cache/python-venv/bin/moto_server")
        }
    }
}

/// Starts moto_server once per test binary ([`super::server::start_server`]: on a port of its
/// own, dying with the test process).
pub fn moto() -> &'static Moto {
    static MOTO: OnceLock<Moto> = OnceLock::new();
    MOTO.get_or_init(|| {
        let server = moto_server();
        assert!(
            server.is_file(),
            "moto_server is not installed at {}; run: bash scripts/install-corpus-tools.sh",
            server.display()
        );
        let (port, _) = super::server::start_server("moto_server", move |port| {
            let mut cmd = Command::new(&server);
            cmd.args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            cmd
        });
        Moto {
            endpoint: format!("http://127.0.0.1:{port}"),
        }
    })
}

/// A client of the local S3 server (path-style: `bucket.127.0.0.1` names no host).
pub fn s3() -> aws_sdk_s3::Client {
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        // The SDK crates carry no default HTTP client: dynoscope's own (rustls over ring).
        .http_client(dynoscope_engine::aws::https::client())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("dummy", "dummy", None, None, "test"))
        .endpoint_url(&moto().endpoint)
        .force_path_style(true)
        .build();
    aws_sdk_s3::Client::from_conf(config)
}

/// Uploads every file below `root` to `s3://bucket/prefix<relative path>`, creating the bucket.
pub async fn upload(bucket: &str, root: &Path, prefix: &str) {
    let client = s3();
    let _ = client.create_bucket().bucket(bucket).send().await;
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let relative = path.strip_prefix(root).unwrap().to_string_lossy();
            client
                .put_object()
                .bucket(bucket)
                .key(format!("{prefix}{relative}"))
                .body(std::fs::read(&path).unwrap().into())
                .send()
                .await
                .unwrap();
        }
    }
}

/// Removes `s3://bucket/key`.
pub async fn delete(bucket: &str, key: &str) {
    s3().delete_object()
        .bucket(bucket)
        .key(key)
        .send()
        .await
        .unwrap();
}
