//! Everything a key can do in the explorer, with the name the config file and the help use.

use std::fmt;

/// Everything a key can do in the explorer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Left,
    Right,
    NextPane,
    PrevPane,
    Open,
    Back,
    Filter,
    Copy,
    ToggleJson,
    LoadMore,
    LoadAll,
    QueryPk,
    ChooseIndex,
    Rescan,
    Tables,
    QueryBuilder,
    Patterns,
    ScanLauncher,
    KeyDistribution,
    // Walking the single-table design (issue 14).
    NavBack,
    CollectionOrder,
    ToggleWrap,
    LogTaller,
    LogShorter,
    SwitchRegion,
    SwitchProfile,
    Live,
    // Marks, export and writes (issue 13).
    Mark,
    MarkAll,
    InvertMarks,
    ClearMarks,
    Export,
    Edit,
    EditDynamo,
    NewItem,
    Delete,
    Undo,
}

impl Action {
    /// Every action, in declaration order.
    pub const ALL: [Action; 45] = [
        Action::Quit,
        Action::Help,
        Action::Up,
        Action::Down,
        Action::PageUp,
        Action::PageDown,
        Action::Top,
        Action::Bottom,
        Action::Left,
        Action::Right,
        Action::NextPane,
        Action::PrevPane,
        Action::Open,
        Action::Back,
        Action::Filter,
        Action::Copy,
        Action::ToggleJson,
        Action::LoadMore,
        Action::LoadAll,
        Action::QueryPk,
        Action::ChooseIndex,
        Action::Rescan,
        Action::Tables,
        Action::QueryBuilder,
        Action::Patterns,
        Action::ScanLauncher,
        Action::KeyDistribution,
        Action::NavBack,
        Action::CollectionOrder,
        Action::ToggleWrap,
        Action::LogTaller,
        Action::LogShorter,
        Action::SwitchRegion,
        Action::SwitchProfile,
        Action::Live,
        Action::Mark,
        Action::MarkAll,
        Action::InvertMarks,
        Action::ClearMarks,
        Action::Export,
        Action::Edit,
        Action::EditDynamo,
        Action::NewItem,
        Action::Delete,
        Action::Undo,
    ];

    /// The snake_case name used in `keymap.toml` and the `[keys]` table of the config file.
    pub fn name(self) -> &'static str {
        match self {
            Action::Quit => "quit",
            Action::Help => "help",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page_up",
            Action::PageDown => "page_down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::Left => "left",
            Action::Right => "right",
            Action::NextPane => "next_pane",
            Action::PrevPane => "prev_pane",
            Action::Open => "open",
            Action::Back => "back",
            Action::Filter => "filter",
            Action::Copy => "copy",
            Action::ToggleJson => "toggle_json",
            Action::LoadMore => "load_more",
            Action::LoadAll => "load_all",
            Action::QueryPk => "query_pk",
            Action::ChooseIndex => "choose_index",
            Action::Rescan => "rescan",
            Action::Tables => "tables",
            Action::QueryBuilder => "query_builder",
            Action::Patterns => "patterns",
            Action::ScanLauncher => "scan_launcher",
            Action::KeyDistribution => "key_distribution",
            Action::NavBack => "nav_back",
            Action::CollectionOrder => "collection_order",
            Action::ToggleWrap => "toggle_wrap",
            Action::LogTaller => "log_taller",
            Action::LogShorter => "log_shorter",
            Action::SwitchRegion => "switch_region",
            Action::SwitchProfile => "switch_profile",
            Action::Live => "live",
            Action::Mark => "mark",
            Action::MarkAll => "mark_all",
            Action::InvertMarks => "invert_marks",
            Action::ClearMarks => "clear_marks",
            Action::Export => "export",
            Action::Edit => "edit",
            Action::EditDynamo => "edit_dynamodb_json",
            Action::NewItem => "new_item",
            Action::Delete => "delete",
            Action::Undo => "undo",
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        // `cycle_index` was `i` before it opened the chooser: configs that name it still work.
        let name = if name == "cycle_index" {
            "choose_index"
        } else {
            name
        };
        Action::ALL.into_iter().find(|a| a.name() == name)
    }

    /// All action names, comma-separated, for error messages.
    pub fn names_list() -> String {
        Action::ALL.map(Action::name).join(", ")
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
