//! What is wrong with a statement: one line naming the bad token and the fix.

/// Whether DynamoDB itself could run the statement: a syntax error it would refuse too, or a
/// construct dynoscope does not translate (sent as ExecuteStatement only when asked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Syntax,
    Unsupported,
    /// The statement is well formed but names a missing index, mistypes a key, …
    BadInput,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PartiqlError {
    pub kind: ErrorKind,
    pub message: String,
}

impl PartiqlError {
    pub fn syntax(message: impl Into<String>) -> Self {
        PartiqlError {
            kind: ErrorKind::Syntax,
            message: message.into(),
        }
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        PartiqlError {
            kind: ErrorKind::Unsupported,
            message: message.into(),
        }
    }

    pub fn bad_input(message: impl Into<String>) -> Self {
        PartiqlError {
            kind: ErrorKind::BadInput,
            message: message.into(),
        }
    }
}
