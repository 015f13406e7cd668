//! Owning the terminal: raw mode, alternate screen, mouse and paste, and restoring all of it on
//! every way out (normal return, error, panic, signal), and around a suspension (Ctrl-Z).

use std::io::{self, Stdout, Write};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, BeginSynchronizedUpdate, EndSynchronizedUpdate,
    EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute, queue};
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
    if let Err(e) = enter() {
        restore();
        return Err(e);
    }
    let stdout = io::stdout();
    match Terminal::new(CrosstermBackend::new(stdout)) {
        Ok(terminal) => Ok(TerminalGuard { terminal }),
        Err(e) => {
            restore();
            Err(e)
        }
    }
}

fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )
}

/// Ctrl-Z or SIGTSTP: gives the terminal back to the shell as it was, stops the process, and
/// takes the terminal again once continued (`fg`).
///
/// SIGSTOP, not SIGTSTP: the explorer handles SIGTSTP itself, and the kernel discards a
/// SIGTSTP sent to an orphaned process group (a session leader started outside a job-control
/// shell) while SIGSTOP always stops. A signal a process sends itself is delivered before
/// `kill` returns, so this returns once the process has been continued.
pub fn suspend(terminal: &mut Term) -> io::Result<()> {
    restore();
    // SAFETY: getpid and kill take no pointers.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGSTOP);
    }
    resume(terminal)
}

/// Takes the terminal again after a stop: raw mode, alternate screen, mouse and paste, and a
/// full redraw on the next frame (the screen now shows whatever ran meanwhile). Safe to call
/// when nothing was left.
pub fn resume(terminal: &mut Term) -> io::Result<()> {
    // crossterm skips enabling raw mode when it believes it on; after an uncaught SIGSTOP the
    // shell may have reset the modes, so they are set again from the saved ones.
    let _ = disable_raw_mode();
    enter()?;
    // `resize` clears the screen and the previous frame, so the next one is drawn whole.
    // (`Terminal::clear` would first ask the terminal where its cursor is, and wait.)
    let size = terminal.size()?;
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))?;
    // ratatui believes the cursor still hidden; `restore` showed it.
    terminal.hide_cursor()
}

/// Draws one frame inside a synchronized update (DEC mode 2026): a terminal that knows the mode
/// shows the frame whole, never the top rows of the new frame above the bottom rows of the
/// old one, which a fast stream of pages would otherwise tear. Terminals without it ignore the
/// two sequences.
pub fn draw_frame(terminal: &mut Term, render: impl FnOnce(&mut ratatui::Frame)) -> io::Result<()> {
    queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    let drawn = terminal.draw(render).map(|_| ());
    // Ended even when drawing failed, so the terminal never stays frozen.
    execute!(terminal.backend_mut(), EndSynchronizedUpdate)?;
    drawn
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

/// OSC 52 (crossterm's own command): asks the terminal, local or across SSH, to put `text`
/// on the clipboard.
pub fn copy_to_clipboard(terminal: &mut Term, text: &str) -> io::Result<()> {
    execute!(
        terminal.backend_mut(),
        crossterm::clipboard::CopyToClipboard::to_clipboard_from(text)
    )
}
