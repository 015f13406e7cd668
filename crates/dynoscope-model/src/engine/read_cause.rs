//! Why a read is sent: the user action that named it. Every read carries one (a read cannot
//! be described without it), and it is logged with each of the read's requests, so the request
//! log answers "which key or flag spent this capacity".

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReadCause {
    /// Opening a table in the explorer (its first page), or the table given on the command line.
    OpenTable,
    /// Loading the next page of what is shown, on scrolling to its end.
    NextPage,
    /// A query the user ran: the query form, `dynoscope query`, a PartiQL SELECT sent as Query.
    Query,
    /// A scan the user started: the scan launcher, `dynoscope scan`, `--allow-scan`.
    Scan,
    /// A PartiQL SELECT sent as it is (ExecuteStatement).
    Statement,
    /// `Ctrl-S` in the query form's completion popup: a keys-only sample.
    KeySample,
    /// `partiql --sample`, `diagnose --sample-keys`: a sample the user asked for by flag.
    SampleFlag,
    /// Continuing a read the user stopped or that stopped at its budget.
    Resume,
    /// A named access pattern (`run`, the palette).
    Pattern,
    /// Following a relation, opening an item's collection, walking a key.
    Navigate,
    /// `hotkeys`: the partition-key ranking's scan.
    Hotkeys,
    /// After a conditional write was refused: the item as it is now, strongly consistent,
    /// so the user sees what changed.
    ConflictReread,
    /// A tool call of an MCP client (`dynoscope mcp`): the agent asked for this read.
    AgentCall,
    /// A test's read.
    Test,
}

impl ReadCause {
    /// As logged and shown: the action, in the user's words.
    pub fn as_str(self) -> &'static str {
        match self {
            ReadCause::OpenTable => "open table",
            ReadCause::NextPage => "next page",
            ReadCause::Query => "query",
            ReadCause::Scan => "scan",
            ReadCause::Statement => "partiql statement",
            ReadCause::KeySample => "key sample (Ctrl-S)",
            ReadCause::SampleFlag => "sample (--sample)",
            ReadCause::Resume => "resume",
            ReadCause::Pattern => "access pattern",
            ReadCause::Navigate => "navigate",
            ReadCause::Hotkeys => "hotkeys",
            ReadCause::ConflictReread => "re-read after a refused write",
            ReadCause::AgentCall => "mcp tool call",
            ReadCause::Test => "test",
        }
    }
}

impl fmt::Display for ReadCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
