//! The read tools over an S3 export (`dynoscope mcp --export PATH`): `query` pages through one
//! item collection and `hotkeys` counts the keys, both reading the export's files through
//! the streaming export reader (on blocking threads, pages through a bounded channel) at
//! 0 RCU, with nothing sent to DynamoDB. An export's files have no key order, so each page
//! reads them all and keeps only the next page after the cursor ([`KeyWindow`]): memory holds
//! about two pages, not the collection. A call the client cancels stops the readers.

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::cursor::Position;
use super::page::{self, RequestCost};
use super::reads::{query_args, ItemsResult, QueryParams};
use super::reports::{self, HotkeysParams, HotkeysResult, MAX_EXACT_KEYS};
use super::server::{engine_said, page_items, said, Refusal, Server};
use crate::aws::table_export::ExportBackend;
use crate::aws::{Backend, Delivery, DoneOutcome, EngineError, EngineEvent, Page, ReadSpec};
use crate::cli::export_source::index_from_keys;
use crate::cli::read_cmd::query_specs;
use crate::cli::read_spec::index_keys;
use crate::model::design::collection::KeyWindow;
use crate::model::design::schema::TableInfo;
use crate::model::engine::read_cause::ReadCause;
use crate::model::exports::table_export::ExportType;
use crate::model::item::item_size::item_size;
use crate::model::query::expression::ItemProjection;
use crate::model::traffic::distribution::{partition_text, KeyDistribution};

/// Pages the export's readers may queue ahead of the call.
const CHANNEL_PAGES: usize = 4;
/// Reader threads per call: decompression and parsing are CPU work, shared with every other
/// call of the session.
const READERS: u32 = 2;

/// What a read of the export evaluated: one entry, at 0 RCU.
fn export_cost(count: u64, scanned: u64) -> RequestCost {
    RequestCost {
        operation: "Scan".into(),
        index: None,
        consumed_rcu: 0.0,
        count,
        scanned_count: scanned,
    }
}

/// Runs `spec` over `backend`, handing each page to `on_page`, until the read ends; cancelled
/// with `cancel` (the client's cancellation) or when the call is dropped. A read that ended
/// with a data file missing or damaged is an error: its answer would cover part of the export.
async fn drain_export(
    backend: &ExportBackend,
    spec: ReadSpec,
    cancel: &CancellationToken,
    mut on_page: impl FnMut(Page),
) -> Result<(), Refusal> {
    let (tx, mut rx) = mpsc::channel(CHANNEL_PAGES);
    let handle = backend.start_read(spec, tx);
    // Dropped with the call (the client went away): the readers stop at their next record.
    let _stop = handle.cancel_token().drop_guard();
    let mut shortfall = None;
    loop {
        let event = tokio::select! {
            event = rx.recv() => event,
            _ = cancel.cancelled() => {
                handle.cancel();
                return Err("cancelled by the client; the export's readers were stopped".into());
            }
        };
        match event {
            Some(EngineEvent::Page(page)) => on_page(page),
            Some(EngineEvent::Integrity { report, .. }) => shortfall = report.shortfall(),
            Some(EngineEvent::Failed { error, .. }) => return Err(engine_said(error)),
            Some(EngineEvent::Done { outcome, .. }) => {
                if outcome == DoneOutcome::Cancelled {
                    return Err("the export's read was cancelled".into());
                }
                break;
            }
            Some(EngineEvent::Abandoned { .. }) => {}
            None => break,
        }
    }
    match shortfall {
        Some(line) => Err(format!(
            "{line}; the answer would cover only part of the export, so none is given"
        )),
        None => Ok(()),
    }
}

impl Server {
    /// The export's table, named `table` by the call: the one table this server reads.
    pub(super) async fn export_table(
        &self,
        export: &ExportBackend,
        table: &str,
    ) -> Result<TableInfo, EngineError> {
        let info = export.describe_table(table).await?;
        if info.name != table {
            return Err(EngineError::bad_input(format!(
                "table '{table}' is not the one this server reads: it reads the export of '{}' ({}); call with table '{}'",
                info.name,
                export.endpoint(),
                info.name
            )));
        }
        Ok(info)
    }

    /// The export with the call's index added, named by its key attributes (`GSI1PK,GSI1SK`):
    /// an export keeps no index definitions.
    async fn export_for(
        &self,
        export: &ExportBackend,
        table: &str,
        index: Option<&str>,
    ) -> Result<ExportBackend, Refusal> {
        let mut info = self
            .export_table(export, table)
            .await
            .map_err(engine_said)?;
        if export.export().summary.export_type == ExportType::Incremental {
            return Err(format!(
                "export '{}' is incremental: it holds changes, not items; give a full export",
                export.export().summary.export_id
            ));
        }
        match index {
            None => Ok(export.clone()),
            Some(index) => {
                index_from_keys(&mut info, index).map_err(said)?;
                Ok(export.clone().with_info(info))
            }
        }
    }

    /// One page of an item collection of the export, after the cursor, in key order.
    pub(super) async fn export_query(
        &self,
        export: &ExportBackend,
        p: &QueryParams,
        cancel: &CancellationToken,
    ) -> Result<ItemsResult, Refusal> {
        let items = page_items(p.limit)?;
        let args = query_args(p)?;
        let backend = self
            .export_for(export, &p.table, p.index.as_deref())
            .await?;
        let mut specs = query_specs(&backend, &args).await.map_err(said)?;
        let mut spec = specs.specs.pop().ok_or("no request was built")?;
        // The scope says the cursor is of an export: a table's cursor is not one of these.
        let scope = format!("export {}", p.scope());
        let after = match p.cursor.as_deref() {
            None => None,
            Some(c) => match self.inner.cursors.decode(&scope, c)? {
                Position::After(key) => Some(key),
                _ => return Err("cursor refused: it is not one the query tool gave".into()),
            },
        };
        // Projected after the page is chosen: the order and the cursor need the keys.
        let projection = spec
            .projection
            .take()
            .map(|e| ItemProjection::compile(&e, &spec.names))
            .transpose()
            .map_err(|e| format!("projection: {e}"))?;
        spec.cause = ReadCause::AgentCall;
        spec.limit = None;
        spec.segments = READERS;
        let head = (spec.table.clone(), spec.index.clone());
        let key_names = specs.key_names.clone();
        let mut window = KeyWindow::new(&specs.sort_keys, &key_names, p.descending, after, items);
        let (mut count, mut scanned) = (0u64, 0u64);
        drain_export(&backend, spec, cancel, |page| {
            count += page.count;
            scanned += page.scanned_count;
            for item in page.items {
                window.offer(item);
            }
        })
        .await?;
        let (chosen, more) = window.finish();
        let shown: Vec<_> = match &projection {
            Some(projection) => chosen.iter().map(|i| projection.apply(i)).collect(),
            None => chosen.clone(),
        };
        let (values, cut) = page::to_values(&shown);
        let next = (cut || more)
            .then(|| {
                values
                    .len()
                    .checked_sub(1)
                    .and_then(|last| chosen.get(last))
            })
            .flatten()
            .map(|last| Position::After(page::key_of(last, &key_names)));
        Ok(ItemsResult {
            operation: "Query".into(),
            table: head.0,
            index: head.1,
            count: values.len(),
            items: values,
            stopped: if next.is_some() { "page_full" } else { "complete" }.into(),
            cursor: next.map(|position| self.inner.cursors.encode(&scope, &position)),
            note: Some(format!(
                "read from the export's files at 0 RCU: {count} items matched the key condition and filter of the {scanned} read"
            )),
            source: self.source(),
            cost: self.cost(vec![export_cost(count, scanned)]),
        })
    }

    /// Hot keys of the export's table or of an index (named by its key attributes), counted
    /// as `dynoscope hotkeys --export` counts them.
    pub(super) async fn export_hotkeys(
        &self,
        export: &ExportBackend,
        p: &HotkeysParams,
        cancel: &CancellationToken,
    ) -> Result<HotkeysResult, Refusal> {
        let (top, segments) = reports::check_hotkeys(p)?;
        let backend = self
            .export_for(export, &p.table, p.index.as_deref())
            .await?;
        let info = backend
            .describe_table(&p.table)
            .await
            .map_err(engine_said)?;
        let keys = index_keys(&info, p.index.as_deref()).map_err(said)?;
        let partition: Vec<String> = keys.partition().iter().map(|k| k.name.clone()).collect();
        let partition_key = partition.join(" + ");
        let mut spec = reports::hotkeys_spec(&info, p, segments);
        // Each line's key and size, without building the item (as `hotkeys --export`); by one
        // attribute only: a multi-attribute key's lines are built into items.
        if let [one] = partition.as_slice() {
            spec.delivery = Delivery::SizedKeys(one.clone());
        }
        let mut d = KeyDistribution::bounded(MAX_EXACT_KEYS);
        let mut scanned = 0u64;
        drain_export(&backend, spec, cancel, |page| {
            scanned += page.scanned_count;
            for item in &page.items {
                d.add(&partition_text(item, &partition), item_size(item));
            }
            if let Some(sized) = &page.sized_keys {
                d.add_sized(sized);
            }
        })
        .await?;
        let context = reports::context(&info, p.index.as_deref(), &partition_key);
        Ok(HotkeysResult {
            table: info.name.clone(),
            index: p.index.clone(),
            partition_key: partition_key.clone(),
            complete: true,
            distinct_keys: d.distinct_keys(),
            total_items: d.total_items(),
            total_bytes: d.total_bytes(),
            top_one_percent_share: d.top_one_percent_share(),
            top: reports::as_value(&d.top(top)),
            shard_families: reports::as_value(&d.shard_families()),
            warnings: reports::as_value(&d.warnings(&context)),
            note: None,
            source: self.source(),
            cost: self.cost(vec![export_cost(d.total_items(), scanned)]),
        })
    }
}
