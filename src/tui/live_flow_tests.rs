//! The live pane end to end without a terminal: keys through `update`, `StartStream` through
//! the effect runner, the real stream engine reading a scripted in-memory stream through
//! `MemoryEngine`, its news back through `update`, ticks as the loop sends them, all under
//! paused time.

use std::time::Duration;

use crate::app::input::KeyCode;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::effects::EffectRunner;
use super::streams::StreamNews;
use crate::app::fixtures::{char, demo_info, demo_items, press, state};
use crate::app::live::fixtures::{live, mix};
use crate::app::msg::{Effect, Msg, TerminalEffect, TimeMsg};
use crate::app::state::{LiveStatus, State};
use crate::app::update::{start, update};
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::stream::describe::no_stream_message;
use crate::aws::stream::memory::{MemoryStream, Operation};
use crate::aws::{EngineEvent, MemoryEngine};
use crate::model::stream::warnings::WriteRule;

const SHARD: &str = "shardId-0001";

/// The demo table with its items and, when `stream`, a NEW_AND_OLD_IMAGES stream of one
/// open shard.
fn engine(stream: bool) -> MemoryEngine {
    let mut info = demo_info();
    let source = MemorySource::new(demo_items(), &["PK", "SK"]).with_script(|_| Step {
        latency: Duration::from_millis(5),
        fail: false,
    });
    if !stream {
        return MemoryEngine::new().with_table(info, source);
    }
    info.stream = Some("NEW_AND_OLD_IMAGES".into());
    let memory = MemoryStream::new();
    memory.open_shard(SHARD, None);
    MemoryEngine::new()
        .with_table(info, source)
        .with_stream("app", memory)
}

struct Harness {
    state: State,
    runner: EffectRunner<MemoryEngine>,
    engine_rx: mpsc::Receiver<EngineEvent>,
    msg_rx: mpsc::UnboundedReceiver<Msg>,
    stream_rx: mpsc::Receiver<StreamNews>,
    started: Instant,
}

impl Harness {
    fn new(engine: MemoryEngine) -> Harness {
        let (engine_tx, engine_rx) = mpsc::channel(64);
        let (msg_tx, msg_rx) = mpsc::unbounded_channel();
        let (stream_tx, stream_rx) = mpsc::channel(4);
        Harness {
            state: state(),
            runner: EffectRunner::new(engine, engine_tx, msg_tx).with_streams(stream_tx),
            engine_rx,
            msg_rx,
            stream_rx,
            started: Instant::now(),
        }
    }

    fn apply(&mut self, effects: Vec<Effect>) {
        let left = self.runner.apply(effects);
        assert!(
            left.iter()
                .all(|e| matches!(e, Effect::Terminal(TerminalEffect::Quit))),
            "terminal effects: {left:?}"
        );
    }

    fn send(&mut self, msgs: impl IntoIterator<Item = Msg>) {
        for msg in msgs {
            let effects = update(&mut self.state, msg);
            self.apply(effects);
        }
    }

    /// Runs the loop for `how_long` of paused time: every message to `update`, and a tick every
    /// 250 ms while the pane is open, as the terminal loop does.
    async fn run_for(&mut self, how_long: Duration) {
        let deadline = Instant::now() + how_long;
        let mut ticker = tokio::time::interval(Duration::from_millis(250));
        loop {
            let msg = tokio::select! {
                biased;
                _ = tokio::time::sleep_until(deadline) => return,
                Some(event) = self.engine_rx.recv() => Msg::Engine(event),
                Some((id, event)) = self.stream_rx.recv() => Msg::Stream { id, event },
                Some(msg) = self.msg_rx.recv() => msg,
                _ = ticker.tick() => {
                    if !self.state.live_open() {
                        continue;
                    }
                    Msg::Time(TimeMsg::Tick(self.started.elapsed().as_millis() as u64))
                }
            };
            self.send([msg]);
        }
    }

    /// `app` opened and its first page loaded.
    async fn opened(engine: MemoryEngine) -> Harness {
        let mut h = Harness::new(engine);
        let effects = start(&mut h.state, Some("app".into()));
        h.apply(effects);
        h.run_for(Duration::from_secs(1)).await;
        assert!(h.state.table.as_ref().unwrap().view.store.is_some());
        h
    }
}

#[tokio::test(start_paused = true)]
async fn w_follows_the_stream_and_the_hot_collection_rises_to_the_top() {
    let engine = engine(true);
    let stream = engine.stream("app").unwrap();
    let mut h = Harness::opened(engine).await;
    h.send([char('W')]);
    h.run_for(Duration::from_secs(1)).await;
    assert_eq!(live(&h.state).status, LiveStatus::Reading);
    assert_eq!(live(&h.state).shards, 1);
    assert_eq!(h.runner.running_streams(), 1);
    // Writes made after the pane opened: 150 of the mix, 60 of them to the celebrity.
    for n in 0..150 {
        stream.append(SHARD, mix(n));
    }
    h.run_for(Duration::from_secs(2)).await;
    let l = live(&h.state);
    let top = &l.summary.by_events[0];
    assert_eq!(top.key, "USER#celebrity");
    assert_eq!((top.events, top.events_error), (60, 0));
    assert!((top.event_share - 0.4).abs() < 1e-9);
    assert_eq!(l.summary.totals.events, 150);
    assert_eq!(l.shown_tail().len(), 150);
    assert!(l
        .summary
        .warnings
        .iter()
        .any(|w| w.rule == WriteRule::HotWriteKey && w.short.contains("'USER#celebrity'")));
    // The newest change is the last one written.
    assert_eq!(
        l.tail_row(0).unwrap().sequence_number,
        format!("{:021}", 1_000_000_000 + 149)
    );
}

#[tokio::test(start_paused = true)]
async fn pause_keeps_counting_and_follow_shows_one_collection() {
    let engine = engine(true);
    let stream = engine.stream("app").unwrap();
    let mut h = Harness::opened(engine).await;
    h.send([char('W')]);
    h.run_for(Duration::from_secs(1)).await;
    for n in 0..50 {
        stream.append(SHARD, mix(n));
    }
    h.run_for(Duration::from_secs(2)).await;
    h.send([char('p')]);
    for n in 50..130 {
        stream.append(SHARD, mix(n));
    }
    h.run_for(Duration::from_secs(2)).await;
    let l = live(&h.state);
    assert!(l.paused());
    assert_eq!(l.summary.totals.events, 50, "what is shown stands still");
    assert_eq!(l.shown_tail().len(), 50);
    assert_eq!(
        l.counted_while_paused(),
        80,
        "every record is counted meanwhile"
    );
    h.send([char('p')]);
    assert_eq!(
        live(&h.state).summary.totals.events,
        130,
        "nothing was lost"
    );
    // Follow the collection of the newest change (mix(129): a profile update of USER#u00032).
    h.send([char('f')]);
    for n in 130..200 {
        stream.append(SHARD, mix(n));
    }
    h.run_for(Duration::from_secs(2)).await;
    let l = live(&h.state);
    assert_eq!(l.follow.as_ref().unwrap().key, "USER#u00032");
    let keys: Vec<String> = l
        .shown_tail()
        .iter()
        .map(|c| l.collection_of(c).unwrap().into_owned())
        .collect();
    // Of the first 200 writes USER#u00032 takes mix(32) and mix(129) (n % 97 == 32).
    assert_eq!(keys, ["USER#u00032"; 2]);
    assert_eq!(l.stats.totals().events, 200);
}

#[tokio::test(start_paused = true)]
async fn esc_stops_the_stream_task_and_nothing_is_read_after() {
    let engine = engine(true);
    let stream = engine.stream("app").unwrap();
    let mut h = Harness::opened(engine).await;
    h.send([char('W')]);
    h.run_for(Duration::from_secs(2)).await;
    assert_eq!(h.runner.running_streams(), 1);
    h.send([press(KeyCode::Esc)]);
    h.run_for(Duration::from_secs(1)).await;
    assert!(!h.state.live_open());
    assert_eq!(h.runner.running_streams(), 0, "the stream task ended");
    let reads = stream.calls(Operation::GetRecords);
    stream.append(SHARD, mix(0));
    h.run_for(Duration::from_secs(30)).await;
    assert_eq!(
        stream.calls(Operation::GetRecords),
        reads,
        "no more polling"
    );
    // Opened again, it follows from now: the earlier write is not shown.
    h.send([char('W')]);
    h.run_for(Duration::from_secs(2)).await;
    stream.append(SHARD, mix(1));
    h.run_for(Duration::from_secs(2)).await;
    assert_eq!(live(&h.state).stats.totals().events, 1);
    assert_eq!(h.runner.running_streams(), 1);
    h.runner.shutdown().await;
}

#[tokio::test(start_paused = true)]
async fn a_table_without_a_stream_is_one_line_and_nothing_runs() {
    let mut h = Harness::opened(engine(false)).await;
    h.send([char('W')]);
    h.run_for(Duration::from_secs(1)).await;
    let message = no_stream_message("app");
    assert_eq!(
        live(&h.state).status,
        LiveStatus::Unavailable(message.clone())
    );
    assert_eq!(h.state.notice.as_ref().unwrap().text, message);
    assert_eq!(h.runner.running_streams(), 0);
}

#[tokio::test(start_paused = true)]
async fn live_opens_the_pane_as_soon_as_the_table_is_described() {
    let engine = engine(true);
    let stream = engine.stream("app").unwrap();
    let mut h = Harness::new(engine);
    h.state.open_live = true;
    let effects = start(&mut h.state, Some("app".into()));
    h.apply(effects);
    h.run_for(Duration::from_secs(1)).await;
    assert_eq!(live(&h.state).status, LiveStatus::Reading);
    stream.append(SHARD, mix(0));
    h.run_for(Duration::from_secs(1)).await;
    assert_eq!(live(&h.state).stats.totals().events, 1);
    // Quitting shuts the runner down; every task has ended when it returns.
    h.send([char('q')]);
    assert!(h.state.quit);
    h.runner.shutdown().await;
}
