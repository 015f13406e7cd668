//! Checking access patterns on a live table (issue 34): each pattern's key sample, its calls
//! and its report, through the engine's session guard. `patterns check` runs every pattern of
//! a table under its `--max-rcu`; the explorer's palette (Ctrl-K) runs one under the session's.
//! What is judged, and how it is worded, is the model's (`model::design::pattern_check`).

pub mod reader;

use std::collections::BTreeMap;

use crate::aws::{pattern_read, plan_read, Backend, EngineError, ReadSpec};
use crate::model::design::access_pattern::AccessPattern;
use crate::model::design::pattern_check::gsi::missing_index_read;
use crate::model::design::pattern_check::params::params_from_item;
use crate::model::design::pattern_check::{
    assess, plan, Assessment, KeySample, Measured, PatternPlan, PatternReport, ProjectionFit,
    ReadShape,
};
use crate::model::design::schema::TableInfo;
use crate::model::item::value::Item;
use crate::model::query::partiql::advise;
use reader::{draw_params, Outcome, Reader, Tap};

/// One check's reads: the samples taken so far (per table or index, read once) and whether
/// the budget ran out.
pub struct Checker<'a, B: Backend> {
    pub reader: Reader<'a, B>,
    samples: BTreeMap<Option<String>, KeySample>,
    pub budget_spent: bool,
    /// Times each pattern runs.
    pub calls: usize,
    /// Run the patterns that can only be a Scan.
    pub allow_scan: bool,
}

impl<'a, B: Backend> Checker<'a, B> {
    pub fn new(reader: Reader<'a, B>, calls: usize, allow_scan: bool) -> Self {
        Checker {
            reader,
            samples: BTreeMap::new(),
            budget_spent: false,
            calls,
            allow_scan,
        }
    }

    /// Every key sample the patterns need, before any call: the risk a pattern's key carries
    /// is judged on its sample, so a pattern the calls' budget does not reach still gets it.
    pub async fn sample_all<'p>(
        &mut self,
        patterns: impl IntoIterator<Item = &'p AccessPattern>,
    ) -> Result<(), EngineError> {
        let info = self.reader.info;
        if patterns
            .into_iter()
            .any(|p| needs_sample(p, &plan(p, info)))
        {
            self.sample(None).await?;
        }
        Ok(())
    }

    /// The table's key sample, when a pattern needed it (read by [`Checker::sample_all`]).
    pub fn table_sample(&self) -> Option<&KeySample> {
        self.samples.get(&None)
    }

    /// The sample of `index` (`None`: the table), read once for every pattern that needs it;
    /// empty once the budget is spent.
    async fn sample(&mut self, index: Option<&str>) -> Result<KeySample, EngineError> {
        let key = index.map(str::to_string);
        if !self.samples.contains_key(&key) && !self.budget_spent {
            let items = match self.reader.sample(index).await? {
                Outcome::Done(items) => items,
                Outcome::BudgetSpent => {
                    self.budget_spent = true;
                    KeySample::default()
                }
            };
            self.samples.insert(key.clone(), items);
        }
        Ok(self.samples.get(&key).cloned().unwrap_or_default())
    }

    /// One pattern's report: its plan, its calls (unless the budget is spent or it can only
    /// be a Scan without `allow_scan`), its key's risk and its verdict.
    pub async fn check(
        &mut self,
        pattern: &AccessPattern,
        source: &str,
    ) -> Result<PatternReport, EngineError> {
        let info: &TableInfo = self.reader.info;
        let plan = plan(pattern, info);
        let scan = matches!(plan.shape, ReadShape::Scan { .. });
        let runs = !scan || (self.allow_scan && !plan.pk_attributes.is_empty());
        // The table's sample, read before any call: the parameters are drawn from it and a
        // GSI's key (or the key of the GSI a Scan needs) is judged on it.
        let table_sample = match needs_sample(pattern, &plan) {
            true => self.sample(None).await?,
            false => KeySample::default(),
        };
        // A Scan is judged from its plan unless allowed: nothing is drawn or read for it.
        let mut items: &[Item] = if runs { &table_sample.items } else { &[] };
        let mut params = draw(pattern, &plan, items, self.calls);
        // A sparse index's items may be rare among the table's: then its own sample.
        let index_sample;
        if runs && params.is_empty() && !scan && pattern.index.is_some() {
            index_sample = self.sample(pattern.index.as_deref()).await?;
            items = &index_sample.items;
            params = draw(pattern, &plan, items, self.calls);
        }
        let gsi = match scan {
            true => missing_index_read(
                pattern,
                &plan,
                info,
                &params.first().cloned().unwrap_or_default(),
            ),
            false => None,
        };
        let advice = gsi
            .as_ref()
            .map(|(select, read)| advise(select, read, info, items));
        let (measured, unmeasured) = match (runs, params.is_empty(), self.budget_spent) {
            (false, _, _) if plan.pk_attributes.is_empty() => (
                None,
                Some("a Scan of the whole table, and the pattern names no index_pk to propose an index for".to_string()),
            ),
            (false, _, _) => (
                None,
                Some("it can only be a Scan; --allow-scan runs it".to_string()),
            ),
            (true, _, true) => (None, Some("the budget ran out first".to_string())),
            (true, true, false) => (
                None,
                Some(format!(
                    "no item of the {}-item sample fits its key templates",
                    items.len()
                )),
            ),
            (true, false, false) => {
                let mut calls = Vec::new();
                let pattern = &as_called(pattern, &plan);
                for p in &params {
                    let spec = call_spec(pattern, p, info, scan)?;
                    match self.reader.call(spec).await? {
                        Outcome::Done(cost) => calls.push(cost),
                        Outcome::BudgetSpent => {
                            self.budget_spent = true;
                            break;
                        }
                    }
                }
                let note = (calls.len() < params.len()).then(|| {
                    format!(
                        "the budget ran out after {} of {} calls",
                        calls.len(),
                        params.len()
                    )
                });
                (Measured::of(calls, pattern.filter.is_some()), note)
            }
        };
        Ok(assess(Assessment {
            pattern,
            source,
            plan,
            sample: &table_sample,
            measured,
            unmeasured,
            advice: advice.as_ref(),
        }))
    }
}

/// How the explorer's Ctrl-K runs a check: the check's own bound when the session has no
/// `--max-rcu`, its cancel token (Esc), and where its pages are copied (the request log).
pub struct OnBehalf {
    pub max_rcu: Option<f64>,
    pub cancel: tokio_util::sync::CancellationToken,
    pub tap: Option<Tap>,
}

/// What a check on its own came to: its report or why there is none, and every read unit its
/// requests consumed (samples and calls, whole or cut short), which is what it says it spent.
pub struct Checked {
    pub report: Result<PatternReport, EngineError>,
    pub spent_rcu: f64,
    /// Its cancel token stopped it.
    pub stopped: bool,
}

/// One pattern checked on its own (the explorer's Ctrl-K): its samples and `calls` calls
/// through `engine`, whose session guard admits every request, under `on_behalf`'s own bound;
/// a would-be Scan reads nothing.
pub async fn check_pattern<B: Backend>(
    engine: &B,
    info: &TableInfo,
    pattern: &AccessPattern,
    calls: usize,
    on_behalf: OnBehalf,
) -> Checked {
    let quiet = |_: &str| {};
    let mut reader = Reader::new(engine, info, &quiet);
    reader.max_rcu = on_behalf.max_rcu;
    reader.cancel = on_behalf.cancel;
    reader.tap = on_behalf.tap;
    let mut checker = Checker::new(reader, calls, false);
    let report = checker.check(pattern, "config").await;
    Checked {
        report,
        spent_rcu: checker.reader.spent_rcu,
        stopped: checker.reader.cancel.is_cancelled(),
    }
}

/// Whether a pattern needs the table's key sample: to draw its parameters from, and to judge
/// the cardinality of a GSI key they choose (or of the key of the GSI a Scan needs). The
/// table's, not the index's: an index's Scan returns it partition by partition (DynamoDB
/// Local's even in the index's own key order in every segment), while the table's items are
/// spread by the table's own key, which the index's does not follow.
fn needs_sample(pattern: &AccessPattern, plan: &PatternPlan) -> bool {
    let parameters = !pattern.params().is_empty();
    match plan.shape {
        ReadShape::Scan { .. } => !plan.pk_attributes.is_empty() && parameters,
        _ => parameters,
    }
}

/// Parameter sets for the calls, drawn from the sampled items' keys.
fn draw(
    pattern: &AccessPattern,
    plan: &PatternPlan,
    items: &[Item],
    calls: usize,
) -> Vec<BTreeMap<String, String>> {
    if pattern.params().is_empty() {
        return vec![BTreeMap::new(); calls];
    }
    if plan.pk_attributes.is_empty() {
        return Vec::new();
    }
    // Every key attribute's template read back from the item: on a multi-attribute GSI a
    // partition template per partition attribute, and the sort prefix's.
    let (pk, sk) = (&plan.pk_attributes, &plan.sk_attributes);
    draw_params(
        items
            .iter()
            .filter_map(|item| params_from_item(pattern, pk, sk, item)),
        calls,
    )
}

/// The pattern as a call sends it. A GSI answers only with what it projects (DynamoDB refuses
/// a projection of anything else): a pattern needing a fetch back reads the index's keys, as
/// the application does before its GetItems, and names only what its filter uses.
fn as_called(pattern: &AccessPattern, plan: &PatternPlan) -> AccessPattern {
    let mut called = pattern.clone();
    if plan.reads_gsi && matches!(plan.fit, Some(ProjectionFit::NeedsFetch { .. })) {
        called.projection = None;
        let filter = called.filter.clone().unwrap_or_default();
        called
            .names
            .retain(|placeholder, _| filter.contains(placeholder.as_str()));
    }
    called
}

/// The read of one call: the pattern's Query (a segment per shard), or, for a pattern on a
/// missing index run with `allow_scan`, the Scan PartiQL plans for it with these parameters.
fn call_spec(
    pattern: &AccessPattern,
    params: &BTreeMap<String, String>,
    info: &TableInfo,
    scan: bool,
) -> Result<ReadSpec, EngineError> {
    if scan {
        let plan = plan(pattern, info);
        let (_, read) = missing_index_read(pattern, &plan, info, params)
            .ok_or_else(|| EngineError::bad_input("the pattern's Scan cannot be planned"))?;
        let mut spec = plan_read(&read);
        spec.limit = pattern.limit;
        return Ok(spec);
    }
    let bound = pattern
        .bind(params)
        .map_err(|e| EngineError::bad_input(e.to_string()))?;
    pattern_read(&bound, info).map_err(EngineError::bad_input)
}
