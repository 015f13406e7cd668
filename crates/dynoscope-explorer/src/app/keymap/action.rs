//! Everything a key can do in the explorer: ONE table gives each action its name (in the
//! config file's `[keys]`), its default keys and its help text, in the order the help screen
//! lists them. The enum, [`Action::ALL`], [`Action::name`], [`Action::default_keys`] and
//! [`Action::help`] are generated from it.
//!
//! Keys are written like 'q', 'G' (the upper-case letter itself), 'ctrl-c', 'alt-x', 'enter',
//! 'esc', 'tab', 'shift-tab', 'up', 'down', 'left', 'right', 'pageup', 'pagedown', 'home',
//! 'end', 'space', 'f1'..'f12', '/', '?'. `g r` (g, then r within a second) opens the selected
//! related collection of the item under the cursor; it is a chord, not an action.

use std::fmt;

macro_rules! actions {
    ($($variant:ident = $name:literal, [$($key:literal),*], $help:literal;)*) => {
        /// Everything a key can do in the explorer.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Action {
            $($variant,)*
        }

        const COUNT: usize = [$($name),*].len();

        impl Action {
            /// Every action, in the order the help lists them.
            pub const ALL: [Action; COUNT] = [$(Action::$variant),*];

            /// The snake_case name used in the `[keys]` table of the config file.
            pub fn name(self) -> &'static str {
                match self {
                    $(Action::$variant => $name,)*
                }
            }

            /// The keys the action has unless the config file says otherwise.
            pub fn default_keys(self) -> &'static [&'static str] {
                match self {
                    $(Action::$variant => &[$($key),*],)*
                }
            }

            /// The help screen's line for the action.
            pub fn help(self) -> &'static str {
                match self {
                    $(Action::$variant => $help,)*
                }
            }
        }
    };
}

actions! {
    Quit = "quit", ["q", "ctrl-c"], "Quit dynoscope";
    Help = "help", ["?", "f1"], "Show or hide this help";
    Up = "up", ["up", "k"], "Move up";
    Down = "down", ["down", "j"], "Move down";
    PageUp = "page_up", ["pageup", "ctrl-b"], "Move up one page";
    PageDown = "page_down", ["pagedown", "ctrl-f"], "Move down one page";
    Top = "top", ["g", "home"], "Go to the first row";
    Bottom = "bottom", ["G", "end"], "Go to the last row";
    Left = "left", ["left", "h"], "Scroll left / previous column";
    Right = "right", ["right", "l"], "Scroll right / next column";
    NextPane = "next_pane", ["tab"], "Focus the next pane";
    PrevPane = "prev_pane", ["shift-tab"], "Focus the previous pane";
    Open = "open", ["enter"], "Open the selected table or item";
    Back = "back", ["esc"], "Close / go back / cancel the running request";
    Filter = "filter", ["/"], "Filter the loaded items (keys, strings, numbers by their text)";
    Copy = "copy", ["y"], "Copy the item, or the marked items as one JSON array (OSC 52 and the system clipboard)";
    ToggleJson = "toggle_json", ["t"], "Toggle plain JSON / DynamoDB JSON";
    Mark = "mark", ["space"], "Mark or unmark the item (a collection's items in Collections) and move down";
    MarkAll = "mark_all", ["a"], "Mark every item listed (the collection's, or the filtered ones)";
    InvertMarks = "invert_marks", ["v"], "Invert the marks of the items listed";
    ClearMarks = "clear_marks", ["u"], "Clear every mark";
    Export = "export", ["x"], "Export the item, the marked items, the collection, everything loaded or the read to a file";
    Edit = "edit", ["e"], "Edit the item as JSON in $VISUAL/$EDITOR (--allow-writes)";
    EditDynamo = "edit_dynamodb_json", ["E"], "Edit the item as DynamoDB JSON in $VISUAL/$EDITOR (--allow-writes)";
    NewItem = "new_item", ["N"], "Create an item from the collection's most common kind (--allow-writes)";
    Delete = "delete", ["D"], "Delete the item, or the marked items (--allow-writes)";
    Undo = "undo", ["U"], "Undo the last write, or the last bulk run, where the items are still what dynoscope wrote (--allow-writes)";
    BulkWrite = "bulk_write", ["B"], "Bulk dialog on the marked items (or the listed ones): set or remove an attribute, or delete; preview, then run with --allow-writes (journaled, Esc stops, U undoes)";
    LoadMore = "load_more", ["n"], "Load the next page";
    LoadAll = "load_all", ["L"], "Keep loading pages until the end";
    QueryBuilder = "query_builder", [":", "Q"], "Build a Query: index, key conditions, filter, EXPLAIN";
    Patterns = "patterns", ["P"], "Run a named access pattern";
    ScanLauncher = "scan_launcher", ["S"], "Launch a parallel scan with a cost estimate, budget and rate limit";
    KeyDistribution = "key_distribution", ["K"], "Key distribution of the loaded items: hot keys, shards, warnings";
    Live = "live", ["W"], "Live writes: rates, hot keys, latest changes";
    Metrics = "metrics", ["M"], "Metrics: capacity, throttles by reason, latency, verdicts (CloudWatch)";
    Insights = "insights", ["I"], "Contributor Insights' top keys in the metrics pane; Enter opens one";
    QueryPk = "query_pk", ["p"], "Query a partition key";
    ChooseIndex = "choose_index", ["i"], "Choose the table or an index to read: keys, size, first-page cost";
    Rescan = "rescan", ["r"], "Scan again from the start";
    Tables = "tables", ["T"], "Back to the table picker";
    NavBack = "nav_back", ["backspace", "alt-left"], "Back to the previous view, as it was (after g r, a query, a rescan)";
    CollectionOrder = "collection_order", ["o"], "Order the collections: first seen, by key (DynamoDB order), by items, by bytes";
    ToggleWrap = "toggle_wrap", ["w"], "Item detail: wrap long lines, or scroll them sideways with left/right";
    LogTaller = "log_taller", ["+"], "Request log taller (it follows its rows, 3 to 10, until resized); Tab to it, Enter shows a request as sent";
    LogShorter = "log_shorter", ["-"], "Request log shorter";
    SwitchRegion = "switch_region", ["R"], "Switch region without restarting (the open table is opened again there)";
    SwitchProfile = "switch_profile", ["A"], "Switch AWS profile (from ~/.aws/config) without restarting";
    Columns = "columns", ["C"], "Choose the items pane's columns: show, hide, reorder; remembered per table, index and kind";
    CopyMarkdown = "copy_markdown", ["Y"], "Copy the listed (or marked) items as a Markdown table of the columns shown; in the request log, the row as its aws-cli command";
    ActionPalette = "action_palette", ["ctrl-p", "f2"], "Action palette: type part of what you want (an action or a saved pattern), Enter runs it as its key would";
    DesignDocument = "design_document", ["X"], "Write the table's design document (model export's Markdown: kinds, key templates, indexes, access patterns, warnings, diagram) from the items loaded to a file you name; nothing is read";
}

impl Action {
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
