//! Issue 31, the explorer's session-wide guard, counted through the fault proxy: `--max-rcu`
//! before the table guards every read of the session. A `Ctrl-S` key sample past it is refused
//! with a line naming the budget and sends nothing; one within it is sent, counted by the
//! session's guard; the strongly consistent re-read after a refused write is admitted by the
//! same guard, counted, and not sent once the budget is spent.

use crate::common;
use crate::common::fault_proxy;

use common::*;
use dynoscope::aws::write::{AuditLog, WriteBackend, WriteFailure, Writer};
use dynoscope::aws::{
    connect, ConnectOptions, DoneOutcome, Engine, EngineEvent, Operation, Page, ReadCause,
    ReadSpec, SessionGuard,
};
use dynoscope::model::design::schema::{KeyAttr, KeySchema, KeyType};
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::write::plan_edit;
use fault_proxy::{FaultConfig, FaultProxy};
use std::sync::OnceLock;

fn demo() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| seeded_demo(60))
}

/// The `Limit` a request body asks for.
fn limit_of(body: &str) -> Option<u64> {
    let rest = &body[body.find("\"Limit\":")? + 8..];
    rest[..rest.find(|c: char| !c.is_ascii_digit())?]
        .parse()
        .ok()
}

/// Closes the form (one Esc at a time: an Esc written with the next key reads as Alt) and quits.
fn quit(s: &mut common::pty::Session) {
    for _ in 0..3 {
        s.keys("\u{1b}");
        s.settle(
            std::time::Duration::from_millis(300),
            std::time::Duration::from_secs(3),
        );
    }
    s.wait_for("the form closed", |sc| !sc.contains("EXPLAIN"));
    s.keys("q");
    assert!(s.wait_exit().success());
}

fn item_reads(proxy: &FaultProxy) -> usize {
    proxy.requests("Scan") + proxy.requests("Query")
}

#[test]
fn a_key_sample_past_the_explorer_sessions_budget_is_refused_and_sends_nothing() {
    use common::pty::Session;
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let mut s = Session::spawn(
        &["--endpoint-url", &proxy.url, "--max-rcu", "0.5", demo()],
        &[],
        40,
        120,
    );
    s.wait_for("the opening scan", |sc| sc.contains("Scan · 1 page ·"));
    // The opening page was admitted by the session's guard: sized to its half unit.
    let body = proxy.bodies("Scan").pop().unwrap();
    assert_eq!(limit_of(&body), Some(1), "{body}");
    let opened = item_reads(&proxy);
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("U");
    s.wait_text("Ctrl-S sample 100 keys · ≈ ");
    s.keys("\u{13}");
    let screen = s.wait_text("not sampled");
    assert!(screen.contains("--max-rcu 0.5"), "{screen}");
    quit(&mut s);
    assert_eq!(item_reads(&proxy), opened, "{}", proxy.summary());
}

#[test]
fn a_key_sample_within_the_explorer_sessions_budget_is_sent() {
    use common::pty::Session;
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let mut s = Session::spawn(
        &["--endpoint-url", &proxy.url, "--max-rcu", "1000", demo()],
        &[],
        40,
        120,
    );
    s.wait_for("the opening scan", |sc| sc.contains("Scan · 1 page ·"));
    let opened = item_reads(&proxy);
    s.keys(":");
    s.wait_text("EXPLAIN");
    s.keys("U");
    s.wait_text("Ctrl-S sample 100 keys · ≈ ");
    s.keys("\u{13}");
    s.wait_text("sampling 100 keys of");
    s.wait_for("the sample sent", |_| item_reads(&proxy) == opened + 1);
    let body = proxy.bodies("Scan").pop().unwrap();
    assert!(body.contains("\"Limit\":100"), "{body}");
    quit(&mut s);
}

async fn engine(proxy: &FaultProxy, session: Option<SessionGuard>) -> Engine {
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        region: Some("us-east-1".into()),
        ..Default::default()
    })
    .await
    .unwrap();
    Engine::new(&conn).with_session_guard(session)
}

/// The read `Ctrl-S` sends: one keys-only page of 100.
fn key_sample() -> ReadSpec {
    let mut spec = ReadSpec::new(Operation::Scan, demo(), ReadCause::KeySample);
    spec.names = vec![("#kp".into(), "PK".into())];
    spec.projection = Some("#kp".into());
    spec.page_size = Some(100);
    spec.limit = Some(100);
    spec.budget.max_pages = Some(1);
    spec
}

async fn read(engine: &Engine, spec: ReadSpec) -> (Vec<Page>, DoneOutcome) {
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let handle = engine.start_read(spec, tx);
    let (mut pages, mut outcome) = (Vec::new(), None);
    while let Some(event) = rx.recv().await {
        match event {
            EngineEvent::Page(p) => pages.push(p),
            EngineEvent::Done { outcome: o, .. } => outcome = Some(o),
            EngineEvent::Failed { error, .. } => panic!("{error}"),
            _ => {}
        }
    }
    handle.join().await;
    (pages, outcome.unwrap())
}

#[tokio::test]
async fn a_key_sample_is_counted_by_the_sessions_guard_and_a_spent_session_sends_no_more() {
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let session = SessionGuard::new(Some(300.0), None).unwrap();
    let e = engine(&proxy, Some(session.clone())).await;
    let (pages, outcome) = read(&e, key_sample()).await;
    assert_eq!(outcome, DoneOutcome::LimitReached, "its 100 keys");
    assert_eq!(proxy.requests("Scan"), 1);
    let spent: f64 = pages.iter().map(|p| p.consumed.total).sum();
    assert!(spent > 0.0);
    assert_eq!(
        session.spent(),
        spent,
        "the session's guard counted the sample"
    );

    // A session whose budget the sample spends: the next sample is not sent.
    let tight = SessionGuard::new(Some(0.5), None).unwrap();
    let e = engine(&proxy, Some(tight.clone())).await;
    let (pages, _) = read(&e, key_sample()).await;
    assert_eq!(pages.len(), 1);
    assert!(tight.spent() >= 0.5, "{}", tight.spent());
    let before = proxy.requests("Scan");
    let (pages, outcome) = read(&e, key_sample()).await;
    assert!(pages.is_empty());
    assert_eq!(outcome, DoneOutcome::BudgetReached);
    assert_eq!(proxy.requests("Scan"), before, "{}", proxy.summary());
}

fn keys() -> KeySchema {
    let key = |name: &str| KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    };
    KeySchema::simple(key("PK"), Some(key("SK")))
}

async fn put(table: &str, item: &Item) {
    client()
        .await
        .put_item()
        .table_name(table)
        .set_item(Some(dynoscope::aws::convert::item_to_sdk(item)))
        .send()
        .await
        .unwrap();
}

/// An edit of `pk` made from an image another writer has since changed: a refused write.
async fn stale_edit(table: &str, pk: &str) -> dynoscope::model::write::WritePlan {
    let s = |v: &str| AttrValue::S(v.into());
    let loaded = Item::from_attrs(vec![
        ("PK".into(), s(pk)),
        ("SK".into(), s("A")),
        ("status".into(), s("LOADED")),
    ]);
    let mut theirs = loaded.clone();
    theirs.insert("status", s("THEIRS"));
    put(table, &theirs).await;
    let mut mine = loaded.clone();
    mine.insert("status", s("MINE"));
    plan_edit(table, &keys(), &loaded, &mine, None).unwrap()
}

#[tokio::test]
async fn the_re_read_after_a_refused_write_is_counted_by_the_session_and_refused_once_spent() {
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        ..Default::default()
    })
    .await
    .unwrap();
    let session = SessionGuard::new(Some(0.5), None).unwrap();
    let w =
        Writer::new(&conn, AuditLog::in_dir(dir.path())).with_session_guard(Some(session.clone()));

    // The first conflict's re-read fits: it is sent, strongly consistent, and counted.
    match w.write(stale_edit(&table, "GUARD#1").await).await {
        Err(WriteFailure::Conflict { current, .. }) => {
            assert_eq!(
                current.and_then(|i| i.get("status").cloned()),
                Some(AttrValue::S("THEIRS".into()))
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.requests("GetItem"), 1, "{}", proxy.summary());
    let body = proxy.bodies("GetItem").pop().unwrap();
    assert!(body.contains("\"ConsistentRead\":true"), "{body}");
    assert!(session.spent() >= 0.5, "counted: {}", session.spent());

    // The budget is spent: the second conflict's re-read is not sent, and the failure says
    // which budget refused it. Nothing is written either way.
    match w.write(stale_edit(&table, "GUARD#2").await).await {
        Err(WriteFailure::Failed { error, .. }) => {
            assert!(
                error.message.contains("nothing was written"),
                "{}",
                error.message
            );
            assert!(error.message.contains("--max-rcu 0.5"), "{}", error.message);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.requests("GetItem"), 1, "{}", proxy.summary());
    assert_eq!(proxy.requests("UpdateItem"), 2, "{}", proxy.summary());
}

/// The explorer's flags given before a subcommand would guard nothing: refused, never ignored.
#[test]
fn the_session_flags_before_a_subcommand_are_refused() {
    let out = run_raw(
        &[
            "--endpoint-url",
            &local().endpoint,
            "--max-rcu",
            "1",
            "scan",
            demo(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--max-rcu before the subcommand guards the explorer"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
}
