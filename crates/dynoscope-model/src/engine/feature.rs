//! Why a CloudWatch feature (metrics, Contributor Insights) has nothing to show.

use crate::engine::permission::Denied;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FeatureError {
    /// The IAM policy does not allow the call: only its feature is lost.
    #[error("{}", .0.line())]
    Denied(Denied),
    #[error("{0}")]
    Failed(String),
}
