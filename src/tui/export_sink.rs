//! What an export's items become in its file: each page encoded as it comes (JSON lines, CSV,
//! a JSON array), or, for the design document (`X`), gathered and written at the end as
//! `model export --output markdown` writes it, inferred from those items alone.

use crate::app::state::ExportRequest;
use crate::model::design::inferred::{design_markdown, infer_design};
use crate::model::design::schema::TableInfo;
use crate::model::exports::export::ItemEncoder;
use crate::model::item::value::Item;

pub(super) enum Sink {
    Items(ItemEncoder),
    Design(Box<TableInfo>, Vec<Item>),
}

impl Sink {
    pub(super) fn new(request: &ExportRequest, columns: Vec<String>) -> Self {
        match &request.design {
            Some(info) => Sink::Design(info.clone(), Vec::new()),
            None => Sink::Items(ItemEncoder::new(request.format, columns)),
        }
    }

    pub(super) fn encode(&mut self, items: &[Item], out: &mut Vec<u8>) {
        match self {
            Sink::Items(encoder) => encoder.encode(items, out),
            Sink::Design(_, gathered) => gathered.extend_from_slice(items),
        }
    }

    pub(super) fn finish(&mut self, out: &mut Vec<u8>) {
        match self {
            Sink::Items(encoder) => encoder.finish(out),
            Sink::Design(info, gathered) => {
                out.extend_from_slice(design_markdown(&infer_design(info, gathered)).as_bytes())
            }
        }
    }

    pub(super) fn left_out(&self) -> &[String] {
        match self {
            Sink::Items(encoder) => encoder.left_out(),
            Sink::Design(..) => &[],
        }
    }
}
