//! Export files, written off the terminal thread. Each export is a blocking task that owns a
//! temporary file beside the final one (`.<name>.<pid>-<job>.part`), encodes items into it as
//! they come, and only when complete gives it its final name: a cancelled or failed export
//! leaves no file under that name. A streaming export also takes the pages of the reads tee'd
//! into it: each page goes to the file, then on to the explorer, so backpressure from a slow
//! disk slows the read rather than growing memory.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::app::msg::{ExportMsg, ExportSummary, Msg};
use crate::app::state::{CsvColumns, ExportItems, ExportRequest};
use crate::aws::read::ReadHandle;
use crate::aws::{Backend, EngineEvent, ReadSpec};
use crate::model::exports::export::all_attributes;
use crate::model::item::value::Item;

/// Pages queued between a tee'd read and the file.
const SINK_QUEUE: usize = 8;
const CHUNK: usize = 1000;
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

enum SinkInput {
    Items(Vec<Item>),
    Finish,
    Cancel,
}

struct Sink {
    tx: mpsc::Sender<SinkInput>,
    /// Set by `cancel`: checked between chunks, so pages queued meanwhile stay queued.
    cancelled: Arc<AtomicBool>,
    task: JoinHandle<()>,
}

pub struct Exports {
    sinks: HashMap<u64, Sink>,
    msg_tx: mpsc::UnboundedSender<Msg>,
}

impl Exports {
    pub fn new(msg_tx: mpsc::UnboundedSender<Msg>) -> Self {
        Exports {
            sinks: HashMap::new(),
            msg_tx,
        }
    }

    pub fn start(&mut self, request: ExportRequest) {
        self.sinks.retain(|_, s| !s.task.is_finished());
        let (tx, rx) = mpsc::channel(SINK_QUEUE);
        let job = request.job;
        let msg_tx = self.msg_tx.clone();
        let cancelled = Arc::new(AtomicBool::new(false));
        let flag = cancelled.clone();
        let task = tokio::task::spawn_blocking(move || {
            let result = write_export(request, rx, &flag, &msg_tx);
            let _ = msg_tx.send(Msg::Export(ExportMsg::Done { job, result }));
        });
        self.sinks.insert(
            job,
            Sink {
                tx,
                cancelled,
                task,
            },
        );
    }

    /// Starts a read whose pages go to export `job`'s file before they reach the explorer.
    pub fn tee_read<B: Backend>(
        &self,
        engine: &B,
        job: u64,
        id: u64,
        spec: ReadSpec,
        explorer: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        let (tx, mut rx) = mpsc::channel(SINK_QUEUE);
        let handle = engine.start_read_with_id(id, spec, tx);
        let sink = self.sinks.get(&job).map(|s| s.tx.clone());
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                if let (EngineEvent::Page(page), Some(sink)) = (&event, &sink) {
                    let _ = sink.send(SinkInput::Items(page.items.clone())).await;
                }
                if explorer.send(event).await.is_err() {
                    break;
                }
            }
        });
        handle
    }

    pub fn finish(&self, job: u64) {
        self.send(job, SinkInput::Finish);
    }

    pub fn cancel(&self, job: u64) {
        if let Some(sink) = self.sinks.get(&job) {
            sink.cancelled.store(true, Ordering::Release);
        }
        self.send(job, SinkInput::Cancel);
    }

    fn send(&self, job: u64, input: SinkInput) {
        if let Some(sink) = self.sinks.get(&job) {
            let tx = sink.tx.clone();
            tokio::spawn(async move {
                let _ = tx.send(input).await;
            });
        }
    }

    /// Cancels every export and waits until each has removed its temporary file.
    pub async fn shutdown(self) {
        for (_, sink) in self.sinks {
            sink.cancelled.store(true, Ordering::Release);
            let _ = sink.tx.try_send(SinkInput::Cancel);
            drop(sink.tx);
            let _ = sink.task.await;
        }
    }
}

/// `~/x` as the home directory's `x`.
pub fn expand(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Whether `path` exists (`Ok(true)`), or why no file can be written there.
pub fn check_path(path: &str) -> Result<bool, String> {
    let full = expand(path);
    let dir = directory_of(&full);
    if !dir.is_dir() {
        return Err(format!("directory '{}' does not exist", dir.display()));
    }
    match fs::symlink_metadata(&full) {
        Ok(_) => match not_a_file(&full) {
            Some(what) => Err(format!(
                "'{path}' is {what}, not a file; it is never replaced: name a file"
            )),
            None => Ok(true),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(format!("cannot check '{path}': {e}")),
    }
}

/// What `path` is when it exists and is not a regular file (following a symlink): a device,
/// a fifo or a socket is never replaced by an export (as root, `/dev/null` would become a
/// file). A dangling symlink is replaced like a file: the link goes, nothing else.
fn not_a_file(path: &Path) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    let link = fs::symlink_metadata(path).ok()?;
    let kind = fs::metadata(path).ok()?.file_type();
    let what = if kind.is_file() {
        return None;
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_fifo() {
        "a named pipe (fifo)"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "something other than a regular file"
    };
    Some(if link.file_type().is_symlink() {
        format!("a symlink to {what}")
    } else {
        what.to_string()
    })
}

/// Directories completing `path`: in its directory, those whose name starts with its last
/// part (hidden ones only when that part starts with a dot), each ending in `/`.
pub fn complete_dirs(path: &str) -> Vec<String> {
    let (dir_text, prefix) = match path.rfind('/') {
        Some(at) => (&path[..=at], &path[at + 1..]),
        None => ("", path),
    };
    let dir = if dir_text.is_empty() {
        PathBuf::from(".")
    } else {
        expand(dir_text)
    };
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut found: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| {
            name.starts_with(prefix) && (prefix.starts_with('.') || !name.starts_with('.'))
        })
        .map(|name| format!("{dir_text}{name}/"))
        .collect();
    found.sort();
    found
}

/// Removes the temporary file unless the export completed.
struct TempFile {
    path: PathBuf,
    keep: bool,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = fs::remove_file(&self.path);
        }
    }
}

struct Progress<'a> {
    job: u64,
    msg_tx: &'a mpsc::UnboundedSender<Msg>,
    items: u64,
    bytes: u64,
    last: Instant,
}

impl Progress<'_> {
    fn add(&mut self, items: usize, bytes: usize) {
        self.items += items as u64;
        self.bytes += bytes as u64;
        if self.last.elapsed() >= PROGRESS_EVERY {
            self.last = Instant::now();
            let _ = self.msg_tx.send(Msg::Export(ExportMsg::Progress {
                job: self.job,
                items: self.items,
                bytes: self.bytes,
            }));
        }
    }
}

fn write_export(
    request: ExportRequest,
    mut rx: mpsc::Receiver<SinkInput>,
    cancelled: &AtomicBool,
    msg_tx: &mpsc::UnboundedSender<Msg>,
) -> Result<ExportSummary, String> {
    let shown = request.path.clone();
    let fail = |what: &str, e: io::Error| format!("export to '{shown}' failed: {what}: {e}");
    let path = expand(&request.path);
    let name = path
        .file_name()
        .ok_or_else(|| format!("'{shown}' names no file"))?
        .to_string_lossy()
        .into_owned();
    let temp_path = directory_of(&path).join(format!(
        ".{name}.{}-{}.part",
        std::process::id(),
        request.job
    ));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp_path)
        .map_err(|e| fail("cannot create the temporary file", e))?;
    let mut temp = TempFile {
        path: temp_path,
        keep: false,
    };
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let columns = match &request.columns {
        CsvColumns::Fixed(columns) => columns.clone(),
        CsvColumns::AllOf { keys } => match &request.items {
            ExportItems::List(items) => all_attributes(keys, items),
            ExportItems::Store { store, ids } => {
                all_attributes(keys, ids.iter().map(|&id| store.item(id)))
            }
        },
    };
    let mut encoder = super::export_sink::Sink::new(&request, columns);
    let mut progress = Progress {
        job: request.job,
        msg_tx,
        items: 0,
        bytes: 0,
        last: Instant::now(),
    };
    let mut buf = Vec::with_capacity(1 << 20);
    let mut write = |items: &[Item], progress: &mut Progress, out: &mut BufWriter<File>| {
        buf.clear();
        encoder.encode(items, &mut buf);
        out.write_all(&buf)?;
        progress.add(items.len(), buf.len());
        io::Result::Ok(())
    };
    let stopped = || {
        Err(format!(
            "export to '{shown}' cancelled; no file was written"
        ))
    };
    match &request.items {
        ExportItems::List(items) => {
            for chunk in items.chunks(CHUNK) {
                // Not `try_recv`: that would take (and lose) a page queued meanwhile.
                if cancelled.load(Ordering::Acquire) {
                    return stopped();
                }
                write(chunk, &mut progress, &mut out).map_err(|e| fail("write", e))?;
            }
        }
        ExportItems::Store { store, ids } => {
            for chunk in ids.chunks(CHUNK) {
                // Not `try_recv`: that would take (and lose) a page queued meanwhile.
                if cancelled.load(Ordering::Acquire) {
                    return stopped();
                }
                let items: Vec<Item> = chunk.iter().map(|&id| store.item(id)).collect();
                write(&items, &mut progress, &mut out).map_err(|e| fail("write", e))?;
            }
        }
    }
    if request.stream {
        loop {
            match rx.blocking_recv() {
                _ if cancelled.load(Ordering::Acquire) => return stopped(),
                Some(SinkInput::Items(items)) => {
                    write(&items, &mut progress, &mut out).map_err(|e| fail("write", e))?
                }
                Some(SinkInput::Finish) => break,
                Some(SinkInput::Cancel) | None => return stopped(),
            }
        }
    }
    let mut tail = Vec::new();
    encoder.finish(&mut tail);
    out.write_all(&tail).map_err(|e| fail("write", e))?;
    progress.bytes += tail.len() as u64;
    let file = out
        .into_inner()
        .map_err(|e| fail("write", e.into_error()))?;
    file.sync_all().map_err(|e| fail("sync", e))?;
    // Checked again: what was a file when the user agreed may be a device now.
    if let Some(what) = not_a_file(&path) {
        return Err(format!(
            "export to '{shown}' refused: it is {what}, not a file, and was left as it was"
        ));
    }
    place(&temp.path, &path, request.overwrite)
        .map_err(|e| fail("cannot give the file its name", e))?;
    temp.keep = true;
    Ok(ExportSummary {
        path: shown,
        items: progress.items,
        bytes: progress.bytes,
        left_out: encoder.left_out().to_vec(),
    })
}

/// Gives the finished file its name. Without `overwrite` it is linked, which fails if a file
/// appeared there meanwhile, so nothing the user did not agree to is ever replaced.
fn place(temp: &Path, path: &Path, overwrite: bool) -> io::Result<()> {
    if overwrite {
        return fs::rename(temp, path);
    }
    match fs::hard_link(temp, path) {
        Ok(()) => fs::remove_file(temp),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "a file appeared under that name while exporting; it was left as it was",
        )),
        // A file system without hard links: check, then rename.
        Err(_) if !path.exists() => fs::rename(temp, path),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
