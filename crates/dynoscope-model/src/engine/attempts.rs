//! What the SDK's HTTP attempts for one operation cost: how many, and which were throttled
//! (counted by the engine's interceptor, `dynoscope_engine::aws::attempts`).

use crate::traffic::throttle::ThrottleReason;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttemptStats {
    pub attempts: u32,
    pub throttles: u32,
    /// The service's own words for the last throttle, e.g. which index or key was hot.
    pub throttle_reason: Option<String>,
    /// Every `ThrottlingReason` of every throttled attempt, in order.
    pub reasons: Vec<ThrottleReason>,
}

/// What a failed attempt's error said: its code, message and throttling reasons.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AttemptError {
    pub code: String,
    pub message: Option<String>,
    pub reasons: Vec<ThrottleReason>,
}
