//! dynoscope's one HTTPS client (`dynoscope_engine::aws::https`: hyper 1 and rustls over ring,
//! the system's trust store or `SSL_CERT_FILE`) against a TLS server other than its own: Python's
//! OpenSSL in front of DynamoDB Local (`https/tls_proxy.py`), with a `localhost` certificate of
//! the test CA in `https/` (valid to 2126). Every AWS endpoint is HTTPS, so this is the path a
//! real table is read through: a TLS 1.3 and a TLS 1.2 handshake both carry requests, and a
//! certificate the trust store does not vouch for is refused with one line.

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

use common::*;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/integration/https")
        .join(name)
}

/// The TLS front: killed with the test; its stdin, held here, ends it if the test binary dies.
struct TlsFront {
    child: Child,
    endpoint: String,
}

impl Drop for TlsFront {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TLS server of the given version on a free port, in front of the shared DynamoDB Local.
fn tls_front(version: &str) -> TlsFront {
    let upstream = local()
        .endpoint
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_string();
    let mut child = Command::new("python3")
        .arg(fixture("tls_proxy.py"))
        .arg(fixture("localhost.pem"))
        .arg(fixture("localhost.key"))
        .arg(&upstream)
        .arg(version)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python3 runs the TLS front");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("no port: {line:?}"));
    TlsFront {
        child,
        endpoint: format!("https://localhost:{port}"),
    }
}

fn tables_through(front: &TlsFront, trust: Option<&PathBuf>) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .args(["--endpoint-url", &front.endpoint, "tables"])
        .stdin(Stdio::null());
    match trust {
        Some(ca) => cmd.env("SSL_CERT_FILE", ca),
        // An empty trust store: nothing vouches for the test CA, as on a machine without it.
        None => cmd.env("SSL_CERT_FILE", "/dev/null"),
    };
    cmd.env_remove("SSL_CERT_DIR").output().unwrap()
}

#[test]
fn requests_go_through_tls_1_3_and_1_2_with_the_certificate_verified() {
    let table = seeded_table();
    for version in ["1.3", "1.2"] {
        let front = tls_front(version);
        let names = ok(tables_through(&front, Some(&fixture("ca.pem"))));
        assert!(names.lines().any(|l| l == table), "TLS {version}: {names}");
    }
}

#[test]
fn a_certificate_the_trust_store_does_not_vouch_for_is_refused_in_one_line() {
    let front = tls_front("1.3");
    let out = tables_through(&front, None);
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        out.stdout.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for needle in [
        "invalid peer certificate: UnknownIssuer",
        "SSL_CERT_FILE",
        &front.endpoint,
    ] {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

/// A table in the shared DynamoDB Local, for `tables` to list.
fn seeded_table() -> String {
    let table = table_name("https");
    ok(run(&["seed", "--table", &table, "--users", "1"]));
    table
}
