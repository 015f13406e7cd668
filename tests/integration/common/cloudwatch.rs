//! A scripted CloudWatch for the tests: an HTTP/1.1 server on 127.0.0.1:0 that speaks the
//! Smithy rpc-v2-cbor protocol the SDK sends (`POST /service/GraniteServiceVersion20100801/
//! operation/NAME`, `smithy-protocol: rpc-v2-cbor`, CBOR bodies, timestamps as tag 1 epoch
//! seconds) and answers `GetMetricData` (paged by `NextToken`) and `GetInsightRuleReport` from
//! scripted series, so the SDK's own request building, pagination and parsing run.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use ciborium::Value;

const PREFIX: &str = "/service/GraniteServiceVersion20100801/operation/";

/// One series: its metric, dimensions and statistic, and a value per period from the start.
#[derive(Debug, Clone)]
pub struct Series {
    pub metric: String,
    pub dimensions: BTreeMap<String, String>,
    pub stat: String,
    pub values: Vec<f64>,
}

/// A rule's scripted report: its whole count, and each contributor's key values and count.
pub type RuleScript = (f64, Vec<(Vec<String>, f64)>);

#[derive(Debug, Clone, Default)]
pub struct Script {
    pub series: Vec<Series>,
    /// Rule name → (the rule's whole count, contributors: key values and count).
    pub rules: BTreeMap<String, RuleScript>,
    /// Results per GetMetricData page (0: all in one page).
    pub page_size: usize,
    /// Operations answered with an AccessDeniedException.
    pub denied: BTreeSet<String>,
}

impl Script {
    pub fn series(
        mut self,
        metric: &str,
        dims: &[(&str, &str)],
        stat: &str,
        values: &[f64],
    ) -> Self {
        self.series.push(Series {
            metric: metric.into(),
            dimensions: dims
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            stat: stat.into(),
            values: values.to_vec(),
        });
        self
    }

    pub fn rule(mut self, name: &str, total: f64, top: &[(&[&str], f64)]) -> Self {
        let top = top
            .iter()
            .map(|(keys, n)| (keys.iter().map(|k| k.to_string()).collect(), *n))
            .collect();
        self.rules.insert(name.into(), (total, top));
        self
    }

    /// GSI1 of `table` consuming 20 WCU/s of 100 provisioned while its writes throttle on a
    /// hot key range (50 events a minute), over `minutes` one-minute points from the
    /// window's start: a hot GSI key, now when the points reach the window's end.
    pub fn gsi1_write_storm(self, table: &str, minutes: usize) -> Self {
        let gsi = [("TableName", table), ("GlobalSecondaryIndexName", "GSI1")];
        self.series(
            "ConsumedWriteCapacityUnits",
            &gsi,
            "Sum",
            &vec![1200.0; minutes],
        )
        .series(
            "ProvisionedWriteCapacityUnits",
            &gsi,
            "Average",
            &vec![100.0; minutes],
        )
        .series("WriteThrottleEvents", &gsi, "Sum", &vec![50.0; minutes])
        .series(
            "WriteKeyRangeThroughputThrottleEvents",
            &gsi,
            "Sum",
            &vec![50.0; minutes],
        )
    }

    pub fn pages_of(mut self, n: usize) -> Self {
        self.page_size = n;
        self
    }

    pub fn deny(mut self, operation: &str) -> Self {
        self.denied.insert(operation.into());
        self
    }
}

/// One request received.
#[derive(Debug, Clone)]
pub struct Received {
    pub operation: String,
    /// The `smithy-protocol` header.
    pub protocol: Option<String>,
    /// GetMetricData: the queries asked for, and the NextToken sent.
    pub queries: usize,
    pub next_token: Option<String>,
}

pub struct CloudWatch {
    /// `http://127.0.0.1:PORT`, for `AWS_ENDPOINT_URL_CLOUDWATCH`.
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl CloudWatch {
    pub fn start(script: Script) -> CloudWatch {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the scripted CloudWatch");
        let url = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let received = Arc::new(Mutex::new(Vec::new()));
        let (log, script) = (received.clone(), Arc::new(script));
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let (log, script) = (log.clone(), script.clone());
                std::thread::spawn(move || serve(conn, &script, &log));
            }
        });
        CloudWatch { url, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn text(v: &str) -> Value {
    Value::Text(v.to_string())
}

fn get<'a>(map: &'a Value, key: &str) -> Option<&'a Value> {
    match map {
        Value::Map(entries) => entries
            .iter()
            .find(|(k, _)| k.as_text() == Some(key))
            .map(|(_, v)| v),
        _ => None,
    }
}

fn seconds(v: &Value) -> f64 {
    match v {
        Value::Tag(1, inner) => seconds(inner),
        Value::Float(f) => *f,
        Value::Integer(i) => i128::from(*i) as f64,
        other => panic!("not a timestamp: {other:?}"),
    }
}

fn timestamp(secs: f64) -> Value {
    Value::Tag(1, Box::new(Value::Float(secs)))
}

fn str_of(v: Option<&Value>) -> String {
    v.and_then(Value::as_text).unwrap_or_default().to_string()
}

/// The result of one MetricDataQuery: its scripted series, or none.
fn result_for(script: &Script, query: &Value, start: f64) -> Value {
    let id = str_of(get(query, "Id"));
    let stat = get(query, "MetricStat").expect("MetricStat");
    let metric = get(stat, "Metric").expect("Metric");
    let period = match get(stat, "Period") {
        Some(Value::Integer(i)) => i128::from(*i) as f64,
        other => panic!("Period: {other:?}"),
    };
    let dims: BTreeMap<String, String> = match get(metric, "Dimensions") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|d| (str_of(get(d, "Name")), str_of(get(d, "Value"))))
            .collect(),
        _ => BTreeMap::new(),
    };
    let name = str_of(get(metric, "MetricName"));
    assert_eq!(str_of(get(metric, "Namespace")), "AWS/DynamoDB");
    let wanted = str_of(get(stat, "Stat"));
    let found = script
        .series
        .iter()
        .find(|s| s.metric == name && s.dimensions == dims && s.stat == wanted);
    let values = found.map(|s| s.values.clone()).unwrap_or_default();
    let times = (0..values.len())
        .map(|i| timestamp(start + period * i as f64))
        .collect();
    Value::Map(vec![
        (text("Id"), text(&id)),
        (text("Label"), text(&name)),
        (text("Timestamps"), Value::Array(times)),
        (
            text("Values"),
            Value::Array(values.into_iter().map(Value::Float).collect()),
        ),
        (text("StatusCode"), text("Complete")),
    ])
}

fn metric_data(script: &Script, body: &Value) -> (Value, usize, Option<String>) {
    let queries = match get(body, "MetricDataQueries") {
        Some(Value::Array(q)) => q.clone(),
        other => panic!("MetricDataQueries: {other:?}"),
    };
    let start = seconds(get(body, "StartTime").expect("StartTime"));
    let token = get(body, "NextToken")
        .and_then(Value::as_text)
        .map(str::to_string);
    let page: usize = token
        .as_deref()
        .map(|t| t.strip_prefix("page-").expect("our token").parse().unwrap())
        .unwrap_or(0);
    let size = if script.page_size == 0 {
        queries.len().max(1)
    } else {
        script.page_size
    };
    let from = page * size;
    let results: Vec<Value> = queries
        .iter()
        .skip(from)
        .take(size)
        .map(|q| result_for(script, q, start))
        .collect();
    let mut out = vec![(text("MetricDataResults"), Value::Array(results))];
    if from + size < queries.len() {
        out.push((text("NextToken"), text(&format!("page-{}", page + 1))));
    }
    (Value::Map(out), queries.len(), token)
}

fn rule_report(script: &Script, body: &Value) -> Option<Value> {
    let name = str_of(get(body, "RuleName"));
    let (total, top) = script.rules.get(&name)?;
    let contributors = top
        .iter()
        .map(|(keys, n)| {
            Value::Map(vec![
                (
                    text("Keys"),
                    Value::Array(keys.iter().map(|k| text(k)).collect()),
                ),
                (text("ApproximateAggregateValue"), Value::Float(*n)),
                (text("Datapoints"), Value::Array(Vec::new())),
            ])
        })
        .collect();
    Some(Value::Map(vec![
        (text("KeyLabels"), Value::Array(vec![text("PK")])),
        (text("AggregationStatistic"), text("Sum")),
        (text("AggregateValue"), Value::Float(*total)),
        (
            text("ApproximateUniqueCount"),
            Value::Integer((top.len() as i64).into()),
        ),
        (text("Contributors"), Value::Array(contributors)),
    ]))
}

fn respond(out: &mut TcpStream, status: u16, body: &Value) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    ciborium::ser::into_writer(body, &mut bytes).unwrap();
    let reason = if status == 200 { "OK" } else { "Bad Request" };
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/cbor\r\nsmithy-protocol: rpc-v2-cbor\r\nx-amzn-RequestId: SCRIPTED\r\nContent-Length: {}\r\n\r\n",
        bytes.len()
    )?;
    out.write_all(&bytes)?;
    out.flush()
}

fn error(code: &str, message: &str) -> Value {
    Value::Map(vec![
        (text("__type"), text(code)),
        (text("message"), text(message)),
    ])
}

fn serve(conn: TcpStream, script: &Script, log: &Mutex<Vec<Received>>) {
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut out = conn;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let (mut length, mut protocol) = (0usize, None);
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
                    "smithy-protocol" => protocol = Some(value.trim().to_string()),
                    _ => {}
                }
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let operation = path.strip_prefix(PREFIX).unwrap_or(&path).to_string();
        let value: Value = if body.is_empty() {
            Value::Map(Vec::new())
        } else {
            ciborium::de::from_reader(&body[..]).expect("a CBOR body")
        };
        let mut received = Received {
            operation: operation.clone(),
            protocol,
            queries: 0,
            next_token: None,
        };
        let sent = if script.denied.contains(&operation) {
            respond(
                &mut out,
                400,
                &error(
                    "AccessDeniedException",
                    &format!("User: arn:aws:iam::123456789012:user/reader is not authorized to perform: cloudwatch:{operation}"),
                ),
            )
        } else {
            match operation.as_str() {
                "GetMetricData" => {
                    let (answer, queries, token) = metric_data(script, &value);
                    received.queries = queries;
                    received.next_token = token;
                    respond(&mut out, 200, &answer)
                }
                "GetInsightRuleReport" => match rule_report(script, &value) {
                    Some(answer) => respond(&mut out, 200, &answer),
                    None => respond(
                        &mut out,
                        400,
                        &error("ResourceNotFoundException", "no such rule"),
                    ),
                },
                _ => respond(
                    &mut out,
                    400,
                    &error("UnknownOperationException", &operation),
                ),
            }
        };
        log.lock().unwrap().push(received);
        if sent.is_err() {
            return;
        }
    }
}
