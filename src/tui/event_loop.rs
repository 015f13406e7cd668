//! The one loop that owns the terminal. It selects over terminal input, engine events and
//! background results, applies them through the pure `update`, draws, and performs the effects
//! `update` asks for. Nothing here awaits AWS: work is spawned and its result comes back as a
//! message.
//!
//! Input is drawn at once; what only streams in (pages, ticks) is drawn at most once per
//! `FRAME_INTERVAL`. Drawing after every batch of a full-speed scan sent the terminal hundreds
//! of frames a second, which cost the terminal's CPU and this loop's, and delayed keys (a real
//! pty measurement: keypress-to-frame p99 23 ms while streaming, before the cap).

use std::io;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::sync::mpsc;

use super::clipboard::SystemClipboard;
use super::effects::EffectRunner;
use super::input;
use super::services::Services;
use super::signals::{EndedBy, ExplorerSignals, SignalEvent};
use super::terminal::{self, Term};
use crate::app::msg::{Effect, FileEffect, Msg, TerminalEffect, TimeMsg, WriteEffect, WriteMsg};
use crate::app::state::State;
use crate::app::update::{start, update};
use crate::aws::write::WriteBackend;
use crate::aws::Backend;
use crate::ui;

/// Pages the engine may queue ahead of the UI; a slow UI slows the scan instead of growing memory.
const ENGINE_CHANNEL: usize = 64;
/// A followed stream's news (GetRecords pages of up to 1,000 changes) queued ahead of the UI.
const STREAM_CHANNEL: usize = 4;
/// Queued messages are applied for at most this long before drawing again, so a fast stream
/// draws once per batch but a keypress still reaches the screen within a frame.
pub const BATCH_BUDGET: std::time::Duration = std::time::Duration::from_millis(4);
const MAX_BATCH: usize = 256;
/// Streamed changes reach the screen at most this often (60 frames a second).
pub const FRAME_INTERVAL: std::time::Duration = std::time::Duration::from_micros(16_667);

/// What the terminal's own effects need besides the terminal.
struct TerminalSide {
    clipboard: SystemClipboard,
    /// Where the editor's result goes (`Msg::Write(WriteMsg::Edited)`).
    edited_tx: mpsc::UnboundedSender<Msg>,
}

/// Performs the effects only the terminal can; returns true when the explorer should quit.
fn terminal_effects(
    effects: Vec<Effect>,
    terminal: &mut Term,
    side: &mut TerminalSide,
    signals: &mut ExplorerSignals,
) -> io::Result<bool> {
    let clipboard = &mut side.clipboard;
    let mut quit = false;
    for effect in effects {
        match effect {
            Effect::Write(WriteEffect::Edit { edit, text }) => {
                let result = super::editor::edit(terminal, edit, &text);
                // Keys typed in the editor (Ctrl-C, Ctrl-Z) were the editor's, not ours.
                signals.discard_terminal_signals();
                let _ = side
                    .edited_tx
                    .send(Msg::Write(WriteMsg::Edited { edit, result }));
            }
            Effect::Terminal(TerminalEffect::Copy(text)) => {
                terminal::copy_to_clipboard(terminal, &text)?;
                clipboard.copy(&text);
            }
            Effect::Terminal(TerminalEffect::Suspend) => terminal::suspend(terminal)?,
            Effect::Terminal(TerminalEffect::Quit) => quit = true,
            _ => {}
        }
    }
    Ok(quit)
}

/// The next terminal event; never, while there is no stream.
async fn next_event(events: &mut Option<EventStream>) -> Option<io::Result<Event>> {
    match events {
        Some(stream) => stream.next().await,
        None => std::future::pending().await,
    }
}

/// Runs the explorer until it quits (`None`) or a signal ends it.
pub async fn run<B: Backend, W: WriteBackend>(
    engine: B,
    writer: Option<W>,
    mut state: State,
    table: Option<String>,
    services: Services<B>,
) -> io::Result<Option<EndedBy>> {
    // Handled before the terminal is taken over, so that none of them can leave it raw.
    let mut signals = ExplorerSignals::new()?;
    let mut ended_by = None;
    let mut guard = terminal::init()?;
    let terminal = &mut guard.terminal;
    let size = terminal.size()?;
    state.width = size.width;
    state.height = size.height;

    let (engine_tx, mut engine_rx) = mpsc::channel(ENGINE_CHANNEL);
    let (msg_tx, mut msg_rx) = mpsc::unbounded_channel();
    let (stream_tx, mut stream_rx) = mpsc::channel(STREAM_CHANNEL);
    let edited_tx = msg_tx.clone();
    let mut runner = EffectRunner::new(engine, engine_tx, msg_tx)
        .with_history_file(services.history_file)
        .with_columns_file(services.columns_file)
        .with_connector(services.connector)
        .with_metrics(services.metrics)
        .with_insights(services.insights)
        .with_streams(stream_tx)
        .with_writer(writer)
        .with_bulk(super::effects::BulkRuns::new(
            state.session_budget.max_wcu,
            state.session_budget.wcu_per_second,
            services.journal_dir,
        ));
    // `None` while an editor has the terminal (see `next_event`).
    let mut events = Some(EventStream::new());
    let mut side = TerminalSide {
        clipboard: SystemClipboard::new(),
        edited_tx,
    };
    // The column choices are read beside the first requests, never before the first frame.
    let mut first = vec![Effect::Files(FileEffect::LoadColumns)];
    first.extend(start(&mut state, table));
    let mut quit = terminal_effects(runner.apply(first), terminal, &mut side, &mut signals)?;
    let started = std::time::Instant::now();
    let mut ticker = tokio::time::interval(std::time::Duration::from_millis(250));
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // Whether the screen is behind the state, and whether that change came from the user.
    let (mut dirty, mut urgent) = (true, true);
    let mut last_draw = tokio::time::Instant::now();
    while !quit && !state.quit {
        if dirty && (urgent || last_draw.elapsed() >= FRAME_INTERVAL) {
            terminal::draw_frame(terminal, |frame| ui::draw(frame, &state))?;
            last_draw = tokio::time::Instant::now();
            (dirty, urgent) = (false, false);
        }
        // Biased: a keypress is taken before queued pages, so typing stays responsive while a
        // scan streams at full speed.
        let msg = tokio::select! {
            biased;
            event = next_event(&mut events) => match event {
                Some(Ok(event)) => match input::to_msg(event) {
                    Some(msg) => msg,
                    None => continue,
                },
                Some(Err(e)) => return Err(e),
                None => break,
            },
            // Before the engine's pages: a signal ends even a full-speed stream.
            event = signals.recv() => {
                match event {
                    SignalEvent::Ended(by) => {
                        ended_by = Some(by);
                        break;
                    }
                    SignalEvent::Suspend => terminal::suspend(terminal)?,
                    SignalEvent::Continued => terminal::resume(terminal)?,
                }
                (dirty, urgent) = (true, true);
                continue;
            }
            Some(event) = engine_rx.recv() => Msg::Engine(event),
            Some((id, event)) = stream_rx.recv() => Msg::Stream { id, event },
            Some(msg) = msg_rx.recv() => msg,
            // A streamed change waiting for its frame.
            _ = tokio::time::sleep_until(last_draw + FRAME_INTERVAL), if dirty => continue,
            // Only while something runs (a read, the live pane): rates and ETAs move; an idle
            // explorer stays idle.
            _ = ticker.tick() => {
                let running = state.table.as_ref().and_then(|v| v.view.read.as_ref()).is_some_and(|r| r.running);
                if !running && !state.live_open() {
                    continue;
                }
                Msg::Time(TimeMsg::Tick(started.elapsed().as_millis() as u64))
            }
        };
        urgent |= !matches!(
            msg,
            Msg::Engine(_) | Msg::Time(TimeMsg::Tick(_)) | Msg::Stream { .. }
        );
        dirty = true;
        let mut effects = update(&mut state, msg);
        let batch_started = std::time::Instant::now();
        for _ in 0..MAX_BATCH {
            if batch_started.elapsed() >= BATCH_BUDGET {
                break;
            }
            let next = match engine_rx.try_recv() {
                Ok(event) => Msg::Engine(event),
                Err(_) => match stream_rx.try_recv() {
                    Ok((id, event)) => Msg::Stream { id, event },
                    Err(_) => match msg_rx.try_recv() {
                        Ok(msg) => msg,
                        Err(_) => break,
                    },
                },
            };
            urgent |= !matches!(
                next,
                Msg::Engine(_) | Msg::Time(TimeMsg::Tick(_)) | Msg::Stream { .. }
            );
            effects.extend(update(&mut state, next));
        }
        let for_terminal = runner.apply(effects);
        let editing = for_terminal
            .iter()
            .any(|e| matches!(e, Effect::Write(WriteEffect::Edit { .. })));
        if editing {
            // crossterm's input thread reads the terminal whenever its stream is waiting:
            // left running, it would take the editor's keystrokes (and its terminal's
            // answers). Dropping the stream stops it; a new one starts after the editor.
            events = None;
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
        quit = terminal_effects(for_terminal, terminal, &mut side, &mut signals)?;
        if editing {
            events = Some(EventStream::new());
        }
    }
    // Dropping the receivers unblocks segment and stream tasks parked on a full channel.
    drop(engine_rx);
    drop(stream_rx);
    runner.shutdown().await;
    drop(guard);
    Ok(ended_by)
}
