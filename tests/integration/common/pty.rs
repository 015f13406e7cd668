//! The real binary in a pseudo-terminal, read back through a vt100 parser that also records
//! what the program asked of the terminal (window titles, clipboard writes, bells), and the raw
//! bytes it wrote, for tests that must see exactly what reached the terminal.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

/// What the program asked the terminal to do besides drawing.
#[derive(Default)]
pub struct Recorder {
    pub titles: Vec<Vec<u8>>,
    pub icon_names: Vec<Vec<u8>>,
    pub clipboard: Vec<Vec<u8>>,
    pub bells: usize,
    pub unhandled_osc: Vec<Vec<Vec<u8>>>,
}

impl vt100::Callbacks for Recorder {
    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bells += 1;
    }
    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.titles.push(title.to_vec());
    }
    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, name: &[u8]) {
        self.icon_names.push(name.to_vec());
    }
    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, _ty: &[u8], data: &[u8]) {
        self.clipboard.push(data.to_vec());
    }
    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        self.unhandled_osc
            .push(params.iter().map(|p| p.to_vec()).collect());
    }
}

/// How long a screen wait lets a program that neither draws what is awaited nor exits run on:
/// a backstop for a hang, not a pace (the waits end on the screen or the exit). Two minutes,
/// since at a load of 20 the JVM of a demo alone has taken over 30 s to start.
const SCREEN_WAIT: Duration = Duration::from_secs(120);

const BEGIN_FRAME: &[u8] = b"\x1b[?2026h";
const END_FRAME: &[u8] = b"\x1b[?2026l";

/// Holds back a frame the program began (synchronized update, DEC mode 2026) until it ends,
/// as a terminal that knows the mode does: the parser, and so every screen a test reads, only
/// ever holds whole frames. A screen read while a frame was half written showed the new scan
/// panel above the old status line, and a test that waited for one read the other stale.
#[derive(Default)]
pub struct FrameGate {
    pending: Vec<u8>,
}

impl FrameGate {
    /// Takes the bytes just read; returns those that may reach the screen now.
    pub fn pass(&mut self, bytes: &[u8]) -> Vec<u8> {
        self.pending.extend_from_slice(bytes);
        let open = last_unended_begin(&self.pending);
        // A begin split across two reads is held too, so it cannot slip through unseen.
        let cut = open.unwrap_or_else(|| self.pending.len() - partial_begin(&self.pending));
        let rest = self.pending.split_off(cut);
        std::mem::replace(&mut self.pending, rest)
    }

    /// What is held when the program ends: shown as it is, as a terminal would.
    pub fn rest(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }
}

fn find_last(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// Where the last begun frame starts, if it has not ended yet.
fn last_unended_begin(bytes: &[u8]) -> Option<usize> {
    let begin = find_last(bytes, BEGIN_FRAME)?;
    match find_last(&bytes[begin..], END_FRAME) {
        Some(_) => None,
        None => Some(begin),
    }
}

/// How many trailing bytes could be the start of a begin sequence.
fn partial_begin(bytes: &[u8]) -> usize {
    (1..BEGIN_FRAME.len())
        .rev()
        .find(|&n| bytes.len() >= n && bytes[bytes.len() - n..] == BEGIN_FRAME[..n])
        .unwrap_or(0)
}

pub struct Session {
    pub parser: Arc<Mutex<vt100::Parser<Recorder>>>,
    pub raw: Arc<Mutex<Vec<u8>>>,
    pub writer: Box<dyn Write + Send>,
    /// Behind a lock so a screen wait (which only reads) can also see the program exit.
    pub child: Mutex<Box<dyn portable_pty::Child + Send + Sync>>,
    pub master: Box<dyn portable_pty::MasterPty + Send>,
    pub rows: u16,
    pub cols: u16,
}

impl Session {
    /// Runs `dynoscope --endpoint-url <local> ARGS…` in a 40x120 terminal.
    pub fn start(args: &[&str]) -> Session {
        let mut full = vec!["--endpoint-url", super::local().endpoint.as_str()];
        full.extend_from_slice(args);
        Session::spawn(&full, &[], 40, 120)
    }

    /// Runs the binary with exactly these arguments, extra environment and terminal size.
    pub fn spawn(args: &[&str], env: &[(&str, &str)], rows: u16, cols: u16) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let mut cmd = CommandBuilder::new(super::bin());
        for (k, v) in [
            ("AWS_EC2_METADATA_DISABLED", "true"),
            ("AWS_ACCESS_KEY_ID", "dummy"),
            ("AWS_SECRET_ACCESS_KEY", "dummy"),
            ("AWS_REGION", "us-east-1"),
            ("AWS_CONFIG_FILE", "/nonexistent/config"),
            ("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials"),
            ("XDG_CONFIG_HOME", "/nonexistent/xdg"),
            ("DYNOSCOPE_LOG", "off"),
            ("TERM", "xterm-256color"),
        ] {
            cmd.env(k, v);
        }
        for (k, v) in super::demo_jvm_env() {
            cmd.env(k, v);
        }
        for k in [
            "AWS_PROFILE",
            "AWS_SESSION_TOKEN",
            "AWS_ENDPOINT_URL",
            "AWS_ENDPOINT_URL_DYNAMODB",
        ] {
            cmd.env_remove(k);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        for a in args {
            cmd.arg(a);
        }
        let child = pty.slave.spawn_command(cmd).expect("spawn dynoscope");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new_with_callbacks(
            rows,
            cols,
            0,
            Recorder::default(),
        )));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, r) = (parser.clone(), raw.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            let mut gate = FrameGate::default();
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                // Raw bytes first: a test that sees a frame on screen finds its bytes recorded.
                r.lock().unwrap().extend_from_slice(&buf[..n]);
                let whole = gate.pass(&buf[..n]);
                p.lock().unwrap().process(&whole);
            }
            let rest = gate.rest();
            p.lock().unwrap().process(&rest);
        });
        Session {
            parser,
            raw,
            writer,
            child: Mutex::new(child),
            master: pty.master,
            rows,
            cols,
        }
    }

    pub fn pid(&self) -> i32 {
        self.child
            .lock()
            .unwrap()
            .process_id()
            .expect("a child pid") as i32
    }

    /// Sends `signal` (e.g. `libc::SIGTERM`) to the program.
    pub fn signal(&self, signal: i32) {
        let rc = unsafe { libc::kill(self.pid(), signal) };
        assert_eq!(rc, 0, "kill({}, {signal})", self.pid());
    }

    /// Whether the terminal is in canonical (cooked) mode with echo, as a shell leaves it;
    /// raw mode turns both off.
    pub fn cooked(&self) -> bool {
        let fd = self.master.as_raw_fd().expect("the pty's fd");
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::tcgetattr(fd, &mut t) }, 0, "tcgetattr");
        t.c_lflag & libc::ICANON != 0 && t.c_lflag & libc::ECHO != 0
    }

    pub fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// Every cell's text, row by row (a wide char's continuation cell is "").
    pub fn cells(&self) -> Vec<Vec<String>> {
        let parser = self.parser.lock().unwrap();
        let screen = parser.screen();
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| {
                        screen
                            .cell(r, c)
                            .map(|cell| cell.contents().to_string())
                            .unwrap_or_default()
                    })
                    .collect()
            })
            .collect()
    }

    pub fn raw(&self) -> Vec<u8> {
        self.raw.lock().unwrap().clone()
    }

    pub fn raw_len(&self) -> usize {
        self.raw.lock().unwrap().len()
    }

    /// Waits until `check` holds for the screen. It ends on the screen, or on the program's
    /// exit (the screen is read once more after the output drains, since a last frame or line
    /// may come just before it), so `limit` is only a backstop for a program that hangs: a
    /// loaded machine can take many seconds to start a JVM or seed a table, and a passing test
    /// never waits for the clock.
    pub fn wait_for_within(
        &self,
        what: &str,
        limit: Duration,
        check: impl Fn(&str) -> bool,
    ) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if check(&screen) {
                return screen;
            }
            if let Some(status) = self.exited() {
                let _ = self.raw_after_exit();
                let screen = self.screen();
                if check(&screen) {
                    return screen;
                }
                panic!("dynoscope exited ({status:?}) while waiting for {what}; screen:\n{screen}");
            }
            assert!(
                started.elapsed() < limit,
                "timed out after {limit:?} waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The program's exit status once it has exited.
    pub fn exited(&self) -> Option<portable_pty::ExitStatus> {
        self.child.lock().unwrap().try_wait().unwrap()
    }

    pub fn wait_for(&self, what: &str, check: impl Fn(&str) -> bool) -> String {
        self.wait_for_within(what, SCREEN_WAIT, check)
    }

    pub fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text))
    }

    /// Types `keys` without waiting.
    pub fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Types `keys`, then gives the app a moment (one key per event-loop turn is the common case).
    /// Keys that end in a lone Escape are first read by the program: an Escape read together
    /// with the next key is that key with Alt (`ESC q` is Alt-q, not Esc then q), which on a
    /// loaded machine turned a test's Esc and quit into a keystroke the palette ignored.
    pub fn keys(&mut self, keys: &str) {
        self.send(keys);
        if keys.ends_with('\u{1b}') {
            self.wait_input_read();
        }
        std::thread::sleep(Duration::from_millis(100));
    }

    /// Waits until the program has read everything typed: the terminal's input queue (the
    /// bytes its side of the pty has not read) is empty. At most 10 s, then the test goes on and
    /// its screen wait says what happened.
    fn wait_input_read(&self) {
        use std::os::fd::AsRawFd;
        let Some(tty) = self.master.tty_name() else {
            return;
        };
        let Ok(file) = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&tty)
        else {
            return;
        };
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            let mut unread: libc::c_int = 0;
            // SAFETY: FIONREAD writes one int through the pointer, which outlives the call.
            let asked = unsafe { libc::ioctl(file.as_raw_fd(), libc::FIONREAD, &mut unread) };
            if asked != 0 || unread == 0 {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits until the screen stops changing for `quiet`, at most `limit`.
    pub fn settle(&self, quiet: Duration, limit: Duration) -> String {
        let started = Instant::now();
        let mut last = self.raw_len();
        let mut since = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(20));
            let now = self.raw_len();
            if now != last {
                last = now;
                since = Instant::now();
            } else if since.elapsed() >= quiet || started.elapsed() >= limit {
                return self.screen();
            }
        }
    }

    pub fn wait_exit_within(&mut self, limit: Duration) -> portable_pty::ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(status) = self.exited() {
                return status;
            }
            assert!(
                started.elapsed() < limit,
                "dynoscope did not exit within {limit:?}; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        self.wait_exit_within(Duration::from_secs(10))
    }

    /// The raw output once the reader has drained what the program wrote before exiting.
    pub fn raw_after_exit(&self) -> Vec<u8> {
        let started = Instant::now();
        let mut last = self.raw_len();
        while started.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(100));
            let now = self.raw_len();
            if now == last {
                break;
            }
            last = now;
        }
        self.raw()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // A failed test must not leave the explorer running.
        let child = self
            .child
            .get_mut()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The port of `http://127.0.0.1:PORT` after `marker` in `text`.
pub fn port_after(text: &str, marker: &str) -> Option<u16> {
    let at = text.find(marker)? + marker.len();
    let rest = text[at..].strip_prefix("http://127.0.0.1:")?;
    rest.chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

/// Whether anything listens on 127.0.0.1:`port`.
pub fn port_open(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(500),
    )
    .is_ok()
}

/// Finds `needle` in `haystack`.
pub fn find_bytes(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
