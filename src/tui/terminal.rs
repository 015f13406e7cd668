//! Owning the terminal: raw mode, alternate screen, mouse and paste, and restoring all of it on
//! every way out (normal return, error, panic, signal).

use std::io::{self, Stdout, Write};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Restores the terminal when dropped, so an early `?` return cannot leave it raw.
pub struct TerminalGuard {
    pub terminal: Term,
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Installs the panic hook first (so a panic during set-up restores too), then enters the UI.
pub fn init() -> io::Result<TerminalGuard> {
    install_panic_hook();
    enable_raw_mode()?;
    let mut stdout = io::stdout();
    if let Err(e) = execute!(
        stdout,
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    ) {
        restore();
        return Err(e);
    }
    match Terminal::new(CrosstermBackend::new(stdout)) {
        Ok(terminal) => Ok(TerminalGuard { terminal }),
        Err(e) => {
            restore();
            Err(e)
        }
    }
}

/// Leaves the UI; safe to call more than once.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut stdout = io::stdout();
    let _ = execute!(
        stdout,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = stdout.flush();
}

fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// OSC 52: asks the terminal (local or across SSH) to put `text` on the clipboard.
pub fn copy_to_clipboard(terminal: &mut Term, text: &str) -> io::Result<()> {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(text);
    let writer = terminal.backend_mut();
    write!(writer, "\x1b]52;c;{encoded}\x07")?;
    writer.flush()
}
