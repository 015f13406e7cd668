//! The log file. Events go to a file and never to the terminal: the explorer owns the screen and
//! the headless subcommands' output is for scripts.
//!
//! - Where: `DYNOSCOPE_LOG` (a path; `off` disables logging), else `dynoscope.log` in the
//!   state directory `main` passes in (`$XDG_STATE_HOME/dynoscope`, else
//!   `~/.local/state/dynoscope`: see `platform::dirs`).
//!   A file that cannot be opened disables logging silently, and so does a symlink or anything
//!   but a regular file there: the log is never written through a link someone else planted.
//! - Who may read it: the file is created with mode 0600, and an existing one is set to 0600
//!   when opened (it holds table names, keys and endpoints).
//! - How big: past `MAX_LOG_BYTES` it is renamed to `dynoscope.log.1` (replacing the previous
//!   one) and a new file is started, at start-up and while running.
//! - How much: `DYNOSCOPE_LOG_LEVEL`, `RUST_LOG`-style directives (`debug`,
//!   `dynoscope::aws=trace`); the default is `info`.
//! - Secrets: events of other crates below WARN are dropped whatever the level asks for (the AWS
//!   SDK's debug and trace events carry request headers and signing details), dynoscope never
//!   logs headers or credentials, and as a last guard the values of `AWS_ACCESS_KEY_ID`,
//!   `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` are masked in every line written, and so
//!   are credentials written into a URL (`http://user:pass@host`). Lines are
//!   passed through the sanitiser, so `cat`ing the log cannot replay escape sequences from data.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tracing::level_filters::LevelFilter;
use tracing::{Level, Metadata};
use tracing_subscriber::filter::{filter_fn, EnvFilter, FilterExt};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::Layer;

use crate::local_files::{self, Links};
use crate::model::text::redact::redact_userinfo;
use crate::model::text::sanitize::sanitize;

pub const LOG_ENV: &str = "DYNOSCOPE_LOG";
pub const LEVEL_ENV: &str = "DYNOSCOPE_LOG_LEVEL";
const SECRET_ENVS: [&str; 3] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];
/// Values shorter than this are not masked (dummy keys such as `dummy` or `local`).
const MIN_SECRET_LEN: usize = 8;
/// The log is rotated past this size; with the one rotated file kept, it takes at most twice
/// this on disk.
pub const MAX_LOG_BYTES: u64 = 10 * 1024 * 1024;

/// The log file's path: `DYNOSCOPE_LOG`'s value (`off` turns logging off), else
/// `dynoscope.log` in dynoscope's state directory (`platform::dirs::state_dir`).
pub fn log_path(log: Option<&str>, state_dir: Option<PathBuf>) -> Option<PathBuf> {
    match log.map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("off") => return None,
        Some(v) if !v.is_empty() => return Some(PathBuf::from(v)),
        _ => {}
    }
    Some(state_dir?.join("dynoscope.log"))
}

/// Only dynoscope's own events pass below WARN.
fn allowed(meta: &Metadata<'_>) -> bool {
    *meta.level() <= Level::WARN || is_own(meta.target())
}

/// dynoscope's own crates: the binary, the engine and the domain (an event's target is the
/// module path it was written in).
fn is_own(target: &str) -> bool {
    let krate = target.split("::").next().unwrap_or(target);
    matches!(krate, "dynoscope" | "dynoscope_engine" | "dynoscope_model")
}

/// The filter for `DYNOSCOPE_LOG_LEVEL`; bad directives are skipped, not fatal.
fn level_filter(spec: Option<&str>) -> EnvFilter {
    EnvFilter::builder()
        .with_default_directive(LevelFilter::INFO.into())
        .parse_lossy(spec.unwrap_or(""))
}

/// Starts logging to the file `DYNOSCOPE_LOG` names, else in `state_dir`; returns its path, or
/// `None` when logging is off or the file cannot be opened. Call once, before the runtime
/// starts.
pub fn init(state_dir: Option<PathBuf>) -> Option<PathBuf> {
    let env = |k: &str| std::env::var(k).ok();
    let path = log_path(env(LOG_ENV).as_deref(), state_dir)?;
    let file = LogFile::open(&path, MAX_LOG_BYTES).ok()?;
    let secrets = SECRET_ENVS.iter().filter_map(|k| env(k)).collect();
    let layer = layer(Sink::new(file, secrets), env(LEVEL_ENV).as_deref());
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer)).ok()?;
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        pid = std::process::id(),
        "start"
    );
    Some(path)
}

fn layer<S>(sink: Sink, level: Option<&str>) -> impl Layer<S>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    tracing_subscriber::fmt::layer()
        .with_writer(sink)
        .with_ansi(false)
        .with_target(true)
        .with_filter(level_filter(level).and(filter_fn(allowed)))
}

/// Opens a private file for appending (O_APPEND), creating it and its directory (private,
/// 0700): never through a symlink, dangling or not, never anything but a regular file (both by
/// [`local_files::open_regular`]), and private (0600, set on an existing file too, which fails
/// unless it is ours). The one opener of the log and of the audit file (`aws::write::audit`).
pub fn open_private_append(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        local_files::create_private_dir_all(dir)?;
    }
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = local_files::open_regular(&mut options, path, Links::Refuse)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(file)
}

/// `dynoscope.log` → `dynoscope.log.1`.
fn rotated_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".1");
    path.with_file_name(name)
}

/// The open log, and where and when to rotate it.
struct LogFile {
    file: File,
    /// `None` for a file that is not rotated (tests).
    path: Option<PathBuf>,
    size: u64,
    max_bytes: u64,
}

impl LogFile {
    /// Opens the log at `path`, rotating it first when it is already past `max_bytes`.
    fn open(path: &Path, max_bytes: u64) -> io::Result<LogFile> {
        // symlink_metadata: a link is not followed here either (and is refused by `open_private_append`).
        let size = std::fs::symlink_metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map_or(0, |m| m.len());
        if size > max_bytes {
            std::fs::rename(path, rotated_path(path))?;
        }
        let file = open_private_append(path)?;
        let size = file.metadata()?.len();
        Ok(LogFile {
            file,
            path: Some(path.to_owned()),
            size,
            max_bytes,
        })
    }

    #[cfg(test)]
    fn unrotated(file: File) -> LogFile {
        LogFile {
            file,
            path: None,
            size: 0,
            max_bytes: u64::MAX,
        }
    }

    fn append(&mut self, text: &[u8]) {
        if self.file.write_all(text).is_ok() {
            self.size += text.len() as u64;
        }
        if self.size <= self.max_bytes {
            return;
        }
        // A rotation that fails keeps the current file: logging goes on.
        if let Some(path) = &self.path {
            if let Ok(fresh) =
                std::fs::rename(path, rotated_path(path)).and_then(|()| open_private_append(path))
            {
                self.file = fresh;
                self.size = 0;
            }
        }
    }
}

/// The file, shared by every thread; each event is written whole, masked and sanitised.
struct Sink {
    file: Mutex<LogFile>,
    secrets: Vec<String>,
}

impl Sink {
    fn new(file: LogFile, secrets: Vec<String>) -> Sink {
        Sink {
            file: Mutex::new(file),
            secrets: secrets
                .into_iter()
                .map(|s| s.trim().to_string())
                .filter(|s| s.len() >= MIN_SECRET_LEN)
                .collect(),
        }
    }

    fn clean(&self, raw: &[u8]) -> String {
        let text = String::from_utf8_lossy(raw);
        let mut out = String::with_capacity(text.len());
        for line in text.split_terminator('\n') {
            let mut line = sanitize(&redact_userinfo(line)).into_owned();
            for secret in &self.secrets {
                if line.contains(secret.as_str()) {
                    line = line.replace(secret.as_str(), "[redacted]");
                }
            }
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

/// Collects one event's text and writes it in one piece when dropped.
struct EventWriter<'a> {
    sink: &'a Sink,
    buf: Vec<u8>,
}

impl Write for EventWriter<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for EventWriter<'_> {
    fn drop(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        let text = self.sink.clean(&self.buf);
        if let Ok(mut file) = self.sink.file.lock() {
            file.append(text.as_bytes());
        }
    }
}

impl<'a> MakeWriter<'a> for Sink {
    type Writer = EventWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        EventWriter {
            sink: self,
            buf: Vec::new(),
        }
    }
}

#[cfg(test)]
#[path = "logging_tests.rs"]
mod tests;
