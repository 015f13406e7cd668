//! What the command line hands the terminal loop besides the engine and the state: where the
//! query history is kept. (`tui` never names `cli`: what it needs from above is passed in.)

use std::path::PathBuf;

#[derive(Default)]
pub struct Services {
    /// The query history file; `None` keeps history in memory only (`history = false`, or no
    /// state directory).
    pub history_file: Option<PathBuf>,
}
