//! An export as a [`Backend`]: a Scan of it reads the data files, `segments` at a time on
//! blocking threads (decompression and parsing are CPU work), filters and projects each item
//! here as DynamoDB would on the server, and sends pages into the read's bounded channel, so
//! a slow consumer parks the readers and memory stays bounded by the channel, not the export.

use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::index_view::{size_plan, IndexView};
use super::latest::latest_images;
use super::plan::{compile, query_as_scan};
use super::reader::{read_data_file, Flow};
use super::OpenedExport;
use crate::aws::backend::Backend;
use crate::aws::error::EngineError;
use crate::aws::json_lines::JsonLines;
use crate::aws::read::{
    DoneOutcome, EngineEvent, Operation, Page, ReadHandle, ReadSpec, RequestId, SegmentStart,
};
use crate::aws::stream::describe::StreamTable;
use crate::aws::stream::{StreamEvent, StreamHandle, StreamStart};
use crate::model::design::schema::TableInfo;
use crate::model::exports::table_export::{
    ExportType, FileReport, IntegrityReport, Record, SizePlan,
};
use crate::model::item::value::Item;
use crate::model::query::expression::{ItemFilter, ItemProjection};
use crate::model::traffic::distribution::SizedKeys;

#[path = "pending.rs"]
mod pending;
#[path = "sized.rs"]
mod sized;

use pending::Pending;

/// Items per page sent into the channel.
const PAGE_ITEMS: usize = 1000;

#[derive(Clone)]
pub struct ExportBackend {
    export: Arc<OpenedExport>,
    info: Arc<TableInfo>,
    endpoint: String,
    next_id: Arc<AtomicU64>,
    /// Every data file read so far, in the manifest's order (filled as reads end).
    report: Arc<Mutex<IntegrityReport>>,
}

impl ExportBackend {
    /// `info` is the table as DescribeTable gave it, or as the caller built it from `--key` or
    /// the inferred keys.
    pub fn new(export: OpenedExport, info: TableInfo) -> Self {
        ExportBackend {
            endpoint: format!("export {}", export.location),
            export: Arc::new(export),
            info: Arc::new(info),
            next_id: Arc::default(),
            report: Arc::default(),
        }
    }

    /// The same export described by `info` (an index named by its keys added).
    pub fn with_info(mut self, info: TableInfo) -> Self {
        self.info = Arc::new(info);
        self
    }

    pub fn export(&self) -> &OpenedExport {
        &self.export
    }

    /// What the reads so far found in the data files.
    pub fn report(&self) -> IntegrityReport {
        self.report.lock().expect("report lock").clone()
    }
}

/// What each reader thread shares.
struct Shared {
    export: Arc<OpenedExport>,
    spec: ReadSpec,
    filter: Option<ItemFilter>,
    projection: Option<ItemProjection>,
    index: Option<IndexView>,
    /// Set when the read asked for [`Delivery::SizedKeys`] and needs nothing else: items are
    /// then read as key texts and sizes (`sized.rs`).
    ///
    /// [`Delivery::SizedKeys`]: crate::aws::read::Delivery::SizedKeys
    sized: Option<SizePlan>,
    id: RequestId,
    next_file: AtomicUsize,
    delivered: AtomicUsize,
    limit_reached: std::sync::atomic::AtomicBool,
    cancel: CancellationToken,
    started: Instant,
    tx: mpsc::Sender<EngineEvent>,
}

impl Shared {
    /// Sends a page; `false` when the consumer is gone.
    fn send(&self, segment: u32, page_no: &mut u32, items: Vec<Item>, scanned: u64) -> bool {
        self.send_page(segment, page_no, items, None, scanned)
    }

    /// Sends a page of items as key texts and sizes; `false` when the consumer is gone.
    fn send_sized(&self, segment: u32, page_no: &mut u32, sized: SizedKeys, scanned: u64) -> bool {
        self.send_page(segment, page_no, Vec::new(), Some(Box::new(sized)), scanned)
    }

    fn send_page(
        &self,
        segment: u32,
        page_no: &mut u32,
        mut items: Vec<Item>,
        sized_keys: Option<Box<SizedKeys>>,
        scanned: u64,
    ) -> bool {
        *page_no += 1;
        let json_lines = self.spec.delivery.json_lines().map(|spelling| {
            let lines = JsonLines::from_items(&items, spelling);
            items = Vec::new();
            lines
        });
        let count = match (&json_lines, &sized_keys) {
            (Some(lines), _) => lines.items,
            (None, Some(sized)) => sized.len(),
            (None, None) => items.len(),
        } as u64;
        let page = Page {
            request_id: self.id,
            operation: Operation::Scan,
            index: None,
            segment,
            page: *page_no,
            items,
            json_lines,
            sized_keys,
            count,
            scanned_count: scanned,
            consumed: Default::default(),
            sent_at: self.started.elapsed(),
            latency: Duration::ZERO,
            attempts: Default::default(),
            last_evaluated_key: None,
            resume: Some(SegmentStart::Finished),
            sent: None,
        };
        self.tx.blocking_send(EngineEvent::Page(page)).is_ok()
    }

    /// Takes `n` of the limit; how many of them may be delivered.
    fn take(&self, n: usize) -> usize {
        let Some(limit) = self.spec.limit else {
            return n;
        };
        let before = self.delivered.fetch_add(n, Ordering::SeqCst);
        let allowed = limit.saturating_sub(before).min(n);
        if before + n >= limit {
            self.limit_reached.store(true, Ordering::SeqCst);
        }
        allowed
    }

    fn stopped(&self) -> bool {
        self.cancel.is_cancelled() || self.limit_reached.load(Ordering::SeqCst)
    }

    /// The next data file no reader has taken, with its place in the manifest.
    fn next_file(&self) -> Option<(usize, &crate::model::exports::table_export::DataFile)> {
        let index = self.next_file.fetch_add(1, Ordering::SeqCst);
        self.export.files.get(index).map(|file| (index, file))
    }

    /// One reader: takes the next file until none is left, and returns its files' reports.
    fn run(&self, segment: u32) -> Vec<(usize, FileReport)> {
        if let Some(plan) = &self.sized {
            return self.run_sized(segment, plan);
        }
        let mut reports = Vec::new();
        let mut p = Pending::new(segment);
        while !self.stopped() && !p.consumer_gone {
            let Some((index, file)) = self.next_file() else {
                break;
            };
            let report = read_data_file(&self.export, file, &|| self.stopped(), |record| {
                let item = match record {
                    Record::Item(item) => item,
                    Record::Change(change) => match change.new_image {
                        Some(image) => image,
                        None => return Flow::Continue,
                    },
                };
                if self.offer(&mut p, item) {
                    Flow::Continue
                } else {
                    Flow::Stop
                }
            });
            reports.push((index, report));
        }
        self.finish(p);
        reports
    }

    /// An incremental export's items: the newest image of each key written (see
    /// [`latest_images`]), read by one reader since every change must be seen first.
    fn run_latest(&self) -> Vec<(usize, FileReport)> {
        let (items, report) = latest_images(&self.export, || !self.stopped());
        let mut p = Pending::new(0);
        for item in items {
            if !self.offer(&mut p, item) {
                break;
            }
        }
        self.finish(p);
        report.files.into_iter().enumerate().collect()
    }
}

impl Backend for ExportBackend {
    fn endpoint(&self) -> &str {
        &self.endpoint
    }

    fn start_read_with_id(
        &self,
        id: RequestId,
        spec: ReadSpec,
        tx: mpsc::Sender<EngineEvent>,
    ) -> ReadHandle {
        let spec = match query_as_scan(spec) {
            Ok(spec) => spec,
            Err(e) => return ReadHandle::failed(id, e, tx),
        };
        let (filter, projection) = match compile(&spec) {
            Ok(compiled) => compiled,
            Err(e) => return ReadHandle::failed(id, e, tx),
        };
        let index = match spec.index.as_deref() {
            None => None,
            Some(name) => match IndexView::new(&self.info, name) {
                Some(view) => Some(view),
                None => {
                    let e = EngineError::bad_input(format!(
                        "index '{name}' is not known for this export; name its key attributes with --index PK[,SK]"
                    ));
                    return ReadHandle::failed(id, e, tx);
                }
            },
        };
        let latest = self.export.summary.export_type == ExportType::Incremental;
        // A count that needs only keys and sizes: nothing filters, projects or limits the
        // items, and each item is a line (an incremental export's items are its newest
        // images, which only the full reader finds).
        let sized = spec
            .delivery
            .sized_keys()
            .filter(|_| filter.is_none() && projection.is_none() && spec.limit.is_none() && !latest)
            .map(|key| size_plan(index.as_ref(), key));
        let readers = match latest {
            true => 1,
            false => spec
                .segments
                .clamp(1, self.export.files.len().max(1) as u32),
        };
        let cancel = CancellationToken::new();
        let shared = Arc::new(Shared {
            export: self.export.clone(),
            spec,
            filter,
            projection,
            index,
            sized,
            id,
            next_file: AtomicUsize::new(0),
            delivered: AtomicUsize::new(0),
            limit_reached: Default::default(),
            cancel: cancel.clone(),
            started: Instant::now(),
            tx: tx.clone(),
        });
        let report = self.report.clone();
        let task = tokio::spawn(async move {
            let handles: Vec<_> = (0..readers)
                .map(|segment| {
                    let shared = shared.clone();
                    tokio::task::spawn_blocking(move || match latest {
                        true => shared.run_latest(),
                        false => shared.run(segment),
                    })
                })
                .collect();
            let mut reports = Vec::new();
            for handle in handles {
                reports.extend(handle.await.unwrap_or_default());
            }
            reports.sort_by_key(|(index, _)| *index);
            let files = IntegrityReport {
                files: reports.into_iter().map(|(_, r)| r).collect(),
            };
            let outcome = if shared.cancel.is_cancelled() {
                DoneOutcome::Cancelled
            } else if shared.limit_reached.load(Ordering::SeqCst) {
                DoneOutcome::LimitReached
            } else {
                DoneOutcome::Complete
            };
            // Only a read of every file is judged: one cut short on purpose is not.
            if outcome == DoneOutcome::Complete && !files.is_complete() {
                let report = files.clone();
                let _ = tx
                    .send(EngineEvent::Integrity {
                        request_id: id,
                        report,
                    })
                    .await;
            }
            *report.lock().expect("report lock") = files;
            let _ = tx
                .send(EngineEvent::Done {
                    request_id: id,
                    outcome,
                    elapsed: shared.started.elapsed(),
                })
                .await;
        });
        ReadHandle::from_parts(id, cancel, task)
    }

    fn next_request_id(&self) -> RequestId {
        self.next_id.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn list_tables(&self) -> impl Future<Output = Result<Vec<String>, EngineError>> + Send {
        let names = vec![self.info.name.clone()];
        async move { Ok(names) }
    }

    fn describe_table(
        &self,
        _table: &str,
    ) -> impl Future<Output = Result<TableInfo, EngineError>> + Send {
        let info = (*self.info).clone();
        async move { Ok(info) }
    }

    /// An incremental export's changes are its stream, over the export's window.
    fn stream_table(
        &self,
        _table: &str,
    ) -> impl Future<Output = Result<StreamTable, EngineError>> + Send {
        std::future::ready(super::replay::stream_table(&self.export, &self.info))
    }

    fn start_stream(
        &self,
        _target: &StreamTable,
        _start: StreamStart,
        tx: mpsc::Sender<StreamEvent>,
    ) -> StreamHandle {
        super::replay::start(self.export.clone(), self.report.clone(), tx)
    }
}
