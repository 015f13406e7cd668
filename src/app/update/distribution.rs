//! The key-distribution view of what was loaded.

use crossterm::event::{KeyCode, KeyEvent};

use crate::app::msg::Effect;
use crate::app::state::{DistributionView, State};
use crate::model::distribution::{KeyDistribution, Source, WarningContext};
use crate::model::schema::IndexKind;

pub(super) fn open_distribution(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(store), Some(info)) = (v.store.as_ref(), v.info.loaded()) else {
        return Vec::new();
    };
    let mut distribution = KeyDistribution::new();
    for collection in store.collections() {
        for &id in &collection.items {
            distribution.add(&collection.key, store.item_size(id));
        }
    }
    let partition_key = store.group_keys().partition_key.name.clone();
    let source = match v.index.as_deref().and_then(|n| info.index(n)) {
        Some(index) => Source::Index {
            name: &index.name,
            kind: index.kind,
        },
        None => Source::Table,
    };
    let warnings = distribution.warnings(&WarningContext {
        table: &info.name,
        source,
        partition_key: &partition_key,
        table_has_lsi: info.indexes.iter().any(|i| i.kind == IndexKind::Lsi),
    });
    v.distribution = Some(DistributionView {
        line_count: DistributionView::count_lines(&distribution, &warnings),
        distribution,
        warnings,
        scroll: 0,
    });
    Vec::new()
}

/// `↑`/`↓` scroll the view; any other key closes it.
pub(super) fn distribution_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(d) = view.distribution.as_mut() else {
        return Vec::new();
    };
    match key.code {
        // Unclamped, many `↓` left `↑` with nothing to show for as many presses.
        KeyCode::Down => d.scroll = (d.scroll + 1).min(d.max_scroll()),
        KeyCode::Up => d.scroll = d.scroll.saturating_sub(1),
        _ => view.distribution = None,
    }
    Vec::new()
}
