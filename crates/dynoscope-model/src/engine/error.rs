//! Engine errors, classified by what the user should do about them. The engine turns an SDK
//! failure into one (`dynoscope_engine::aws::error::FromSdk`).

/// Whether an error is the user's input (exit 2) or the service/network (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorClass {
    BadInput,
    Service,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EngineError {
    pub class: ErrorClass,
    pub message: String,
}

impl EngineError {
    pub fn bad_input(message: impl Into<String>) -> Self {
        EngineError {
            class: ErrorClass::BadInput,
            message: message.into(),
        }
    }

    pub fn service(message: impl Into<String>) -> Self {
        EngineError {
            class: ErrorClass::Service,
            message: message.into(),
        }
    }
}
