//! The triage scan launcher: its fields, and what a launch will do and cost before anything is
//! sent.

use ratatui_textarea::TextArea;

use crate::model::design::schema::{IndexKind, TableInfo};
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{Operation, ReadSpec};
use crate::model::input::limits::{self, RealRange};
use crate::model::query::filter_compile::{compile_filter, compile_projection};
use crate::model::traffic::capacity::{on_demand_cost, scan_estimate_units};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LauncherField {
    Segments,
    Index,
    Filter,
    Projection,
    Consistency,
    MaxRcu,
    Rate,
}

impl LauncherField {
    pub const ALL: [LauncherField; 7] = [
        LauncherField::Segments,
        LauncherField::Index,
        LauncherField::Filter,
        LauncherField::Projection,
        LauncherField::Consistency,
        LauncherField::MaxRcu,
        LauncherField::Rate,
    ];

    pub fn label(self) -> &'static str {
        match self {
            LauncherField::Segments => "segments",
            LauncherField::Index => "index",
            LauncherField::Filter => "filter",
            LauncherField::Projection => "projection",
            LauncherField::Consistency => "read consistency",
            LauncherField::MaxRcu => "max RCU",
            LauncherField::Rate => "RCU per second",
        }
    }

    pub fn is_selector(self) -> bool {
        matches!(self, LauncherField::Index | LauncherField::Consistency)
    }
}

/// Items per page of a triage scan in the explorer.
pub const TRIAGE_PAGE_ITEMS: i32 = 2000;

/// What a launch will do and cost, before anything is sent.
#[derive(Debug, Clone)]
pub struct LaunchPlan {
    pub spec: ReadSpec,
    /// Read units a full scan of the table/index should take (DescribeTable size / 4 KB,
    /// halved when eventually consistent).
    pub estimate_rcu: f64,
    pub estimate_cost: f64,
    pub needs_confirmation: bool,
    /// A cheaper Query when the filter is an equality on a partition key.
    pub hint: Option<String>,
}

#[derive(Debug, Clone)]
pub struct ScanLauncher {
    pub focus: LauncherField,
    pub index: usize,
    pub consistent: bool,
    pub segments: TextArea<'static>,
    pub filter: TextArea<'static>,
    pub projection: TextArea<'static>,
    pub max_rcu: TextArea<'static>,
    pub rate: TextArea<'static>,
    pub plan: Result<LaunchPlan, (LauncherField, String)>,
    /// The estimate was shown over the threshold; the next Enter launches.
    pub confirming: bool,
}

/// Segments suggested for a table: one per 32 MB, 1 to 32 (a small table scans fastest in
/// one; a big one wants parallel segments, within what two cores and a fair share of the
/// table's throughput allow).
pub fn default_segments(size_bytes: i64) -> u32 {
    ((size_bytes.max(0) as f64 / (32.0 * 1024.0 * 1024.0)).ceil() as u32).clamp(1, 32)
}

fn area(text: &str) -> TextArea<'static> {
    let mut a = TextArea::from([text.to_string()]);
    a.move_cursor(ratatui_textarea::CursorMove::End);
    a
}

impl ScanLauncher {
    pub fn new(info: &TableInfo, index: usize) -> Self {
        ScanLauncher {
            focus: LauncherField::Segments,
            index,
            consistent: false,
            segments: area(&default_segments(info.size_bytes).to_string()),
            filter: TextArea::default(),
            projection: TextArea::default(),
            max_rcu: TextArea::default(),
            rate: TextArea::default(),
            plan: Err((LauncherField::Segments, String::new())),
            confirming: false,
        }
    }

    pub fn input(&self, field: LauncherField) -> Option<&TextArea<'static>> {
        Some(match field {
            LauncherField::Segments => &self.segments,
            LauncherField::Filter => &self.filter,
            LauncherField::Projection => &self.projection,
            LauncherField::MaxRcu => &self.max_rcu,
            LauncherField::Rate => &self.rate,
            _ => return None,
        })
    }

    pub fn input_mut(&mut self, field: LauncherField) -> Option<&mut TextArea<'static>> {
        Some(match field {
            LauncherField::Segments => &mut self.segments,
            LauncherField::Filter => &mut self.filter,
            LauncherField::Projection => &mut self.projection,
            LauncherField::MaxRcu => &mut self.max_rcu,
            LauncherField::Rate => &mut self.rate,
            _ => return None,
        })
    }

    pub fn text(&self, field: LauncherField) -> String {
        self.input(field)
            .map(|a| a.lines().join(""))
            .unwrap_or_default()
    }

    pub fn index_name(&self, info: &TableInfo) -> Option<String> {
        self.index
            .checked_sub(1)
            .and_then(|i| info.indexes.get(i))
            .map(|i| i.name.clone())
    }

    pub fn plan(
        &self,
        info: &TableInfo,
        price: f64,
        confirm_over: f64,
    ) -> Result<LaunchPlan, (LauncherField, String)> {
        let segments_text = self.text(LauncherField::Segments);
        let segments: u32 = match segments_text.trim().parse() {
            Ok(n) if (1..=crate::model::engine::MAX_SEGMENTS).contains(&n) => n,
            _ => {
                return Err((
                    LauncherField::Segments,
                    format!("segments '{segments_text}' must be 1 to 1000"),
                ))
            }
        };
        let in_range = |field: LauncherField,
                        range: RealRange|
         -> Result<Option<f64>, (LauncherField, String)> {
            let t = self.text(field);
            if t.trim().is_empty() {
                return Ok(None);
            }
            range
                .parse(&t)
                .map(Some)
                .map_err(|why| (field, format!("{} '{t}': {why}", field.label())))
        };
        let index = self.index.checked_sub(1).and_then(|i| info.indexes.get(i));
        if self.consistent && index.is_some_and(|i| i.kind == IndexKind::Gsi) {
            return Err((
                LauncherField::Consistency,
                "GSIs only support eventually consistent reads; choose eventual".into(),
            ));
        }
        let mut spec = ReadSpec::new(Operation::Scan, info.name.clone(), ReadCause::Scan);
        spec.index = index.map(|i| i.name.clone());
        spec.segments = segments;
        spec.consistent = self.consistent;
        spec.budget.max_rcu = in_range(LauncherField::MaxRcu, limits::MAX_RCU)?;
        spec.budget.rcu_per_second = in_range(LauncherField::Rate, limits::RCU_PER_SECOND)?;
        let filter = self.text(LauncherField::Filter);
        if !filter.trim().is_empty() {
            let c = compile_filter(&filter, "f").map_err(|e| (LauncherField::Filter, e))?;
            spec.filter = Some(c.expression);
            spec.names.extend(c.names);
            spec.values.extend(c.values);
        }
        let projection = self.text(LauncherField::Projection);
        if !projection.trim().is_empty() {
            let c = compile_projection(&projection).map_err(|e| (LauncherField::Projection, e))?;
            spec.projection = Some(c.expression);
            for n in c.names {
                if !spec.names.iter().any(|(k, _)| *k == n.0) {
                    spec.names.push(n);
                }
            }
        }
        let size = index
            .and_then(|i| i.size_bytes)
            .unwrap_or(info.size_bytes)
            .max(0) as u64;
        let estimate_rcu = scan_estimate_units(size, self.consistent);
        let estimate_cost = on_demand_cost(estimate_rcu, price);
        Ok(LaunchPlan {
            hint: query_hint(&filter, info, size),
            needs_confirmation: estimate_rcu > confirm_over,
            estimate_rcu,
            estimate_cost,
            spec,
        })
    }
}

/// A filter that pins a partition of the table or a GSI: a Query there reads only the
/// matching items instead of the whole table.
fn query_hint(filter: &str, info: &TableInfo, scan_bytes: u64) -> Option<String> {
    one_attribute_hint(filter, info, scan_bytes)
        .or_else(|| multi_attribute_hint(filter, info, scan_bytes))
}

/// `attr = "value"` on an attribute that is the whole partition key of the table or a GSI.
fn one_attribute_hint(filter: &str, info: &TableInfo, scan_bytes: u64) -> Option<String> {
    let (attr, value) = filter.split_once('=')?;
    let (attr, value) = (attr.trim(), value.trim());
    if attr.is_empty() || !attr.chars().all(|c| c.is_alphanumeric() || c == '_') || value.is_empty()
    {
        return None;
    }
    let target = if info.keys.partition_key().name == attr {
        "the table".to_string()
    } else {
        let index = info
            .indexes
            .iter()
            // An index keyed by several partition attributes needs them all in a Query
            // (`multi_attribute_hint`); several sort attributes need none.
            .find(|i| i.keys.partition().len() == 1 && i.keys.partition_key().name == attr)?;
        format!("index {}", index.name)
    };
    let avg_item = if info.item_count > 0 {
        info.size_bytes.max(0) / info.item_count
    } else {
        0
    };
    Some(format!(
        "{attr} is the partition key of {target}: a Query there with {attr} = {value} reads only the matching items (½ RCU per 4 KB of them, ≈{avg_item} B per item) instead of all ≈{:.0} RCU of this scan",
        scan_estimate_units(scan_bytes, false)
    ))
}

/// `a = x and b = y …` naming partition attributes of a GSI keyed by several: a Query there
/// when every one is given, else which are missing.
fn multi_attribute_hint(filter: &str, info: &TableInfo, scan_bytes: u64) -> Option<String> {
    let given: Vec<(String, String)> = filter
        .replace(" AND ", " and ")
        .split(" and ")
        .map(|clause| {
            let (attr, value) = clause.split_once('=')?;
            let (attr, value) = (attr.trim(), value.trim());
            let bare = attr.chars().all(|c| c.is_alphanumeric() || c == '_');
            (!attr.is_empty() && bare && !value.is_empty())
                .then(|| (attr.to_string(), value.to_string()))
        })
        .collect::<Option<_>>()?;
    let value_of = |name: &str| given.iter().find(|(a, _)| a == name).map(|(_, v)| v);
    let indexes = info.indexes.iter().filter(|i| i.keys.partition().len() > 1);
    let mut partial = None;
    for index in indexes {
        let attrs = index.keys.partition();
        let whole = attrs.iter().map(|k| k.name.as_str()).collect::<Vec<_>>();
        let missing: Vec<&str> = whole
            .iter()
            .copied()
            .filter(|n| value_of(n).is_none())
            .collect();
        if missing.is_empty() {
            let condition: Vec<String> = whole
                .iter()
                .map(|n| format!("{n} = {}", value_of(n).expect("given")))
                .collect();
            return Some(format!(
                "{} is the partition key of index {}: a Query there with {} reads only the matching items instead of all ≈{:.0} RCU of this scan",
                whole.join(" + "),
                index.name,
                condition.join(" and "),
                scan_estimate_units(scan_bytes, false)
            ));
        }
        if missing.len() < whole.len() && partial.is_none() {
            partial = Some(format!(
                "index {} is keyed by {}: give {} = … as well and a Query there reads only the matching items instead of this scan",
                index.name,
                whole.join(" + "),
                missing.join(" = …, ")
            ));
        }
    }
    partial
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
