//! `update` for the query builder and the access-pattern palette: key handling, live
//! validation, completion from loaded and sampled keys, and running the result.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::builder::{Builder, Completion, Field, HISTORY_PER_TABLE, SORT_OPS};
use super::msg::Effect;
use super::reads::start_fresh;
use super::state::{Notice, Palette, ParamForm, State, TableView};
use crate::aws::{EngineEvent, Operation, ReadSpec};
use crate::model::access_pattern::shard_keys;
use crate::model::cell::cell_text;
use crate::model::completion::{complete_key, complete_last_word};
use crate::model::key_condition::KeyCondition;
use crate::model::schema::{KeySchema, TableInfo};

/// Pause in typing before a sort-key sample is fetched for the typed partition key.
pub const DEBOUNCE: Duration = Duration::from_millis(250);
/// Keys in one completion sample: one small keys-only page.
const SAMPLE_SIZE: i32 = 200;
const MAX_COMPLETIONS: usize = 8;

fn view(state: &mut State) -> Option<&mut TableView> {
    state.table.as_mut()
}

fn info(state: &State) -> Option<TableInfo> {
    state.table.as_ref()?.info.loaded().cloned()
}

pub fn open_builder(state: &mut State) -> Vec<Effect> {
    let Some(info) = info(state) else {
        return Vec::new();
    };
    let Some(v) = view(state) else {
        return Vec::new();
    };
    let index = info.target_position(v.index.as_deref());
    v.builder = Some(Builder::new(index));
    refresh(state);
    sample_partition_keys(state)
}

/// A keys-only page of the chosen table/index: partition keys to complete from.
fn sample_partition_keys(state: &mut State) -> Vec<Effect> {
    let Some(info) = info(state) else {
        return Vec::new();
    };
    let id = state.next_request_id;
    let Some(b) = state.table.as_mut().and_then(|v| v.builder.as_mut()) else {
        return Vec::new();
    };
    let keys = b.keys(&info).clone();
    let mut spec = ReadSpec::new(Operation::Scan, info.name.clone());
    spec.index = b.index_name(&info);
    keys_only(&mut spec, &keys);
    b.sample.request_id = Some(id);
    b.sample.for_pk = None;
    b.sample.pk_values.clear();
    state.next_request_id += 1;
    vec![Effect::StartRead {
        id,
        spec: Box::new(spec),
    }]
}

fn keys_only(spec: &mut ReadSpec, keys: &KeySchema) {
    let mut projection = vec!["#kp".to_string()];
    spec.names = vec![("#kp".into(), keys.partition_key.name.clone())];
    if let Some(sk) = &keys.sort_key {
        projection.push("#ks".into());
        spec.names.push(("#ks".into(), sk.name.clone()));
    }
    spec.projection = Some(projection.join(", "));
    spec.page_size = Some(SAMPLE_SIZE);
    spec.max_pages = Some(1);
}

/// After a pause in typing the partition key: sample that collection's sort keys, unless the
/// loaded items already hold it.
pub fn debounced(state: &mut State, generation: u64) -> Vec<Effect> {
    let Some(info) = info(state) else {
        return Vec::new();
    };
    let id = state.next_request_id;
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let loaded = v.store.as_ref().map(|s| (s.group_keys().clone(), s));
    let Some(b) = v.builder.as_mut() else {
        return Vec::new();
    };
    if b.generation != generation || b.raw {
        return Vec::new();
    }
    let keys = b.keys(&info).clone();
    let pk = b.text(Field::Pk);
    if b.sample.for_pk.as_deref() == Some(pk.as_str()) {
        return Vec::new();
    }
    // While typing, only a complete key seen in the sample is worth a request; moving onto the
    // sort key (which calls this with the newest generation) samples whatever was typed.
    let typing = b.focus == Field::Pk;
    if typing && !b.sample.pk_values.contains(&pk) {
        return Vec::new();
    }
    if let Some((group, store)) = loaded {
        if group == keys && store.collection_of(&pk).is_some() {
            return Vec::new();
        }
    }
    let Ok(condition) = KeyCondition::build(&keys, &pk, None) else {
        return Vec::new();
    };
    let parts = condition.to_expression();
    let mut spec = ReadSpec::new(Operation::Query, info.name.clone());
    spec.index = b.index_name(&info);
    keys_only(&mut spec, &keys);
    spec.key_condition = Some(parts.key_condition.replace("#pk", "#kp"));
    spec.values = parts.values;
    b.sample.request_id = Some(id);
    b.sample.for_pk = Some(pk);
    b.sample.sk_values.clear();
    state.next_request_id += 1;
    vec![Effect::StartRead {
        id,
        spec: Box::new(spec),
    }]
}

/// Pages of a completion sample go to the builder, not the item store. Their capacity is
/// logged like any other request's.
pub fn sample_event(state: &mut State, event: &EngineEvent) -> Option<Vec<Effect>> {
    let info = info(state)?;
    let b = state.table.as_mut()?.builder.as_mut()?;
    if b.sample.request_id != Some(event.request_id()) {
        return None;
    }
    if let EngineEvent::Page(page) = event {
        state
            .log
            .push(super::request_log::RequestRow::from_page(page, 1));
        let b = state.table.as_mut()?.builder.as_mut()?;
        let keys = b.keys(&info).clone();
        let attr = match &b.sample.for_pk {
            None => Some(keys.partition_key.name.clone()),
            Some(_) => keys.sort_key.as_ref().map(|k| k.name.clone()),
        };
        let values: Vec<String> = page
            .items
            .iter()
            .filter_map(|i| attr.as_ref().and_then(|a| i.get(a)).map(cell_text))
            .collect();
        if b.sample.for_pk.is_none() {
            b.sample.pk_values.extend(values);
        } else {
            b.sample.sk_values.extend(values);
        }
        refresh(state);
    }
    Some(Vec::new())
}

/// Revalidates and recomputes completions after any change.
pub fn refresh(state: &mut State) {
    let Some(info) = info(state) else {
        return;
    };
    let Some(v) = state.table.as_mut() else {
        return;
    };
    let store = v.store.as_ref();
    let Some(b) = v.builder.as_mut() else {
        return;
    };
    b.check = b.prepare(&info);
    let keys = b.keys(&info).clone();
    let same_keys = store.filter(|s| *s.group_keys() == keys);
    let typed = b.text(b.focus);
    // Nothing typed, nothing offered: Tab on an empty field moves on instead of accepting.
    let items: Vec<String> = match b.focus {
        _ if typed.is_empty() => Vec::new(),
        Field::Pk => {
            let mut values: BTreeSet<&str> =
                b.sample.pk_values.iter().map(String::as_str).collect();
            if let Some(s) = same_keys {
                values.extend(s.collections().iter().map(|c| c.key.as_str()));
            }
            complete_key(&typed, values, MAX_COMPLETIONS)
        }
        Field::Sk | Field::SkHigh => {
            let pk = b.text(Field::Pk);
            let mut values: BTreeSet<String> = BTreeSet::new();
            if b.sample.for_pk.as_deref() == Some(pk.as_str()) {
                values.extend(b.sample.sk_values.iter().cloned());
            }
            if let (Some(s), Some(sk)) = (same_keys, keys.sort_key.as_ref()) {
                if let Some(c) = s.collection_of(&pk) {
                    values.extend(
                        s.collections()[c]
                            .items
                            .iter()
                            .filter_map(|id| s.item(*id).get(&sk.name).map(cell_text)),
                    );
                }
            }
            complete_key(&typed, values.iter().map(String::as_str), MAX_COMPLETIONS)
        }
        Field::Filter | Field::Projection => {
            let names: BTreeSet<String> = store
                .map(|s| {
                    (0..s.len().min(1000) as u32)
                        .flat_map(|id| {
                            s.item(id)
                                .iter()
                                .map(|(n, _)| n.to_string())
                                .collect::<Vec<_>>()
                        })
                        .collect()
                })
                .unwrap_or_default();
            complete_last_word(&typed, names.iter().map(String::as_str), MAX_COMPLETIONS)
        }
        _ => Vec::new(),
    };
    let keep = b
        .completion
        .as_ref()
        .filter(|c| c.field == b.focus)
        .map_or(0, |c| c.selected);
    b.completion = (!items.is_empty() && !b.completion_dismissed).then(|| Completion {
        field: b.focus,
        selected: keep.min(items.len() - 1),
        items,
    });
}

/// Keys for the builder or palette when one is open; `None` otherwise.
pub fn modal_key(state: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let v = state.table.as_ref()?;
    if v.builder.is_some() {
        return Some(builder_key(state, key));
    }
    if v.palette.is_some() {
        return Some(palette_key(state, key));
    }
    if v.launcher.is_some() {
        return Some(super::scan_launcher::launcher_key(state, key));
    }
    if let Some(d) = state.table.as_mut()?.distribution.as_mut() {
        match key.code {
            // Unclamped, many `↓` left `↑` with nothing to show for as many presses.
            KeyCode::Down => d.scroll = (d.scroll + 1).min(d.max_scroll()),
            KeyCode::Up => d.scroll = d.scroll.saturating_sub(1),
            _ => state.table.as_mut()?.distribution = None,
        }
        return Some(Vec::new());
    }
    None
}

fn ctrl(key: &KeyEvent, c: char) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char(c)
}

fn builder_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let table = state
        .table
        .as_ref()
        .map(|v| v.name.clone())
        .unwrap_or_default();
    let history = state.history.get(&table).cloned().unwrap_or_default();
    let info = info(state);
    let Some(b) = state.table.as_mut().and_then(|v| v.builder.as_mut()) else {
        return Vec::new();
    };
    let fields = b.fields();
    let at = fields.iter().position(|f| *f == b.focus).unwrap_or(0);
    let completing = b.completion.is_some();
    let mut effects = Vec::new();
    match key.code {
        KeyCode::Esc if completing => b.completion_dismissed = true,
        KeyCode::Esc => {
            state.table.as_mut().expect("open").builder = None;
            return Vec::new();
        }
        KeyCode::Tab | KeyCode::Enter if completing => {
            accept(b);
            // A second Enter runs the query rather than descending another key level.
            if key.code == KeyCode::Enter {
                b.completion_dismissed = true;
            }
        }
        KeyCode::Tab => {
            b.focus = fields[(at + 1) % fields.len()];
            b.completion_dismissed = false;
        }
        KeyCode::BackTab => {
            b.focus = fields[(at + fields.len() - 1) % fields.len()];
            b.completion_dismissed = false;
        }
        KeyCode::Enter => return run_builder(state),
        KeyCode::Up | KeyCode::Down if completing => {
            let c = b.completion.as_mut().expect("completing");
            let n = c.items.len();
            c.selected = if key.code == KeyCode::Down {
                (c.selected + 1) % n
            } else {
                (c.selected + n - 1) % n
            };
            return effects;
        }
        KeyCode::Up | KeyCode::Down => {
            if history.is_empty() {
                return effects;
            }
            let last = history.len() - 1;
            let next = match (b.history_cursor, key.code) {
                (None, KeyCode::Up) => Some(last),
                (None, _) => None,
                (Some(i), KeyCode::Up) => Some(i.saturating_sub(1)),
                (Some(i), _) if i < last => Some(i + 1),
                (Some(_), _) => None,
            };
            b.history_cursor = next;
            match next {
                Some(i) => b.restore(&history[i]),
                None => *b = Builder::new(b.index),
            }
        }
        _ if ctrl(&key, 'r') => {
            b.raw = !b.raw;
            b.focus = if b.raw { Field::RawKey } else { Field::Pk };
        }
        _ if ctrl(&key, 'y') || (b.focus.is_selector() && key.code == KeyCode::Char('y')) => {
            return match &b.check {
                Ok(q) => {
                    let cli = q.cli.clone();
                    state.notice = Some(Notice {
                        text: "copied the aws-cli command to the clipboard".into(),
                        error: false,
                    });
                    vec![Effect::Copy(cli)]
                }
                Err(e) => {
                    state.notice = Some(Notice {
                        text: format!("nothing to copy: {}", e.message),
                        error: true,
                    });
                    Vec::new()
                }
            };
        }
        KeyCode::Left | KeyCode::Right if b.focus.is_selector() => {
            let forward = key.code == KeyCode::Right;
            let step = |n: usize, len: usize| {
                if forward {
                    (n + 1) % len
                } else {
                    (n + len - 1) % len
                }
            };
            match b.focus {
                Field::Index => {
                    let count = info.as_ref().map_or(0, |i| i.indexes.len()) + 1;
                    b.index = step(b.index, count);
                    b.sample = Default::default();
                    refresh(state);
                    return sample_partition_keys(state);
                }
                Field::Op => b.op = step(b.op, SORT_OPS.len()),
                Field::Order => b.descending = !b.descending,
                _ => {}
            }
        }
        _ => {
            let field = b.focus;
            if let Some(input) = b.input_mut(field) {
                // One-line fields: Enter is handled above, so nothing inserts a newline.
                if input.input(key) {
                    b.history_cursor = None;
                    b.completion_dismissed = false;
                    if matches!(field, Field::Pk) {
                        b.generation += 1;
                        effects.push(Effect::Debounce {
                            generation: b.generation,
                            delay: DEBOUNCE,
                        });
                    }
                }
            }
        }
    }
    if let Some(b) = state.table.as_mut().and_then(|v| v.builder.as_mut()) {
        // Moving onto the sort key is when its completions are wanted: sample now.
        if matches!(b.focus, Field::Sk | Field::SkHigh) && key.code == KeyCode::Tab {
            b.generation += 1;
            let generation = b.generation;
            refresh(state);
            effects.extend(debounced(state, generation));
            return effects;
        }
    }
    refresh(state);
    effects
}

fn accept(b: &mut Builder) {
    let Some(c) = b.completion.take() else {
        return;
    };
    let value = c.items[c.selected].clone();
    b.set_text(c.field, &value);
}

fn run_builder(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(b) = v.builder.as_ref() else {
        return Vec::new();
    };
    let prepared = match &b.check {
        Ok(q) => q.clone(),
        Err(e) => {
            state.notice = Some(Notice {
                text: format!("{}: {}", e.field.label(), e.message),
                error: true,
            });
            return Vec::new();
        }
    };
    let entry = b.history_entry();
    let history = state.history.entry(v.name.clone()).or_default();
    history.retain(|h| *h != entry);
    history.push(entry);
    if history.len() > HISTORY_PER_TABLE {
        history.remove(0);
    }
    v.index = prepared.spec.index.clone();
    v.builder = None;
    state.notice = None;
    start_fresh(state, prepared.spec)
}

// ---------------------------------------------------------------- access patterns

pub fn open_palette(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_ref() else {
        return Vec::new();
    };
    let entries: Vec<usize> = state
        .patterns
        .iter()
        .enumerate()
        .filter(|(_, p)| p.table == v.name)
        .map(|(i, _)| i)
        .collect();
    if entries.is_empty() {
        state.notice = Some(Notice {
            text: format!(
                "no access patterns for '{}'; declare [[pattern]] in the config file or pass --patterns FILE",
                v.name
            ),
            error: true,
        });
        return Vec::new();
    }
    state.table.as_mut().expect("checked").palette = Some(Palette {
        entries,
        ..Default::default()
    });
    Vec::new()
}

fn palette_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let patterns = state.patterns.clone();
    let Some(p) = state.table.as_mut().and_then(|v| v.palette.as_mut()) else {
        return Vec::new();
    };
    let Some(form) = p.form.as_mut() else {
        match key.code {
            KeyCode::Esc => state.table.as_mut().expect("open").palette = None,
            KeyCode::Up => p.list.move_by(-1, p.entries.len(), 20),
            KeyCode::Down => p.list.move_by(1, p.entries.len(), 20),
            KeyCode::Enter => {
                let pattern = p.entries[p.list.cursor];
                let params = patterns[pattern]
                    .params()
                    .into_iter()
                    .map(|name| (name, ratatui_textarea::TextArea::default()))
                    .collect();
                p.form = Some(ParamForm {
                    pattern,
                    params,
                    focus: 0,
                    error: None,
                    completion: Vec::new(),
                    selected: 0,
                });
                refresh_form(state);
                // A pattern without parameters runs straight away.
                let no_params = state
                    .table
                    .as_ref()
                    .and_then(|v| v.palette.as_ref())
                    .and_then(|p| p.form.as_ref())
                    .is_some_and(|f| f.params.is_empty());
                if no_params {
                    return run_pattern(state);
                }
            }
            _ => {}
        }
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc if !form.completion.is_empty() => form.completion.clear(),
        KeyCode::Esc => p.form = None,
        KeyCode::Tab | KeyCode::Enter if !form.completion.is_empty() => {
            let value = form.completion[form.selected].clone();
            let mut area = ratatui_textarea::TextArea::from([value]);
            area.move_cursor(ratatui_textarea::CursorMove::End);
            form.params[form.focus].1 = area;
            form.completion.clear();
            return Vec::new();
        }
        KeyCode::Up if !form.completion.is_empty() => {
            form.selected = (form.selected + form.completion.len() - 1) % form.completion.len()
        }
        KeyCode::Down if !form.completion.is_empty() => {
            form.selected = (form.selected + 1) % form.completion.len()
        }
        KeyCode::Tab | KeyCode::Down => form.focus = (form.focus + 1) % form.params.len().max(1),
        KeyCode::BackTab | KeyCode::Up => {
            let n = form.params.len().max(1);
            form.focus = (form.focus + n - 1) % n
        }
        KeyCode::Enter => return run_pattern(state),
        _ => {
            if let Some((_, input)) = form.params.get_mut(form.focus) {
                input.input(key);
                form.error = None;
            }
        }
    }
    refresh_form(state);
    Vec::new()
}

/// Completes a parameter from loaded partition keys: for `pk = "STATUS#{status}"`, keys that
/// start with `STATUS#` offer what follows.
fn refresh_form(state: &mut State) {
    let patterns = &state.patterns;
    let Some(v) = state.table.as_mut() else {
        return;
    };
    let values: Vec<String> = v
        .store
        .as_ref()
        .map(|s| s.collections().iter().map(|c| c.key.clone()).collect())
        .unwrap_or_default();
    let Some(form) = v.palette.as_mut().and_then(|p| p.form.as_mut()) else {
        return;
    };
    let pattern = &patterns[form.pattern];
    let Some((name, input)) = form.params.get(form.focus) else {
        return;
    };
    let typed = input.lines().join("");
    let marker = format!("{{{name}}}");
    form.completion = match pattern.pk.find(&marker) {
        Some(at) if !pattern.pk[..at].contains('{') => {
            let prefix = &pattern.pk[..at];
            let full = format!("{prefix}{typed}");
            complete_key(&full, values.iter().map(String::as_str), MAX_COMPLETIONS)
                .into_iter()
                .map(|c| c[prefix.len()..].to_string())
                .collect()
        }
        _ => Vec::new(),
    };
    form.selected = form.selected.min(form.completion.len().saturating_sub(1));
}

fn run_pattern(state: &mut State) -> Vec<Effect> {
    let Some(info) = info(state) else {
        return Vec::new();
    };
    let Some(form) = state
        .table
        .as_ref()
        .and_then(|v| v.palette.as_ref())
        .and_then(|p| p.form.as_ref())
    else {
        return Vec::new();
    };
    let pattern = state.patterns[form.pattern].clone();
    let params: BTreeMap<String, String> = form
        .params
        .iter()
        .map(|(n, a)| (n.clone(), a.lines().join("")))
        .collect();
    let specs = pattern_specs(&pattern, &params, &info);
    let specs = match specs {
        Ok(s) => s,
        Err(message) => {
            if let Some(f) = state
                .table
                .as_mut()
                .and_then(|v| v.palette.as_mut())
                .and_then(|p| p.form.as_mut())
            {
                f.error = Some(message);
            }
            return Vec::new();
        }
    };
    let v = state.table.as_mut().expect("open");
    v.palette = None;
    v.index = specs[0].index.clone();
    // A write-sharded pattern is one read with a segment per shard: one cancel, one resume
    // point per shard, one capacity guard. Each shard reads to its end (or the limit).
    let mut specs = specs.into_iter();
    let mut spec = specs.next().expect("at least one spec");
    let rest: Vec<ReadSpec> = specs.collect();
    if !rest.is_empty() {
        spec.shards = std::iter::once(spec.values.clone())
            .chain(rest.into_iter().map(|s| s.values))
            .collect();
        spec.limit_per_segment = true;
    }
    let sharded = !spec.shards.is_empty();
    let mut effects = start_fresh(state, spec);
    if sharded {
        for e in effects.iter_mut() {
            if let Effect::StartRead { spec, .. } = e {
                spec.max_pages = None;
            }
        }
        if let Some(read) = state.table.as_mut().and_then(|v| v.read.as_mut()) {
            read.spec.max_pages = None;
        }
    }
    effects
}

/// The Query (one per shard) a pattern with these parameters stands for, checked by the same
/// rules as the builder.
fn pattern_specs(
    pattern: &crate::model::access_pattern::AccessPattern,
    params: &BTreeMap<String, String>,
    info: &TableInfo,
) -> Result<Vec<ReadSpec>, String> {
    let bound = pattern.bind(params).map_err(|e| e.to_string())?;
    let keys = info.keys_for(bound.index.as_deref()).ok_or_else(|| {
        format!(
            "index '{}' not found on table '{}'",
            bound.index.clone().unwrap_or_default(),
            info.name
        )
    })?;
    let pks = match bound.shards {
        Some(range) => shard_keys(&bound.pk, range),
        None => vec![bound.pk.clone()],
    };
    let mut specs = Vec::new();
    for pk in pks {
        let condition =
            KeyCondition::build(keys, &pk, bound.sort.clone()).map_err(|e| e.to_string())?;
        let parts = condition.to_expression();
        let mut spec = ReadSpec::new(Operation::Query, info.name.clone());
        spec.index = bound.index.clone();
        spec.key_condition = Some(parts.key_condition);
        spec.names = parts.names;
        spec.values = parts.values;
        spec.descending = bound.descending;
        spec.limit = bound.limit;
        if bound.filter.is_some() || bound.values.is_some() {
            spec.filter = bound.filter.clone();
            spec.names.extend(bound.names.clone());
            if let Some(values) = &bound.values {
                let parsed =
                    crate::model::json::parse_plain_values(values).map_err(|e| e.to_string())?;
                spec.values.extend(parsed);
            }
        }
        spec.projection = bound.projection.clone();
        specs.push(spec);
    }
    Ok(specs)
}
