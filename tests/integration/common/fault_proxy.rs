//! A fault-injecting HTTP/1.1 proxy in front of DynamoDB Local, for the reliability tests.
//!
//! It listens on 127.0.0.1:0, reads each request (request line, headers, Content-Length body),
//! decides with a seeded PRNG whether to fault it, and otherwise forwards it over a kept-alive
//! connection to the upstream endpoint and relays the response (Content-Length or chunked
//! body, re-sent with a Content-Length). Every request's operation (from `X-Amz-Target`) and
//! its fault, if any, are logged for the test to compare with what the client reports.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// 400 `ProvisionedThroughputExceededException`.
    ProvisionedThroughput,
    /// 400 `ThrottlingException`.
    Throttling,
    /// 500 `InternalServerError`.
    InternalServerError,
    /// 503 `ServiceUnavailable`.
    ServiceUnavailable,
    /// The request is read, then the connection is reset (SO_LINGER 0) without a response.
    Reset,
    /// The upstream response's headers with its full Content-Length, half the body, then close.
    Truncate,
    /// Wait `FaultConfig::delay` (longer than the client's timeout) before forwarding.
    Delay,
    /// 400 `LimitExceededException`: how DynamoDB Streams throttles GetRecords.
    LimitExceeded,
    /// 400 `ExpiredIteratorException`: a GetRecords iterator older than 15 minutes.
    ExpiredIterator,
}

impl Fault {
    pub const ALL: [Fault; 7] = [
        Fault::ProvisionedThroughput,
        Fault::Throttling,
        Fault::InternalServerError,
        Fault::ServiceUnavailable,
        Fault::Reset,
        Fault::Truncate,
        Fault::Delay,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Fault::ProvisionedThroughput => "ProvisionedThroughputExceeded",
            Fault::Throttling => "Throttling",
            Fault::InternalServerError => "InternalServerError500",
            Fault::ServiceUnavailable => "ServiceUnavailable503",
            Fault::Reset => "Reset",
            Fault::Truncate => "TruncatedBody",
            Fault::Delay => "Delay",
            Fault::LimitExceeded => "LimitExceeded",
            Fault::ExpiredIterator => "ExpiredIterator",
        }
    }

    /// Whether DynamoDB (and the client's throttle counter) call this a throttle.
    pub fn is_throttle(self) -> bool {
        matches!(
            self,
            Fault::ProvisionedThroughput | Fault::Throttling | Fault::LimitExceeded
        )
    }

    /// Status, error code and message of the error response this fault sends, if it sends one.
    fn error_response(self) -> Option<(u16, &'static str, &'static str, &'static str)> {
        Some(match self {
            Fault::ProvisionedThroughput => (
                400,
                "Bad Request",
                "ProvisionedThroughputExceededException",
                "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
            ),
            Fault::Throttling => (
                400,
                "Bad Request",
                "ThrottlingException",
                "Rate of requests exceeds the allowed throughput.",
            ),
            Fault::InternalServerError => (
                500,
                "Internal Server Error",
                "InternalServerError",
                "Internal server error (injected by the test proxy)",
            ),
            Fault::ServiceUnavailable => (
                503,
                "Service Unavailable",
                "ServiceUnavailable",
                "Service Unavailable (injected by the test proxy)",
            ),
            Fault::LimitExceeded => (
                400,
                "Bad Request",
                "LimitExceededException",
                "Too many requests for this stream (injected by the test proxy)",
            ),
            Fault::ExpiredIterator => (
                400,
                "Bad Request",
                "ExpiredIteratorException",
                "Iterator expired (injected by the test proxy)",
            ),
            _ => return None,
        })
    }
}

#[derive(Debug, Clone)]
pub struct FaultConfig {
    /// Share of eligible requests to fault, 0.0..=1.0.
    pub rate: f64,
    pub seed: u64,
    /// Chosen uniformly for each faulted request; empty means no faults.
    pub kinds: Vec<Fault>,
    /// Only these operations (e.g. `["Scan"]`) are eligible; `None` means all.
    pub operations: Option<Vec<String>>,
    /// The first `after` eligible requests pass untouched.
    pub after: usize,
    /// At most this many faults are injected; `None`: no limit.
    pub at_most: Option<usize>,
    /// How long `Fault::Delay` waits before forwarding.
    pub delay: Duration,
    /// `(reason, resource ARN)`s a throttle fault's body carries as its `ThrottlingReasons`.
    pub reasons: Vec<(String, String)>,
    /// Operations the proxy answers itself, always: status and awsJson1.0 body (what DynamoDB
    /// Local cannot say, e.g. Contributor Insights, or an AccessDeniedException).
    /// Each: operation, a text the request body must hold (if any), status and body.
    pub answers: Vec<(String, Option<String>, u16, String)>,
    /// Operations answered in turn from a list: the n-th request gets the n-th answer, and
    /// every later one the last (DescribeExport: IN_PROGRESS, then COMPLETED).
    pub sequences: Vec<(String, Vec<(u16, String)>)>,
    /// Operations whose successful responses get this many read units as their
    /// `ConsumedCapacity` when upstream sent none (DynamoDB Local's ExecuteStatement), as
    /// real DynamoDB reports it.
    pub consumed: Vec<(String, f64)>,
}

impl FaultConfig {
    /// No faults: a transparent, logging proxy.
    pub fn none() -> Self {
        FaultConfig {
            rate: 0.0,
            seed: 1,
            kinds: Vec::new(),
            operations: None,
            after: 0,
            at_most: None,
            delay: Duration::from_millis(2500),
            reasons: Vec::new(),
            answers: Vec::new(),
            sequences: Vec::new(),
            consumed: Vec::new(),
        }
    }

    /// `operation`'s successful responses that carry no `ConsumedCapacity` say `units`.
    pub fn report_consumed(mut self, operation: &str, units: f64) -> Self {
        self.consumed.push((operation.to_string(), units));
        self
    }

    /// Throttle faults say why, as DynamoDB does: `reason` on the resource `arn`.
    pub fn with_reason(mut self, reason: &str, arn: &str) -> Self {
        self.reasons.push((reason.to_string(), arn.to_string()));
        self
    }

    /// `operation` is answered with `status` and `body` instead of being forwarded.
    pub fn answer(mut self, operation: &str, status: u16, body: &str) -> Self {
        self.answers
            .push((operation.to_string(), None, status, body.to_string()));
        self
    }

    /// [`answer`](Self::answer) for the `operation` requests whose body holds `holding`
    /// (the first matching answer is given).
    pub fn answer_when(mut self, operation: &str, holding: &str, status: u16, body: &str) -> Self {
        self.answers.push((
            operation.to_string(),
            Some(holding.to_string()),
            status,
            body.to_string(),
        ));
        self
    }

    /// `operation` is answered with each of `answers` in turn, then the last one again.
    pub fn answer_in_turn(mut self, operation: &str, answers: &[(u16, &str)]) -> Self {
        let answers = answers.iter().map(|(s, b)| (*s, b.to_string())).collect();
        self.sequences.push((operation.to_string(), answers));
        self
    }

    /// `operation` is refused as an IAM policy without its permission refuses it.
    pub fn deny(self, operation: &str, permission: &str) -> Self {
        let body = format!(
            r#"{{"__type":"com.amazon.coral.service#AccessDeniedException","Message":"User: arn:aws:iam::123456789012:user/reader is not authorized to perform: {permission} on resource: arn:aws:dynamodb:us-east-1:123456789012:table/x because no identity-based policy allows the {permission} action"}}"#
        );
        self.answer(operation, 400, &body)
    }

    pub fn new(rate: f64, seed: u64, kinds: &[Fault]) -> Self {
        FaultConfig {
            rate,
            seed,
            kinds: kinds.to_vec(),
            ..FaultConfig::none()
        }
    }

    pub fn only(mut self, operations: &[&str]) -> Self {
        self.operations = Some(operations.iter().map(|s| s.to_string()).collect());
        self
    }

    pub fn at_most(mut self, n: usize) -> Self {
        self.at_most = Some(n);
        self
    }

    pub fn after(mut self, n: usize) -> Self {
        self.after = n;
        self
    }
}

/// One request the proxy received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// From `X-Amz-Target` (`DynamoDB_20120810.Scan` → `Scan`), `?` without one.
    pub operation: String,
    pub fault: Option<Fault>,
    /// The request's body (the JSON the client sent).
    pub body: String,
    /// The response's `ConsumedCapacity.CapacityUnits`, as the service wrote it (after any
    /// `report_consumed`): what the request log says the request cost.
    pub consumed: Option<String>,
    /// When the proxy had read the request: a rate test measures its windows by it.
    pub at: Instant,
    /// How long after `at` the proxy wrote a forwarded answer back to the client; `None` for
    /// a fault, a scripted answer, or an answer that never came.
    pub answered_in: Option<Duration>,
}

struct State {
    config: FaultConfig,
    rng: u64,
    eligible_seen: usize,
    log: Vec<Record>,
    /// Read and write units the forwarded responses reported (`ConsumedCapacity`), in all.
    consumed: f64,
}

impl State {
    /// splitmix64: small, good enough, and reproducible from the seed.
    fn next_u64(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn decide(&mut self, operation: &str) -> Option<Fault> {
        let eligible = self
            .config
            .operations
            .as_ref()
            .is_none_or(|ops| ops.iter().any(|o| o == operation));
        let mut fault = None;
        if eligible && !self.config.kinds.is_empty() {
            self.eligible_seen += 1;
            if self.eligible_seen > self.config.after {
                let roll = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                let pick = self.next_u64() as usize % self.config.kinds.len();
                let injected = self.log.iter().filter(|r| r.fault.is_some()).count();
                let spent = self.config.at_most.is_some_and(|n| injected >= n);
                if roll < self.config.rate && !spent {
                    fault = Some(self.config.kinds[pick]);
                }
            }
        }
        self.log.push(Record {
            operation: operation.to_string(),
            fault,
            body: String::new(),
            consumed: None,
            at: Instant::now(),
            answered_in: None,
        });
        fault
    }
}

pub struct FaultProxy {
    /// `http://127.0.0.1:PORT`, for `--endpoint-url`.
    pub url: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl FaultProxy {
    /// Starts a proxy forwarding to `upstream` (`http://127.0.0.1:PORT`).
    pub fn start(upstream: &str, config: FaultConfig) -> FaultProxy {
        let upstream = host_port(upstream);
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fault proxy");
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            rng: config.seed,
            config,
            eligible_seen: 0,
            log: Vec::new(),
            consumed: 0.0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (st, sp) = (state.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if sp.load(Ordering::Acquire) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (st, up) = (st.clone(), upstream.clone());
                std::thread::spawn(move || serve(conn, &st, &up));
            }
        });
        FaultProxy {
            url: format!("http://127.0.0.1:{port}"),
            state,
            stop,
            port,
        }
    }

    pub fn log(&self) -> Vec<Record> {
        self.state.lock().unwrap().log.clone()
    }

    /// The capacity units every forwarded response reported, in all: what the client was
    /// charged, as the service sees it.
    pub fn consumed_units(&self) -> f64 {
        self.state.lock().unwrap().consumed
    }

    /// The read units the responses to `operation` say they consumed, request by request.
    pub fn consumed(&self, operation: &str) -> Vec<f64> {
        self.log()
            .iter()
            .filter(|r| r.operation == operation)
            .map(|r| {
                r.consumed
                    .as_deref()
                    .and_then(|u| u.parse().ok())
                    .unwrap_or(0.0)
            })
            .collect()
    }

    /// When each request of `operation` arrived and the units its response reported.
    pub fn timed(&self, operation: &str) -> Vec<(Instant, f64)> {
        self.log()
            .iter()
            .filter(|r| r.operation == operation)
            .map(|r| {
                let units = r.consumed.as_deref().and_then(|u| u.parse().ok());
                (r.at, units.unwrap_or(0.0))
            })
            .collect()
    }

    pub fn clear_log(&self) {
        self.state.lock().unwrap().log.clear();
    }

    /// Requests received for `operation`, faulted or not.
    pub fn requests(&self, operation: &str) -> usize {
        self.log()
            .iter()
            .filter(|r| r.operation == operation)
            .count()
    }

    /// Faults injected into `operation` requests, by kind.
    pub fn faults(&self, operation: &str) -> BTreeMap<Fault, usize> {
        let mut by_kind = BTreeMap::new();
        for r in self.log().iter().filter(|r| r.operation == operation) {
            if let Some(f) = r.fault {
                *by_kind.entry(f).or_insert(0) += 1;
            }
        }
        by_kind
    }

    /// Requests of `operation` the proxy did not fault but answered `at_least` after receiving
    /// them, or never answered: a client whose attempt timeout is near `at_least` may have given
    /// up on them, so they need not have become pages.
    pub fn slow(&self, operation: &str, at_least: Duration) -> usize {
        self.log()
            .iter()
            .filter(|r| r.operation == operation && r.fault.is_none())
            .filter(|r| r.answered_in.is_none_or(|took| took >= at_least))
            .count()
    }

    pub fn faulted(&self, operation: &str) -> usize {
        self.faults(operation).values().sum()
    }

    pub fn throttles(&self, operation: &str) -> usize {
        self.faults(operation)
            .iter()
            .filter(|(f, _)| f.is_throttle())
            .map(|(_, n)| n)
            .sum()
    }

    /// The bodies of the `operation` requests received, in order.
    pub fn bodies(&self, operation: &str) -> Vec<String> {
        self.log()
            .into_iter()
            .filter(|r| r.operation == operation)
            .map(|r| r.body)
            .collect()
    }

    /// Requests per operation, in name order.
    pub fn operations(&self) -> BTreeMap<String, usize> {
        let mut ops = BTreeMap::new();
        for r in self.log() {
            *ops.entry(r.operation).or_insert(0) += 1;
        }
        ops
    }

    /// One line for the test output: requests per operation and faults per kind.
    pub fn summary(&self) -> String {
        let mut kinds: BTreeMap<Fault, usize> = BTreeMap::new();
        for r in self.log() {
            if let Some(f) = r.fault {
                *kinds.entry(f).or_insert(0) += 1;
            }
        }
        let kinds: Vec<String> = kinds
            .iter()
            .map(|(k, n)| format!("{}={n}", k.name()))
            .collect();
        format!(
            "requests {:?}; faults injected {{{}}}",
            self.operations(),
            kinds.join(", ")
        )
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// `host:port` of an `http://host:port` URL.
pub(super) fn host_port(url: &str) -> String {
    url.strip_prefix("http://")
        .expect("upstream is http://host:port")
        .trim_end_matches('/')
        .to_string()
}

pub(super) struct Request {
    pub(super) head: Vec<u8>,
    body: Vec<u8>,
    target: Option<String>,
}

pub(super) struct Response {
    status_line: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    pub(super) close: bool,
}

impl Response {
    /// Sends the whole response to the client: head, body, flushed.
    pub(super) fn send(&self, writer: &mut impl Write) -> io::Result<()> {
        writer.write_all(&self.head())?;
        writer.write_all(&self.body)?;
        writer.flush()
    }

    /// The response's status line and headers as sent to the client, with a Content-Length for
    /// its body.
    fn head(&self) -> Vec<u8> {
        let mut out = format!("{}\r\n", self.status_line);
        for (name, value) in &self.headers {
            let lower = name.to_ascii_lowercase();
            if matches!(
                lower.as_str(),
                "content-length" | "transfer-encoding" | "connection" | "keep-alive"
            ) {
                continue;
            }
            out.push_str(&format!("{name}: {value}\r\n"));
        }
        out.push_str(&format!("Content-Length: {}\r\n\r\n", self.body.len()));
        out.into_bytes()
    }
}

fn read_line(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    if reader.read_until(b'\n', &mut line)? == 0 {
        return Ok(None);
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

/// Header lines up to the blank line.
fn read_headers(reader: &mut impl BufRead) -> io::Result<Vec<(String, String)>> {
    let mut headers = Vec::new();
    loop {
        let line = read_line(reader)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        if line.is_empty() {
            return Ok(headers);
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn content_length(headers: &[(String, String)]) -> io::Result<Option<usize>> {
    header(headers, "content-length")
        .map(|v| {
            v.parse()
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad Content-Length"))
        })
        .transpose()
}

/// The next request on a client connection; `None` when the client closed it.
pub(super) fn read_request(reader: &mut impl BufRead) -> io::Result<Option<Request>> {
    let request_line = loop {
        match read_line(reader)? {
            None => return Ok(None),
            Some(l) if l.is_empty() => continue,
            Some(l) => break l,
        }
    };
    let headers = read_headers(reader)?;
    let mut body = vec![0; content_length(&headers)?.unwrap_or(0)];
    reader.read_exact(&mut body)?;
    let target = header(&headers, "x-amz-target").map(str::to_string);
    let mut head = format!("{request_line}\r\n");
    for (name, value) in &headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    Ok(Some(Request {
        head: head.into_bytes(),
        body,
        target,
    }))
}

fn read_response(reader: &mut impl BufRead) -> io::Result<Response> {
    let mut status_line;
    let mut headers;
    loop {
        status_line = read_line(reader)?.ok_or(io::ErrorKind::UnexpectedEof)?;
        headers = read_headers(reader)?;
        // Skip interim responses such as 100 Continue.
        if !status_line
            .split_whitespace()
            .nth(1)
            .is_some_and(|s| s.starts_with('1'))
        {
            break;
        }
    }
    let chunked = header(&headers, "transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let mut close = header(&headers, "connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    let body = if chunked {
        let mut body = Vec::new();
        loop {
            let size_line = read_line(reader)?.ok_or(io::ErrorKind::UnexpectedEof)?;
            let size = usize::from_str_radix(size_line.split(';').next().unwrap().trim(), 16)
                .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "bad chunk size"))?;
            if size == 0 {
                // Trailers, up to the blank line.
                read_headers(reader)?;
                break body;
            }
            let at = body.len();
            body.resize(at + size, 0);
            reader.read_exact(&mut body[at..])?;
            read_line(reader)?;
        }
    } else if let Some(len) = content_length(&headers)? {
        let mut body = vec![0; len];
        reader.read_exact(&mut body)?;
        body
    } else {
        close = true;
        let mut body = Vec::new();
        reader.read_to_end(&mut body)?;
        body
    };
    Ok(Response {
        status_line,
        headers,
        body,
        close,
    })
}

pub(super) struct Upstream {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Upstream {
    fn connect(addr: &str) -> io::Result<Upstream> {
        let stream = TcpStream::connect(addr)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(60)))?;
        Ok(Upstream {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        })
    }

    fn exchange(&mut self, req: &Request) -> io::Result<Response> {
        self.writer.write_all(&req.head)?;
        self.writer.write_all(&req.body)?;
        self.writer.flush()?;
        read_response(&mut self.reader)
    }
}

/// Sends `req` upstream, reusing the kept-alive connection; a stale one is replaced once.
pub(super) fn forward(
    upstream: &mut Option<Upstream>,
    addr: &str,
    req: &Request,
) -> io::Result<Response> {
    let reused = upstream.is_some();
    let mut conn = match upstream.take() {
        Some(c) => c,
        None => Upstream::connect(addr)?,
    };
    let response = match conn.exchange(req) {
        Ok(r) => r,
        Err(_) if reused => {
            conn = Upstream::connect(addr)?;
            conn.exchange(req)?
        }
        Err(e) => return Err(e),
    };
    if !response.close {
        *upstream = Some(conn);
    }
    Ok(response)
}

fn error_response(fault: Fault, reasons: &[(String, String)]) -> Vec<u8> {
    let (status, reason, code, message) = fault.error_response().expect("an error fault");
    // The SDK's model spells the member `throttlingReasons` on ThrottlingException and
    // `ThrottlingReasons` on the other two throttling errors.
    let member = match fault {
        Fault::Throttling => Some("throttlingReasons"),
        Fault::ProvisionedThroughput => Some("ThrottlingReasons"),
        _ => None,
    };
    let reasons = match member {
        Some(member) if !reasons.is_empty() => {
            let list: Vec<String> = reasons
                .iter()
                .map(|(r, arn)| format!(r#"{{"reason":"{r}","resource":"{arn}"}}"#))
                .collect();
            format!(r#","{member}":[{}]"#, list.join(","))
        }
        _ => String::new(),
    };
    let body = format!(
        r#"{{"__type":"com.amazonaws.dynamodb.v20120810#{code}","message":"{message}"{reasons}}}"#
    );
    raw_response(status, reason, code, &body)
}

fn raw_response(status: u16, reason: &str, code: &str, body: &str) -> Vec<u8> {
    let error_type = if code.is_empty() {
        String::new()
    } else {
        format!("x-amzn-ErrorType: {code}\r\n")
    };
    format!(
        "HTTP/1.1 {status} {reason}\r\n\
         Content-Type: application/x-amz-json-1.0\r\n\
         x-amzn-RequestId: FAULTPROXY{status}\r\n\
         {error_type}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// A response's `ConsumedCapacity.CapacityUnits`, as written.
fn record_units(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    Some(
        value
            .get("ConsumedCapacity")?
            .get("CapacityUnits")?
            .to_string(),
    )
}

/// Adds `"ConsumedCapacity"` to a successful JSON response that has none.
fn report_consumed(response: &mut Response, units: f64) {
    let ok = response.status_line.split_whitespace().nth(1) == Some("200");
    let text = String::from_utf8_lossy(&response.body).into_owned();
    if !ok || text.contains("\"ConsumedCapacity\"") || !text.starts_with('{') {
        return;
    }
    let field = format!(
        r#""ConsumedCapacity":{{"TableName":"t","CapacityUnits":{units},"Table":{{"CapacityUnits":{units}}}}}"#
    );
    let rest = &text[1..];
    let sep = if rest.trim_start().starts_with('}') {
        ""
    } else {
        ","
    };
    response.body = format!("{{{field}{sep}{rest}").into_bytes();
    // The checksum was of the upstream body.
    response
        .headers
        .retain(|(n, _)| !n.eq_ignore_ascii_case("x-amz-crc32"));
}

/// The `ConsumedCapacity` a successful response reports (`CapacityUnits`, or the sum of a
/// batch's list), as the client is told it.
fn reported_units(response: &Response) -> Option<f64> {
    if response.status_line.split_whitespace().nth(1) != Some("200") {
        return None;
    }
    let body: serde_json::Value = serde_json::from_slice(&response.body).ok()?;
    let units = |c: &serde_json::Value| c["CapacityUnits"].as_f64().unwrap_or(0.0);
    match &body["ConsumedCapacity"] {
        serde_json::Value::Array(list) => Some(list.iter().map(units).sum()),
        c @ serde_json::Value::Object(_) => Some(units(c)),
        _ => None,
    }
}

/// Closes with SO_LINGER 0, so the peer sees a reset instead of an orderly close.
fn reset(stream: &TcpStream) {
    use std::os::unix::io::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            &linger as *const libc::linger as *const libc::c_void,
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
}

/// A client connection as a buffered reader and a writer, with Nagle off (small answers go out
/// at once).
pub(super) fn split(client: TcpStream) -> Option<(BufReader<TcpStream>, TcpStream)> {
    let _ = client.set_nodelay(true);
    let read_half = client.try_clone().ok()?;
    Some((BufReader::new(read_half), client))
}

/// One client connection: requests in order until it closes or a fault ends it.
fn serve(client: TcpStream, state: &Mutex<State>, upstream_addr: &str) {
    let Some((mut reader, mut writer)) = split(client) else {
        return;
    };
    let mut upstream: Option<Upstream> = None;
    loop {
        let req = match read_request(&mut reader) {
            Ok(Some(r)) => r,
            _ => return,
        };
        let operation = req
            .target
            .as_deref()
            .and_then(|t| t.rsplit('.').next())
            .unwrap_or("?")
            .to_string();
        let (fault, delay, reasons, answer, consumed, at) = {
            let mut s = state.lock().unwrap();
            let body = String::from_utf8_lossy(&req.body);
            let served = s.log.iter().filter(|r| r.operation == operation).count();
            let in_turn = s
                .config
                .sequences
                .iter()
                .find(|(op, list)| op == &operation && !list.is_empty())
                .map(|(_, list)| list[served.min(list.len() - 1)].clone());
            let answer = in_turn.or_else(|| {
                s.config
                    .answers
                    .iter()
                    .find(|(op, holding, _, _)| {
                        op == &operation
                            && holding.as_ref().is_none_or(|h| body.contains(h.as_str()))
                    })
                    .map(|(_, _, status, body)| (*status, body.clone()))
            });
            let fault = if answer.is_some() {
                s.log.push(Record {
                    operation: operation.clone(),
                    fault: None,
                    body: String::new(),
                    consumed: None,
                    at: Instant::now(),
                    answered_in: None,
                });
                None
            } else {
                s.decide(&operation)
            };
            if let Some(last) = s.log.last_mut() {
                last.body = body.into_owned();
            }
            let consumed = s
                .config
                .consumed
                .iter()
                .find(|(op, _)| op == &operation)
                .map(|(_, units)| *units);
            (
                fault,
                s.config.delay,
                s.config.reasons.clone(),
                answer,
                consumed,
                s.log.len() - 1,
            )
        };
        if let Some((status, body)) = answer {
            let code = body
                .split("#")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or("");
            let text = if status == 200 { "OK" } else { "Bad Request" };
            if writer
                .write_all(&raw_response(status, text, code, &body))
                .is_err()
            {
                return;
            }
            continue;
        }
        match fault {
            Some(f) if f.error_response().is_some() => {
                if writer.write_all(&error_response(f, &reasons)).is_err() {
                    return;
                }
                continue;
            }
            Some(Fault::Reset) => {
                reset(&writer);
                return; // dropping both halves closes the socket: RST
            }
            Some(Fault::Delay) => std::thread::sleep(delay),
            _ => {}
        }
        let mut response = match forward(&mut upstream, upstream_addr, &req) {
            Ok(r) => r,
            Err(_) => {
                reset(&writer);
                return;
            }
        };
        if let Some(units) = consumed {
            report_consumed(&mut response, units);
        }
        if let Some(units) = reported_units(&response) {
            state.lock().unwrap().consumed += units;
        }
        if let Some(units) = record_units(&response.body) {
            // A log cleared meanwhile has no record of it to complete.
            if let Some(record) = state.lock().unwrap().log.get_mut(at) {
                record.consumed = Some(units);
            }
        }
        if fault == Some(Fault::Truncate) {
            let half = response.body.len() / 2;
            let _ = writer.write_all(&response.head());
            let _ = writer.write_all(&response.body[..half]);
            let _ = writer.flush();
            let _ = writer.shutdown(Shutdown::Write);
            // Let the client read what was sent before the socket goes away.
            std::thread::sleep(Duration::from_millis(50));
            return;
        }
        if let Some(record) = state.lock().unwrap().log.get_mut(at) {
            record.answered_in = Some(record.at.elapsed());
        }
        if response.send(&mut writer).is_err() || response.close {
            return;
        }
    }
}
