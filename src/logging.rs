//! The log file. Events go to a file and never to the terminal: the explorer owns the screen and
//! the headless subcommands' output is for scripts.
//!
//! - Where: `DYNOSCOPE_LOG` (a path; `off` disables logging), else
//!   `$XDG_STATE_HOME/dynoscope/dynoscope.log`, else `~/.local/state/dynoscope/dynoscope.log`.
//!   A file that cannot be opened disables logging silently.
//! - How much: `DYNOSCOPE_LOG_LEVEL`, `RUST_LOG`-style directives (`debug`,
//!   `dynoscope::aws=trace`); the default is `info`.
//! - Secrets: events of other crates below WARN are dropped whatever the level asks for (the AWS
//!   SDK's debug and trace events carry request headers and signing details), dynoscope never
//!   logs headers or credentials, and as a last guard the values of `AWS_ACCESS_KEY_ID`,
//!   `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` are masked in every line written. Lines are
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

use crate::aws::read::Page;
use crate::aws::EngineError;
use crate::model::sanitize::sanitize;

pub const LOG_ENV: &str = "DYNOSCOPE_LOG";
pub const LEVEL_ENV: &str = "DYNOSCOPE_LOG_LEVEL";
const SECRET_ENVS: [&str; 3] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
];
/// Values shorter than this are not masked (dummy keys such as `dummy` or `local`).
const MIN_SECRET_LEN: usize = 8;

/// The log file's path for these environment values, or `None` when logging is off.
pub fn log_path(
    log: Option<&str>,
    xdg_state_home: Option<&str>,
    home: Option<&str>,
) -> Option<PathBuf> {
    match log.map(str::trim) {
        Some(v) if v.eq_ignore_ascii_case("off") => return None,
        Some(v) if !v.is_empty() => return Some(PathBuf::from(v)),
        _ => {}
    }
    // XDG: a relative XDG_STATE_HOME is invalid and ignored.
    let state = match xdg_state_home.filter(|d| Path::new(d).is_absolute()) {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(home.filter(|h| !h.is_empty())?).join(".local/state"),
    };
    Some(state.join("dynoscope").join("dynoscope.log"))
}

/// Only dynoscope's own events pass below WARN.
fn allowed(meta: &Metadata<'_>) -> bool {
    *meta.level() <= Level::WARN || is_own(meta.target())
}

fn is_own(target: &str) -> bool {
    target == "dynoscope" || target.starts_with("dynoscope::")
}

/// The filter for `DYNOSCOPE_LOG_LEVEL`; bad directives are skipped, not fatal.
fn level_filter(spec: Option<&str>) -> EnvFilter {
    EnvFilter::builder()
        .with_default_directive(LevelFilter::INFO.into())
        .parse_lossy(spec.unwrap_or(""))
}

/// Starts logging to the file the environment names; returns its path, or `None` when logging
/// is off or the file cannot be opened. Call once, before the runtime starts.
pub fn init() -> Option<PathBuf> {
    let env = |k: &str| std::env::var(k).ok();
    let path = log_path(
        env(LOG_ENV).as_deref(),
        env("XDG_STATE_HOME").as_deref(),
        env("HOME").as_deref(),
    )?;
    let file = open(&path).ok()?;
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

fn open(path: &Path) -> io::Result<File> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// The file, shared by every thread; each event is written whole, masked and sanitised.
struct Sink {
    file: Mutex<File>,
    secrets: Vec<String>,
}

impl Sink {
    fn new(file: File, secrets: Vec<String>) -> Sink {
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
            let mut line = sanitize(line).into_owned();
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
            let _ = file.write_all(text.as_bytes());
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

/// One Query/Scan page: what the request log shows, as one line.
pub fn log_page(page: &Page, table: &str, total_segments: u32) {
    let indexes: Vec<String> = page
        .consumed
        .indexes
        .iter()
        .map(|(name, units)| format!("{name}={units}"))
        .collect();
    tracing::info!(
        target: "dynoscope::aws::read",
        request = page.request_id,
        operation = page.operation.as_str(),
        table,
        index = page.index.as_deref().unwrap_or("-"),
        segment = page.segment,
        segments = total_segments,
        page = page.page,
        count = page.count,
        scanned_count = page.scanned_count,
        consumed_capacity = page.consumed.total,
        table_capacity = page.consumed.table,
        index_capacity = %indexes.join(","),
        latency_ms = page.latency.as_millis() as u64,
        attempts = page.attempts.attempts,
        throttles = page.attempts.throttles,
        more = page.last_evaluated_key.is_some(),
        "page"
    );
}

/// A request that failed after the SDK's retries.
pub fn log_error(operation: &str, table: Option<&str>, error: &EngineError) {
    tracing::warn!(
        target: "dynoscope::aws",
        operation,
        table = table.unwrap_or("-"),
        class = ?error.class,
        error = %error.message,
        "request failed"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_precedence() {
        let p = |log, xdg, home| log_path(log, xdg, home).map(|p| p.display().to_string());
        assert_eq!(
            p(Some("/tmp/x.log"), Some("/s"), Some("/h")).as_deref(),
            Some("/tmp/x.log")
        );
        assert_eq!(p(Some("off"), Some("/s"), Some("/h")), None);
        assert_eq!(p(Some("OFF"), None, None), None);
        assert_eq!(
            p(None, Some("/s"), Some("/h")).as_deref(),
            Some("/s/dynoscope/dynoscope.log")
        );
        assert_eq!(
            p(Some(""), None, Some("/h")).as_deref(),
            Some("/h/.local/state/dynoscope/dynoscope.log")
        );
        assert_eq!(
            p(None, Some("relative"), Some("/h")).as_deref(),
            Some("/h/.local/state/dynoscope/dynoscope.log")
        );
        assert_eq!(p(None, None, None), None);
    }

    #[test]
    fn other_crates_pass_only_at_warn_and_above() {
        use tracing::callsite::Identifier;
        use tracing::field::FieldSet;
        use tracing::metadata::Kind;
        struct Cs;
        impl tracing::Callsite for Cs {
            fn set_interest(&self, _: tracing::subscriber::Interest) {}
            fn metadata(&self) -> &Metadata<'_> {
                unreachable!()
            }
        }
        static CS: Cs = Cs;
        let meta = |target: &'static str, level: Level| {
            Metadata::new(
                "e",
                target,
                level,
                None,
                None,
                None,
                FieldSet::new(&[], Identifier(&CS)),
                Kind::EVENT,
            )
        };
        assert!(allowed(&meta("dynoscope::aws::read", Level::TRACE)));
        assert!(allowed(&meta("dynoscope", Level::DEBUG)));
        assert!(!allowed(&meta("dynoscopex", Level::DEBUG)));
        for target in [
            "aws_sigv4::http_request",
            "aws_smithy_runtime",
            "hyper",
            "h2",
        ] {
            assert!(!allowed(&meta(target, Level::TRACE)), "{target}");
            assert!(!allowed(&meta(target, Level::DEBUG)), "{target}");
            assert!(!allowed(&meta(target, Level::INFO)), "{target}");
            assert!(allowed(&meta(target, Level::WARN)), "{target}");
            assert!(allowed(&meta(target, Level::ERROR)), "{target}");
        }
    }

    #[test]
    fn lines_are_masked_and_sanitised() {
        let sink = Sink::new(
            tempfile::tempfile().unwrap(),
            vec![
                "fakeSecretKeyForTest/abcdEFGH".into(),
                "dummy".into(),
                String::new(),
            ],
        );
        let out = sink
            .clean(b"a secret=fakeSecretKeyForTest/abcdEFGH here\nESC \x1b]0;pwned\x07 dummy\n");
        assert_eq!(
            out,
            "a secret=[redacted] here\nESC \\x1b]0;pwned\\x07 dummy\n"
        );
    }

    #[test]
    fn events_reach_the_file_through_the_filter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/dynoscope.log");
        let file = open(&path).unwrap();
        let sink = Sink::new(file, vec!["SuperSecretValue123".into()]);
        let subscriber = tracing_subscriber::registry().with(layer(sink, Some("trace")));
        tracing::subscriber::with_default(subscriber, || {
            tracing::info!(target: "dynoscope::aws::read", table = "t\u{1b}[2J", "page");
            tracing::debug!(target: "aws_sigv4::http_request", "canonical request SuperSecretValue123");
            tracing::warn!(target: "hyper", "warned");
            tracing::info!(target: "dynoscope", "leaked SuperSecretValue123");
        });
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("page"), "{text}");
        assert!(!text.contains("canonical request"), "{text}");
        assert!(text.contains("warned"), "{text}");
        assert!(text.contains("leaked [redacted]"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(!text.contains("SuperSecretValue123"), "{text}");
    }
}
