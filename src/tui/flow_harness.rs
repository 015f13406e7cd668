//! A whole explorer without a terminal, for flow tests: keys through `update`, effects through
//! the runner, reads through the in-memory engine (the real coordinator, segments and
//! capacity guard), events back through `update`, under paused time.

use std::time::Duration;

use tokio::sync::mpsc;

use super::effects::EffectRunner;
use crate::app::fixtures::{demo_info, demo_items, state};
use crate::app::msg::{Effect, Msg, TerminalEffect};
use crate::app::state::State;
use crate::app::update::update;
use crate::aws::read::memory::{MemorySource, Step};
use crate::aws::{EngineEvent, MemoryEngine};

/// The demo table, its items in key order, each request 5 ms.
pub fn engine() -> MemoryEngine {
    let mut items = demo_items();
    items.sort_by_key(|i| {
        let s = |k: &str| i.get(k).and_then(|v| v.as_s()).unwrap_or("").to_string();
        (s("PK"), s("SK"))
    });
    let source = MemorySource::new(items, &["PK", "SK"]).with_script(|_| Step {
        latency: Duration::from_millis(5),
        fail: false,
    });
    MemoryEngine::new().with_table(demo_info(), source)
}

pub struct Harness {
    pub state: State,
    pub runner: EffectRunner<MemoryEngine>,
    pub engine_rx: mpsc::Receiver<EngineEvent>,
    pub msg_rx: mpsc::UnboundedReceiver<Msg>,
}

impl Harness {
    pub fn new(engine: MemoryEngine) -> Harness {
        let (engine_tx, engine_rx) = mpsc::channel(64);
        let (msg_tx, msg_rx) = mpsc::unbounded_channel();
        Harness {
            state: state(),
            runner: EffectRunner::new(engine, engine_tx, msg_tx),
            engine_rx,
            msg_rx,
        }
    }

    pub fn apply(&mut self, effects: Vec<Effect>) {
        let left = self.runner.apply(effects);
        assert!(
            left.iter()
                .all(|e| matches!(e, Effect::Terminal(TerminalEffect::Copy(_)))),
            "terminal effects: {left:?}"
        );
    }

    pub fn send(&mut self, msgs: impl IntoIterator<Item = Msg>) {
        for msg in msgs {
            let effects = update(&mut self.state, msg);
            self.apply(effects);
        }
    }

    /// Feeds engine events and background results to `update` until nothing runs or waits.
    pub async fn settle(&mut self) {
        loop {
            tokio::select! {
                Some(event) = self.engine_rx.recv() => self.send([Msg::Engine(event)]),
                Some(msg) = self.msg_rx.recv() => self.send([msg]),
                _ = tokio::time::sleep(Duration::from_secs(30)) => {
                    assert_eq!(self.runner.running_reads(), 0, "a read never ended");
                    return;
                }
            }
        }
    }
}
