//! Signals while the explorer owns the terminal. In raw mode Ctrl-C and Ctrl-Z arrive as keys;
//! these come from `kill`, a closed terminal (SIGHUP) or job control. Their default actions
//! would end or stop the process with the terminal still raw and on the alternate screen.

use std::io;

use tokio::signal::unix::{signal, Signal, SignalKind};

/// A signal that ends the explorer; the process exits with 128 + `number`, as a shell reports
/// a process killed by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndedBy {
    pub number: i32,
    pub name: &'static str,
}

pub enum SignalEvent {
    Ended(EndedBy),
    /// SIGTSTP: leave the terminal, stop, and come back on SIGCONT.
    Suspend,
    /// SIGCONT: the process was stopped by something it could not catch (SIGSTOP); the
    /// terminal's modes and screen may have changed meanwhile.
    Continued,
}

pub struct ExplorerSignals {
    interrupt: Signal,
    terminate: Signal,
    hangup: Signal,
    quit: Signal,
    suspend: Signal,
    cont: Signal,
}

const fn ended(number: i32, name: &'static str) -> SignalEvent {
    SignalEvent::Ended(EndedBy { number, name })
}

impl ExplorerSignals {
    /// Installs the handlers: from here on these signals are events, not default actions.
    pub fn new() -> io::Result<ExplorerSignals> {
        let listen = |number| signal(SignalKind::from_raw(number));
        Ok(ExplorerSignals {
            interrupt: listen(libc::SIGINT)?,
            terminate: listen(libc::SIGTERM)?,
            hangup: listen(libc::SIGHUP)?,
            quit: listen(libc::SIGQUIT)?,
            suspend: listen(libc::SIGTSTP)?,
            cont: listen(libc::SIGCONT)?,
        })
    }

    /// Forgets the signals a terminal sends from the keyboard (SIGINT, SIGQUIT, SIGTSTP) and
    /// SIGCONT that arrived while another program had the terminal: they were meant for it.
    pub fn discard_terminal_signals(&mut self) {
        use futures::FutureExt;
        for signal in [
            &mut self.interrupt,
            &mut self.quit,
            &mut self.suspend,
            &mut self.cont,
        ] {
            while let Some(Some(())) = signal.recv().now_or_never() {}
        }
    }

    pub async fn recv(&mut self) -> SignalEvent {
        // `recv` gives `None` only once the runtime shuts down, which ends the loop anyway.
        tokio::select! {
            _ = self.interrupt.recv() => ended(libc::SIGINT, "SIGINT"),
            _ = self.terminate.recv() => ended(libc::SIGTERM, "SIGTERM"),
            _ = self.hangup.recv() => ended(libc::SIGHUP, "SIGHUP"),
            _ = self.quit.recv() => ended(libc::SIGQUIT, "SIGQUIT"),
            _ = self.suspend.recv() => SignalEvent::Suspend,
            _ = self.cont.recv() => SignalEvent::Continued,
        }
    }
}
