//! A key count's read of an export (`hotkeys --export`): each item delivered as its key text
//! and DynamoDB size, never built as an item when the line's text gives both (the
//! size-and-key pass of [`crate::model::exports::table_export::tally_full_line`]); a line the pass
//! leaves alone is read by the full reader, so the counts are the same either way. The files'
//! checks (item counts, MD5, damaged lines) are [`read_data_lines`]'s, as for any read.

use super::{Shared, PAGE_ITEMS};
use crate::aws::table_export::reader::{read_data_lines, Flow};
use crate::model::exports::table_export::{
    parse_dynamo_line, parse_ion_line, tally_full_line, tally_of_item, ExportFormat, ExportType,
    FileReport, Record, SizePlan, SizeScratch, TableExportError, Tally,
};
use crate::model::traffic::distribution::SizedKeys;

impl Shared {
    /// One reader of a key count: takes the next file until none is left, and returns its
    /// files' reports.
    pub(super) fn run_sized(&self, segment: u32, plan: &SizePlan) -> Vec<(usize, FileReport)> {
        let (format, export_type) = (self.export.summary.format, self.export.summary.export_type);
        let fast = format == ExportFormat::DynamoJson && export_type == ExportType::Full;
        let mut reports = Vec::new();
        let mut page_no = 0u32;
        let mut batch = SizedKeys::with_capacity(PAGE_ITEMS);
        let mut scratch = SizeScratch::default();
        let mut consumer_gone = false;
        while !self.stopped() && !consumer_gone {
            let Some((index, file)) = self.next_file() else {
                break;
            };
            let report = read_data_lines(&self.export, file, &|| self.stopped(), |text| {
                let quick = if fast {
                    tally_full_line(text, plan, batch.key_buffer(), &mut scratch)
                } else {
                    None
                };
                let tally = match quick {
                    Some(tally) => tally,
                    None => {
                        let Some(item) = full_item(text, format, export_type)? else {
                            return Ok(Flow::Continue);
                        };
                        tally_of_item(&item, plan, batch.key_buffer())
                    }
                };
                if let Tally::Counted { bytes } = tally {
                    batch.push(bytes);
                }
                if batch.len() < PAGE_ITEMS {
                    return Ok(Flow::Continue);
                }
                let page = std::mem::replace(&mut batch, SizedKeys::with_capacity(PAGE_ITEMS));
                let scanned = page.len() as u64;
                if !self.send_sized(segment, &mut page_no, page, scanned) {
                    consumer_gone = true;
                }
                // Asked once a page, not once a line: the cancellation token takes a lock.
                Ok(if consumer_gone || self.stopped() {
                    Flow::Stop
                } else {
                    Flow::Continue
                })
            });
            reports.push((index, report));
        }
        if !consumer_gone && !batch.is_empty() && !self.cancel.is_cancelled() {
            let scanned = batch.len() as u64;
            self.send_sized(segment, &mut page_no, batch, scanned);
        }
        reports
    }
}

/// A line read by the full reader: the item a Scan of the export shows for it (`None` for a
/// change that deleted its item).
fn full_item(
    text: &str,
    format: ExportFormat,
    export_type: ExportType,
) -> Result<Option<crate::model::item::value::Item>, TableExportError> {
    let record = match format {
        ExportFormat::DynamoJson => parse_dynamo_line(text, export_type)?,
        ExportFormat::Ion => parse_ion_line(text, export_type)?,
    };
    Ok(match record {
        Record::Item(item) => Some(item),
        Record::Change(change) => change.new_image,
    })
}
