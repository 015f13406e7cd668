//! The system clipboard, beside OSC 52: over SSH only OSC 52 reaches the user's clipboard, but
//! some local terminals ignore it. arboard talks to X11 (no system libraries needed); it owns
//! the selection while it lives, so one worker thread keeps it for the whole session. Without
//! a display, or when the clipboard refuses, nothing happens and OSC 52 still did its part.

use std::sync::mpsc;
use std::thread;

pub struct SystemClipboard {
    /// Started on the first copy, so a session that never copies never connects.
    worker: Option<mpsc::Sender<String>>,
}

impl SystemClipboard {
    pub fn new() -> Self {
        SystemClipboard { worker: None }
    }

    /// Hands `text` to the worker; never blocks the terminal loop.
    pub fn copy(&mut self, text: &str) {
        if !has_display() {
            return;
        }
        let worker = self.worker.get_or_insert_with(|| {
            let (tx, rx) = mpsc::channel::<String>();
            let _ = thread::Builder::new()
                .name("clipboard".into())
                .spawn(move || {
                    let Ok(mut clipboard) = arboard::Clipboard::new() else {
                        tracing::debug!("no system clipboard; OSC 52 only");
                        return;
                    };
                    while let Ok(text) = rx.recv() {
                        if let Err(e) = clipboard.set_text(text) {
                            tracing::debug!("system clipboard refused the copy: {e}");
                        }
                    }
                });
            tx
        });
        let _ = worker.send(text.to_string());
    }
}

impl Default for SystemClipboard {
    fn default() -> Self {
        Self::new()
    }
}

fn has_display() -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|k| std::env::var_os(k).is_some_and(|v| !v.is_empty()))
}
