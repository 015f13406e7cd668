//! A known mix of writes for the stream tests, what the stream must show for it, and helpers to
//! run `dynoscope tail`/`hotkeys --writes` as child processes while the mix is written.
//!
//! Every write changes the item (`v` is the write's number), because DynamoDB writes no stream
//! record for a write that leaves an item as it was.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::{AttributeValue, StreamViewType};
use aws_sdk_dynamodb::Client;

pub const HOT_KEY: &str = "USER#hot";
pub const HOT_GSI_KEY: &str = "STATUS#PENDING";
/// `hotkeys --writes` and `diagnose --sample-writes` in a debug build end their window a
/// second after this many changes were counted (`cli/hotkeys_writes.rs`).
pub const WINDOW_ENDS_AFTER: &str = "DYNOSCOPE_TEST_WINDOW_ENDS_AFTER";

#[derive(Debug, Clone)]
pub enum Op {
    Put {
        pk: String,
        sk: String,
        v: u64,
        gsi: String,
    },
    /// UpdateItem SET v, GSI1PK, GSI1SK (creating the item when it is missing).
    Update {
        pk: String,
        sk: String,
        v: u64,
        gsi: String,
    },
    Delete {
        pk: String,
        sk: String,
    },
}

/// One change the stream must show: item key, event, and `v` of the image that has it (the
/// new one, or the old one for REMOVE).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seen {
    pub pk: String,
    pub sk: String,
    pub event: String,
    pub v: u64,
}

/// What a table holds, for working out the events a mix makes.
#[derive(Debug, Default, Clone)]
pub struct Model {
    items: BTreeMap<(String, String), (u64, String)>,
}

/// What the stream must show for a mix.
#[derive(Debug, Default)]
pub struct Expected {
    /// In write order.
    pub changes: Vec<Seen>,
    /// Changes per table partition key.
    pub by_pk: BTreeMap<String, u64>,
    /// Changes per GSI1 partition key (a change moving an item between keys counts for both).
    pub by_gsi: BTreeMap<String, u64>,
}

impl Expected {
    pub fn per_item(&self) -> BTreeMap<(String, String), Vec<(String, u64)>> {
        per_item(&self.changes)
    }
}

pub fn per_item(changes: &[Seen]) -> BTreeMap<(String, String), Vec<(String, u64)>> {
    let mut m: BTreeMap<(String, String), Vec<(String, u64)>> = BTreeMap::new();
    for c in changes {
        m.entry((c.pk.clone(), c.sk.clone()))
            .or_default()
            .push((c.event.clone(), c.v));
    }
    m
}

/// `n` writes numbered from `first`: a fifth to the hot key, a tenth to items under the hot
/// GSI key, the rest updates (and some deletes) spread over 40 users.
pub fn mix(model: &Model, first: u64, n: u64) -> Vec<Op> {
    let mut exists = model.clone();
    let mut ops = Vec::new();
    for i in first..first + n {
        let op = match i % 10 {
            0 | 5 => Op::Put {
                pk: HOT_KEY.into(),
                sk: if i % 20 == 0 {
                    "PROFILE".into()
                } else {
                    format!("ORDER#{:03}", i % 7)
                },
                v: i,
                gsi: HOT_GSI_KEY.into(),
            },
            3 => Op::Put {
                pk: format!("USER#g{}", i % 13),
                sk: "ORDER#x".into(),
                v: i,
                gsi: HOT_GSI_KEY.into(),
            },
            7 => {
                let pk = format!("USER#u{}", (i * 3) % 40);
                let key = (pk.clone(), "PROFILE".to_string());
                if exists.items.contains_key(&key) {
                    Op::Delete {
                        pk,
                        sk: "PROFILE".into(),
                    }
                } else {
                    Op::Update {
                        pk,
                        sk: "PROFILE".into(),
                        v: i,
                        gsi: format!("STATUS#OTHER#{}", i % 9),
                    }
                }
            }
            _ => Op::Update {
                pk: format!("USER#u{}", (i * 7) % 40),
                sk: "PROFILE".into(),
                v: i,
                gsi: format!("STATUS#OTHER#{}", i % 9),
            },
        };
        exists.apply(&op, &mut Expected::default());
        ops.push(op);
    }
    ops
}

impl Model {
    /// Applies `op`, adding the change it makes to `expected`.
    pub fn apply(&mut self, op: &Op, expected: &mut Expected) {
        let (pk, sk) = match op {
            Op::Put { pk, sk, .. } | Op::Update { pk, sk, .. } | Op::Delete { pk, sk } => {
                (pk.clone(), sk.clone())
            }
        };
        let key = (pk.clone(), sk.clone());
        let old = self.items.get(&key).cloned();
        let (event, v, new_gsi) = match op {
            Op::Put { v, gsi, .. } | Op::Update { v, gsi, .. } => {
                self.items.insert(key, (*v, gsi.clone()));
                let event = if old.is_some() { "MODIFY" } else { "INSERT" };
                (event, *v, Some(gsi.clone()))
            }
            Op::Delete { .. } => {
                self.items.remove(&key);
                let (v, _) = old.clone().expect("deletes only existing items");
                ("REMOVE", v, None)
            }
        };
        *expected.by_pk.entry(pk.clone()).or_default() += 1;
        let old_gsi = old.map(|(_, g)| g);
        let mut gsis: Vec<String> = old_gsi.into_iter().chain(new_gsi).collect();
        gsis.dedup();
        for g in gsis {
            *expected.by_gsi.entry(g).or_default() += 1;
        }
        expected.changes.push(Seen {
            pk,
            sk,
            event: event.into(),
            v,
        });
    }
}

/// Writes `ops` one after another (so each item's changes happen in this order).
pub async fn write(client: &Client, table: &str, ops: &[Op]) {
    for op in ops {
        match op {
            Op::Put { pk, sk, v, gsi } => {
                client
                    .put_item()
                    .table_name(table)
                    .item("PK", AttributeValue::S(pk.clone()))
                    .item("SK", AttributeValue::S(sk.clone()))
                    .item("v", AttributeValue::N(v.to_string()))
                    .item("GSI1PK", AttributeValue::S(gsi.clone()))
                    .item("GSI1SK", AttributeValue::S(format!("{v:08}")))
                    .send()
                    .await
                    .expect("put");
            }
            Op::Update { pk, sk, v, gsi } => {
                client
                    .update_item()
                    .table_name(table)
                    .key("PK", AttributeValue::S(pk.clone()))
                    .key("SK", AttributeValue::S(sk.clone()))
                    .update_expression("SET v = :v, GSI1PK = :g, GSI1SK = :s")
                    .expression_attribute_values(":v", AttributeValue::N(v.to_string()))
                    .expression_attribute_values(":g", AttributeValue::S(gsi.clone()))
                    .expression_attribute_values(":s", AttributeValue::S(format!("{v:08}")))
                    .send()
                    .await
                    .expect("update");
            }
            Op::Delete { pk, sk } => {
                client
                    .delete_item()
                    .table_name(table)
                    .key("PK", AttributeValue::S(pk.clone()))
                    .key("SK", AttributeValue::S(sk.clone()))
                    .send()
                    .await
                    .expect("delete");
            }
        }
    }
}

/// A table with PK/SK, GSI1 on GSI1PK/GSI1SK, and a stream of `view` (none: no stream).
pub async fn create_table(client: &Client, table: &str, view: Option<StreamViewType>) {
    use crate::common::tables::{s, TableSpec};
    TableSpec::pk_sk(table)
        .gsi(
            "GSI1",
            s("GSI1PK"),
            Some(s("GSI1SK")),
            aws_sdk_dynamodb::types::ProjectionType::All,
        )
        .stream(view)
        .create(client)
        .await;
}

/// One `tail` output line as what the stream showed.
pub fn seen(line: &serde_json::Value) -> Seen {
    let image = if line["event"] == "REMOVE" {
        &line["old_image"]
    } else {
        &line["new_image"]
    };
    Seen {
        pk: line["keys"]["PK"].as_str().expect("PK").into(),
        sk: line["keys"]["SK"].as_str().expect("SK").into(),
        event: line["event"].as_str().expect("event").into(),
        v: image["v"].as_u64().expect("v"),
    }
}

/// The binary running as a child process, its output read by threads as it comes.
pub struct Running {
    child: Child,
    stderr: mpsc::Receiver<String>,
    stderr_seen: Vec<String>,
    stdout: std::thread::JoinHandle<String>,
}

impl Running {
    pub fn spawn(endpoint: &str, args: &[&str]) -> Running {
        Running::spawn_with(endpoint, args, &[])
    }

    /// [`spawn`](Self::spawn) with extra environment (another service's endpoint).
    pub fn spawn_with(endpoint: &str, args: &[&str], env: &[(&str, &str)]) -> Running {
        let mut cmd = Command::new(crate::common::bin());
        crate::common::aws_env(&mut cmd).envs(env.iter().copied());
        cmd.arg("--endpoint-url")
            .arg(endpoint)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("spawn dynoscope");
        let mut out = child.stdout.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        });
        let (tx, rx) = mpsc::channel();
        let err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Running {
            child,
            stderr: rx,
            stderr_seen: Vec::new(),
            stdout,
        }
    }

    /// Waits for a stderr line containing `needle`.
    pub fn wait_for(&mut self, needle: &str, timeout: Duration) {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.stderr_seen.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!(
                        "no stderr line with '{needle}' within {timeout:?}: {:?}",
                        self.stderr_seen
                    );
                }
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the exit (killing the child after `timeout`); returns status, stdout, stderr.
    pub fn finish(mut self, timeout: Duration) -> (ExitStatus, String, String) {
        let end = Instant::now() + timeout;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "dynoscope did not finish within {timeout:?}; stderr so far: {:?}",
                    self.stderr_seen
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let stdout = self.stdout.join().unwrap();
        let mut stderr = self.stderr_seen;
        while let Ok(line) = self.stderr.recv_timeout(Duration::from_secs(2)) {
            stderr.push(line);
        }
        (status, stdout, stderr.join("\n"))
    }
}
