//! A fake DynamoDB endpoint on 127.0.0.1 that answers every request from a script, for what
//! DynamoDB Local never sends: error messages with escape sequences, numbers that are not
//! numbers, a ListTables that never advances. HTTP/1.1 with Content-Length bodies, kept alive.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// Status and JSON body for an operation (`ListTables`, `Scan`, …) and its request body.
pub type Script = dyn Fn(&str, &str) -> (u16, String) + Send + Sync;

/// Writes a whole HTTP response for an operation and its request body itself (headers that
/// lie, endless bodies); returns whether the connection stays open.
pub type RawScript = dyn Fn(&str, &str, &mut TcpStream) -> bool + Send + Sync;

enum Handler {
    Json(Arc<Script>),
    Raw(Arc<RawScript>),
}

impl Clone for Handler {
    fn clone(&self) -> Self {
        match self {
            Handler::Json(s) => Handler::Json(s.clone()),
            Handler::Raw(s) => Handler::Raw(s.clone()),
        }
    }
}

pub struct FakeDynamo {
    pub endpoint: String,
    /// Operations in the order they arrived.
    pub operations: Arc<Mutex<Vec<String>>>,
}

impl FakeDynamo {
    pub fn start(script: impl Fn(&str, &str) -> (u16, String) + Send + Sync + 'static) -> Self {
        Self::serving(Handler::Json(Arc::new(script)))
    }

    /// A server whose script writes the raw response.
    pub fn start_raw(
        script: impl Fn(&str, &str, &mut TcpStream) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self::serving(Handler::Raw(Arc::new(script)))
    }

    fn serving(script: Handler) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let operations = Arc::new(Mutex::new(Vec::new()));
        let ops = operations.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (script, ops) = (script.clone(), ops.clone());
                std::thread::spawn(move || serve(stream, script, &ops));
            }
        });
        FakeDynamo {
            endpoint,
            operations,
        }
    }

    pub fn requests(&self, operation: &str) -> usize {
        let ops = self.operations.lock().unwrap();
        ops.iter().filter(|o| *o == operation).count()
    }
}

fn serve(stream: TcpStream, script: Handler, ops: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let (mut length, mut target) = (0usize, String::new());
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                match name.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap_or(0),
                    "x-amz-target" => target = value.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let operation = target.rsplit('.').next().unwrap_or_default().to_string();
        ops.lock().unwrap().push(operation.clone());
        let script = match &script {
            Handler::Json(script) => script,
            Handler::Raw(raw) => {
                if raw(&operation, &String::from_utf8_lossy(&body), &mut writer) {
                    continue;
                }
                return;
            }
        };
        let (status, reply) = script(&operation, &String::from_utf8_lossy(&body));
        let response = format!(
            "HTTP/1.1 {status} Fake\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\n\r\n{reply}",
            reply.len()
        );
        if writer.write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}

/// A DynamoDB JSON-protocol error body.
pub fn error(code: &str, message: &str) -> (u16, String) {
    let body = serde_json::json!({
        "__type": format!("com.amazonaws.dynamodb.v20120810#{code}"),
        "message": message,
    });
    (400, body.to_string())
}
