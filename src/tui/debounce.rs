//! A debounce timer: each poke replaces the pending one, and only the last fires, after a
//! quiet `delay`. Completion samples wait for a pause in typing instead of firing per keystroke.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use crate::app::msg::{Msg, TimeMsg};

pub struct Debouncer {
    tx: UnboundedSender<Msg>,
    pending: Option<JoinHandle<()>>,
}

impl Debouncer {
    pub fn new(tx: UnboundedSender<Msg>) -> Self {
        Debouncer { tx, pending: None }
    }

    pub fn poke(&mut self, generation: u64, delay: Duration) {
        if let Some(pending) = self.pending.take() {
            pending.abort();
        }
        let tx = self.tx.clone();
        // The deadline counts from the poke, not from when the timer task first runs.
        let deadline = tokio::time::Instant::now() + delay;
        self.pending = Some(tokio::spawn(async move {
            tokio::time::sleep_until(deadline).await;
            let _ = tx.send(Msg::Time(TimeMsg::Debounced(generation)));
        }));
    }
}

impl Drop for Debouncer {
    fn drop(&mut self) {
        if let Some(pending) = self.pending.take() {
            pending.abort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::sync::mpsc;

    async fn settle() {
        // Let spawned timers observe the advanced clock.
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test(start_paused = true)]
    async fn only_the_last_poke_fires_after_a_quiet_delay() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut d = Debouncer::new(tx);
        let delay = Duration::from_millis(250);
        d.poke(1, delay);
        tokio::time::advance(Duration::from_millis(200)).await;
        settle().await;
        d.poke(2, delay);
        tokio::time::advance(Duration::from_millis(249)).await;
        settle().await;
        assert!(
            rx.try_recv().is_err(),
            "nothing fires before a quiet 250 ms"
        );
        tokio::time::advance(Duration::from_millis(1)).await;
        settle().await;
        assert!(matches!(
            rx.try_recv(),
            Ok(Msg::Time(TimeMsg::Debounced(2)))
        ));
        tokio::time::advance(Duration::from_secs(5)).await;
        settle().await;
        assert!(rx.try_recv().is_err(), "the replaced timer never fires");
    }

    #[tokio::test(start_paused = true)]
    async fn dropping_cancels_the_pending_timer() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut d = Debouncer::new(tx);
        d.poke(7, Duration::from_millis(10));
        drop(d);
        tokio::time::advance(Duration::from_secs(1)).await;
        settle().await;
        assert!(rx.try_recv().is_err());
    }
}
