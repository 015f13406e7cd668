//! The streams the explorer follows (the live pane), run by the effect runner: each is one task
//! that describes the table for its stream, starts the stream engine, and passes its events on,
//! tagged with the stream's id, over one bounded channel to the terminal loop. A slow loop
//! parks the task, which parks the engine's shard readers: memory stays bounded. Stopping
//! cancels the task and the engine, and waits for nothing: the task ends on its own, and
//! [`StreamTasks::shutdown`] waits for every one.

use std::collections::HashMap;

use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::app::msg::StreamMsg;
use crate::aws::stream::{StreamEvent, StreamStart};
use crate::aws::Backend;

/// GetRecords pages (up to 1,000 changes each) the engine may queue ahead of its task.
const ENGINE_PAGES: usize = 2;

/// A stream's news with its id, as the terminal loop receives it.
pub type StreamNews = (u64, StreamMsg);

#[derive(Default)]
pub struct StreamTasks {
    tx: Option<mpsc::Sender<StreamNews>>,
    tasks: HashMap<u64, (CancellationToken, JoinHandle<()>)>,
}

impl StreamTasks {
    /// News goes to `tx`; without one, streams cannot start.
    pub fn new(tx: Option<mpsc::Sender<StreamNews>>) -> Self {
        StreamTasks {
            tx,
            tasks: HashMap::new(),
        }
    }

    pub fn start<B: Backend>(&mut self, engine: &B, id: u64, table: String, from: StreamStart) {
        self.tasks.retain(|_, (_, task)| !task.is_finished());
        let Some(tx) = self.tx.clone() else {
            return;
        };
        let cancel = CancellationToken::new();
        let task = tokio::spawn(follow(engine.clone(), id, table, from, tx, cancel.clone()));
        self.tasks.insert(id, (cancel, task));
    }

    pub fn stop(&mut self, id: u64) {
        if let Some((cancel, _)) = self.tasks.get(&id) {
            cancel.cancel();
        }
    }

    /// Streams started and not yet stopped on their own or by `stop`.
    pub fn running(&self) -> usize {
        self.tasks
            .values()
            .filter(|(_, task)| !task.is_finished())
            .count()
    }

    /// Stops every stream and waits until each task (and its engine) has ended.
    pub async fn shutdown(self) {
        for (cancel, _) in self.tasks.values() {
            cancel.cancel();
        }
        for (_, (_, task)) in self.tasks {
            let _ = task.await;
        }
    }
}

/// Sends `msg` unless cancelled first; `false` when the news can no longer be delivered.
async fn deliver(
    tx: &mpsc::Sender<StreamNews>,
    cancel: &CancellationToken,
    id: u64,
    msg: StreamMsg,
) -> bool {
    tokio::select! {
        biased;
        _ = cancel.cancelled() => false,
        sent = tx.send((id, msg)) => sent.is_ok(),
    }
}

async fn follow<B: Backend>(
    engine: B,
    id: u64,
    table: String,
    from: StreamStart,
    tx: mpsc::Sender<StreamNews>,
    cancel: CancellationToken,
) {
    let described = tokio::select! {
        biased;
        _ = cancel.cancelled() => return,
        d = engine.stream_table(&table) => d,
    };
    let target = match described {
        Ok(target) => target,
        Err(e) => {
            deliver(&tx, &cancel, id, StreamMsg::Unavailable(e.message)).await;
            return;
        }
    };
    let found = StreamMsg::Found {
        view_type: target.view_type,
        timeline: target.timeline,
    };
    if !deliver(&tx, &cancel, id, found).await {
        return;
    }
    let (engine_tx, mut engine_rx) = mpsc::channel(ENGINE_PAGES);
    let handle = engine.start_stream(&target, from, engine_tx);
    loop {
        let event = tokio::select! {
            biased;
            _ = cancel.cancelled() => break,
            event = engine_rx.recv() => event,
        };
        let Some(event) = event else { break };
        let last = matches!(event, StreamEvent::Done { .. } | StreamEvent::Failed { .. });
        if !deliver(&tx, &cancel, id, StreamMsg::Event(event)).await || last {
            break;
        }
    }
    handle.cancel();
    // Dropped first: a shard reader parked on a full channel gets its send refused and stops.
    drop(engine_rx);
    handle.join().await;
}
