//! The key-distribution view of what was loaded.

use crate::app::input::{Key, KeyCode};

use ratatui::layout::Margin;

use crate::app::explorer::area;
use crate::app::layout::distribution_popup;
use crate::app::msg::Effect;
use crate::app::state::{DistributionView, Modal, State};
use crate::model::design::schema::IndexKind;
use crate::model::traffic::distribution::{KeyDistribution, Source, WarningContext};

pub(super) fn open_distribution(state: &mut State) -> Vec<Effect> {
    let Some(v) = state.table.as_mut() else {
        return Vec::new();
    };
    let (Some(store), Some(info)) = (v.view.store.as_ref(), v.info.loaded()) else {
        return Vec::new();
    };
    let mut distribution = KeyDistribution::new();
    for collection in store.collections() {
        for &id in &collection.items {
            distribution.add(&collection.key, store.item_size(id));
        }
    }
    let partition_names: Vec<&str> = store
        .group_keys()
        .partition()
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    let partition_key = partition_names.join(" + ");
    let source = match v.view.index.as_deref().and_then(|n| info.index(n)) {
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
    v.modal = Some(Modal::Distribution(DistributionView {
        line_count: DistributionView::count_lines(&distribution),
        distribution,
        warnings,
        scroll: 0,
    }));
    Vec::new()
}

/// `↑`/`↓`, `PgUp`/`PgDn` and `Home`/`End` scroll the view, down to its last row at the
/// bottom; any other key closes it.
pub(super) fn distribution_key(state: &mut State, key: Key) -> Vec<Effect> {
    let inner = distribution_popup(area(state)).inner(Margin::new(1, 1));
    let (width, height) = (inner.width as usize, inner.height as usize);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(d) = view.modal.as_mut().and_then(Modal::distribution_mut) else {
        return Vec::new();
    };
    let max = d.max_scroll(width, height);
    let page = height.max(1);
    let at = d.scroll.min(max);
    d.scroll = match key.code {
        KeyCode::Down => (at + 1).min(max),
        KeyCode::Up => at.saturating_sub(1),
        KeyCode::PageDown => (at + page).min(max),
        KeyCode::PageUp => at.saturating_sub(page),
        KeyCode::End => max,
        KeyCode::Home => 0,
        _ => {
            view.modal = None;
            return Vec::new();
        }
    };
    Vec::new()
}
