//! `y`: the item, or the marked items as one JSON array, to the clipboard.

use crate::app::msg::{Effect, TerminalEffect};
use crate::app::state::{Notice, State};
use crate::model::formats::json::append_plain_json;

pub(crate) fn copy(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    if let (Some(store), false) = (view.view.store.as_ref(), view.view.marks.is_empty()) {
        // Marked items go out as one JSON array, in the order the views list them.
        let mut json = String::from("[");
        let ids = view.view.marks.in_view_order(store);
        for (i, &id) in ids.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            append_plain_json(&mut json, &store.item(id));
        }
        json.push(']');
        state.notice = Some(Notice {
            text: format!(
                "copied {} marked items as a JSON array ({} bytes) to the clipboard",
                ids.len(),
                json.len()
            ),
            error: false,
        });
        return vec![Effect::Terminal(TerminalEffect::Copy(json))];
    }
    let (Some(store), Some(id)) = (view.view.store.as_ref(), view.view.selected_item()) else {
        return Vec::new();
    };
    let mut json = String::new();
    append_plain_json(&mut json, &store.item(id));
    state.notice = Some(Notice {
        text: format!(
            "copied the item as JSON ({} bytes) to the clipboard",
            json.len()
        ),
        error: false,
    });
    vec![Effect::Terminal(TerminalEffect::Copy(json))]
}
