//! One data file, read once: its bytes hashed (MD5, for `md5Checksum`) as they are
//! decompressed, each line parsed as it comes, and what went wrong kept for the report.

use std::io::{BufRead, BufReader, Read};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use flate2::bufread::MultiGzDecoder;
use md5::{Digest, Md5};

use super::OpenedExport;
use crate::model::exports::table_export::{
    parse_dynamo_line, parse_ion_line, DataFile, ExportFormat, FileProblem, FileReport, Record,
    TableExportError, LINE_MAX_BYTES,
};
use crate::model::text::wording::thousands;

/// Each buffer of a read: compressed bytes, and inflated ones.
const BUFFER_BYTES: usize = 256 * 1024;

/// What the caller wants after a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// Inflated bytes read between two asks of `stop` (a blank line is one byte: lines are not
/// what is counted). A quarter of a buffer inflates in well under a millisecond.
const STOP_CHECK_BYTES: usize = 64 * 1024;

/// Hashes what passes through it, and ends the read (an error) once `stop` says so: a gzip
/// stream may inflate for long on little input, or never produce a byte.
struct Hashing<'s, R> {
    inner: R,
    md5: Md5,
    stop: &'s dyn Fn() -> bool,
}

impl<R: Read> Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if (self.stop)() {
            return Err(std::io::Error::other("the read was cancelled"));
        }
        let n = self.inner.read(buf)?;
        self.md5.update(&buf[..n]);
        Ok(n)
    }
}

/// Reads `file` of `export` (on disk or streamed from S3: the MD5 is of the bytes read either
/// way), handing each record to `on_record`. A stop by the caller (a [`Flow::Stop`], or `stop`
/// saying so: it is asked every [`STOP_CHECK_BYTES`] and on every read of the object, so a
/// cancel ends even a never-ending file at once) ends the read early without a problem (and
/// without the checks that need the whole file). Blocks: call it on a blocking thread.
pub fn read_data_file(
    export: &OpenedExport,
    file: &DataFile,
    stop: &dyn Fn() -> bool,
    mut on_record: impl FnMut(Record) -> Flow,
) -> FileReport {
    let (format, export_type) = (export.summary.format, export.summary.export_type);
    read_data_lines(export, file, stop, |text| {
        let parsed = match format {
            ExportFormat::DynamoJson => parse_dynamo_line(text, export_type),
            ExportFormat::Ion => parse_ion_line(text, export_type),
        };
        parsed.map(&mut on_record)
    })
}

/// [`read_data_file`] with the reading of each line left to `on_line`: `Ok` for a record
/// (counted as read), an error for a damaged line. The file's checks are the same.
pub fn read_data_lines(
    export: &OpenedExport,
    file: &DataFile,
    stop: &dyn Fn() -> bool,
    mut on_line: impl FnMut(&str) -> Result<Flow, TableExportError>,
) -> FileReport {
    let mut report = FileReport {
        key: file.key.clone(),
        listed: file.item_count,
        read: 0,
        problems: Vec::new(),
    };
    let raw = match export.open_data(file) {
        Ok(raw) => raw,
        Err(problem) => {
            report.problems.push(problem);
            return report;
        }
    };
    // The compressed bytes are hashed as they are read, in big reads, and inflated straight
    // from that buffer (flate2's `read` decoder would copy them into its own 32 KB one).
    let mut compressed = BufReader::with_capacity(
        BUFFER_BYTES,
        Hashing {
            inner: raw,
            md5: Md5::new(),
            stop,
        },
    );
    let mut stopped = false;
    {
        let mut lines =
            BufReader::with_capacity(BUFFER_BYTES, MultiGzDecoder::new(&mut compressed));
        let mut line = Vec::with_capacity(4096);
        let (mut line_no, mut bad, mut first_bad) = (0u64, 0u64, None);
        let mut unchecked = 0usize;
        loop {
            if unchecked >= STOP_CHECK_BYTES {
                unchecked = 0;
                if stop() {
                    stopped = true;
                    break;
                }
            }
            line.clear();
            let read = read_line(&mut lines, &mut line, stop);
            unchecked += line.len();
            let over = match read {
                Ok(None) => break,
                Ok(Some(over)) => over,
                Err(_) if stop() => {
                    stopped = true;
                    break;
                }
                Err(e) => {
                    report.problems.push(FileProblem::Corrupt(e.to_string()));
                    break;
                }
            };
            line_no += 1;
            if let Some(length) = over {
                unchecked = STOP_CHECK_BYTES;
                bad += 1;
                first_bad.get_or_insert((line_no, over_long(length)));
                continue;
            }
            let text = match std::str::from_utf8(&line) {
                Ok(t) => t.trim_end_matches(['\n', '\r']),
                Err(e) => {
                    bad += 1;
                    first_bad.get_or_insert((line_no, format!("not UTF-8 ({e})")));
                    continue;
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            match on_line(text) {
                Ok(flow) => {
                    report.read += 1;
                    if flow == Flow::Stop {
                        stopped = true;
                        break;
                    }
                }
                Err(e) => {
                    bad += 1;
                    first_bad.get_or_insert((line_no, e.to_string()));
                }
            }
        }
        if let Some((first_line, why)) = first_bad {
            report.problems.push(FileProblem::BadLines {
                count: bad,
                first_line,
                why,
            });
        }
    }
    if stopped {
        return report;
    }
    // The checksum covers the whole object, also bytes after a gzip stream that broke off
    // (a cancel ends this too: `Hashing` asks `stop` on every read).
    if std::io::copy(&mut compressed, &mut std::io::sink()).is_err() && stop() {
        return report;
    }
    let actual = BASE64.encode(compressed.into_inner().md5.finalize());
    if let Some(listed) = &file.md5_checksum {
        if *listed != actual {
            report.problems.push(FileProblem::Checksum {
                listed: listed.clone(),
                actual,
            });
        }
    }
    let broken = report
        .problems
        .iter()
        .any(|p| matches!(p, FileProblem::Corrupt(_) | FileProblem::BadLines { .. }));
    if !broken && report.read != file.item_count {
        report.problems.push(FileProblem::Count {
            listed: file.item_count,
            read: report.read,
        });
    }
    report
}

/// The next line of `lines` into `line` (with its newline): `None` at the end, else whether it
/// was over [`LINE_MAX_BYTES`] and how long it was. An over-long line is read past, never kept
/// (a gzip bomb with no newline is gigabytes of one line), asking `stop` between buffers.
fn read_line(
    lines: &mut impl BufRead,
    line: &mut Vec<u8>,
    stop: &dyn Fn() -> bool,
) -> std::io::Result<Option<Option<u64>>> {
    let limit = LINE_MAX_BYTES as u64 + 1;
    let n = lines.by_ref().take(limit).read_until(b'\n', line)?;
    if n == 0 {
        return Ok(None);
    }
    if (n as u64) < limit || line.ends_with(b"\n") {
        return Ok(Some(None));
    }
    line.clear();
    let mut length = n as u64;
    loop {
        if stop() {
            return Err(std::io::Error::other("the read was cancelled"));
        }
        let buffer = lines.fill_buf()?;
        if buffer.is_empty() {
            return Ok(Some(Some(length)));
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => {
                lines.consume(at + 1);
                return Ok(Some(Some(length + at as u64)));
            }
            None => {
                let all = buffer.len();
                lines.consume(all);
                length += all as u64;
            }
        }
    }
}

/// Why an over-long line is not a record.
fn over_long(length: u64) -> String {
    format!(
        "it is {} bytes or more, over the {} a record can be (two 400 KB images, each byte written as up to 10); the file is damaged or not an export's",
        thousands(length),
        thousands(LINE_MAX_BYTES as u64)
    )
}
