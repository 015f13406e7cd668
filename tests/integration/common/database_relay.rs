//! A test module's own database in a shared DynamoDB Local.
//!
//! Started without `-sharedDb`, DynamoDB Local keeps one in-memory database per access key and
//! region of the requests' SigV4 scope, each with its own stream records. This relay sits
//! between one test module and its shared instance and rewrites every request's scope to the
//! module's key and `us-east-1`, so whatever credentials or region a test's clients sign with
//! (dummy keys, an SSO profile's, none and the local fallback, boto3's), they reach one
//! database, the module's, as they reached the one database `-sharedDb` gave them. It forwards
//! everything else as it came (DynamoDB Local does not check signatures), reusing the fault
//! proxy's HTTP reading and forwarding.

use std::net::{TcpListener, TcpStream};

use super::fault_proxy::{forward, host_port, read_request, split, Upstream};

/// Starts a relay to `upstream` (`http://127.0.0.1:PORT`) that signs every request in the
/// database of access key `key` (letters and digits: DynamoDB Local refuses anything else);
/// gives its `http://127.0.0.1:PORT`. It lives as long as the test process.
pub fn start(upstream: &str, key: &str) -> String {
    assert!(
        !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric()),
        "DynamoDB Local takes letters and digits as an access key, not {key:?}"
    );
    let upstream = host_port(upstream);
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind the database relay");
    let port = listener.local_addr().unwrap().port();
    let key = key.to_string();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let (upstream, key) = (upstream.clone(), key.clone());
            std::thread::spawn(move || serve(conn, &upstream, &key));
        }
    });
    format!("http://127.0.0.1:{port}")
}

fn serve(client: TcpStream, upstream_addr: &str, key: &str) {
    let Some((mut reader, mut writer)) = split(client) else {
        return;
    };
    let mut upstream: Option<Upstream> = None;
    while let Ok(Some(mut req)) = read_request(&mut reader) {
        req.head = in_database(&req.head, key);
        let Ok(response) = forward(&mut upstream, upstream_addr, &req) else {
            return;
        };
        if response.send(&mut writer).is_err() || response.close {
            return;
        }
    }
}

/// The request head with its Authorization's `Credential=KEY/DATE/REGION/SERVICE/aws4_request`
/// made `Credential=key/DATE/us-east-1/SERVICE/aws4_request`.
fn in_database(head: &[u8], key: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(head);
    let mut out = String::with_capacity(text.len() + key.len());
    for line in text.split_inclusive("\r\n") {
        match line.find("Credential=") {
            Some(at) if line.to_ascii_lowercase().starts_with("authorization:") => {
                let start = at + "Credential=".len();
                let scope_end = line[start..]
                    .find([',', ' ', '\r'])
                    .map_or(line.len(), |n| start + n);
                let scope: Vec<&str> = line[start..scope_end].split('/').collect();
                out.push_str(&line[..start]);
                match scope.as_slice() {
                    [_, date, _, service, rest @ ..] => {
                        out.push_str(&format!("{key}/{date}/us-east-1/{service}"));
                        for part in rest {
                            out.push('/');
                            out.push_str(part);
                        }
                    }
                    _ => out.push_str(&line[start..scope_end]),
                }
                out.push_str(&line[scope_end..]);
            }
            _ => out.push_str(line),
        }
    }
    out.into_bytes()
}

#[test]
fn the_scope_gets_the_modules_key_and_region_and_nothing_else_changes() {
    let head = "POST / HTTP/1.1\r\nhost: 127.0.0.1:1\r\nauthorization: AWS4-HMAC-SHA256 Credential=ASIASSO/20261205/eu-west-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=ab12\r\nx-amz-target: DynamoDB_20120810.ListTables\r\n\r\n";
    let out = String::from_utf8(in_database(head.as_bytes(), "mod42")).unwrap();
    assert_eq!(
        out,
        head.replace("ASIASSO/20261205/eu-west-1/", "mod42/20261205/us-east-1/")
    );
    let none = "GET / HTTP/1.1\r\nhost: x\r\n\r\n";
    assert_eq!(
        String::from_utf8(in_database(none.as_bytes(), "k")).unwrap(),
        none
    );
}
