//! What the command line hands the terminal loop besides the engine and the state: where the
//! query history is kept, and how to make a new connection for another region or profile.
//! (`tui` never names `cli`: what it needs from above is passed in.)

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;

use crate::app::state::{ConnectTarget, ConnectionInfo};

/// Makes a new engine for a region and profile, in the background (`Effect::Session(SessionEffect::Connect)`).
pub type Connector<B> = Arc<
    dyn Fn(
            ConnectTarget,
        ) -> Pin<Box<dyn Future<Output = Result<(B, ConnectionInfo), String>> + Send>>
        + Send
        + Sync,
>;

/// Asks about a table and its GSIs over a window, off the terminal thread: given the table,
/// its GSIs' names and the window, a future of the answer `T`.
pub type WindowSource<T> = Arc<
    dyn Fn(
            String,
            Vec<String>,
            crate::model::traffic::metrics::Window,
        ) -> Pin<Box<dyn Future<Output = T> + Send>>
        + Send
        + Sync,
>;

/// Asks CloudWatch for every series of a table and its GSIs over a window, in one
/// GetMetricData batch (`Effect::Metrics`); `cli` builds it on the connection's CloudWatch
/// client, tests on a scripted server.
pub type MetricsSource = WindowSource<
    Result<
        crate::model::traffic::metrics::report::MetricsReport,
        crate::aws::cloudwatch::FeatureError,
    >,
>;

/// Asks for Contributor Insights of a table and its GSIs over a window (`Effect::Metrics`'s
/// `Insights`): what was found, and each call denied or failed on the way. Never enables it.
pub type InsightsSource = WindowSource<(
    Vec<crate::model::traffic::insights::TargetInsights>,
    Vec<crate::aws::cloudwatch::FeatureError>,
)>;

pub struct Services<B> {
    /// The query history file; `None` keeps history in memory only (`history = false`, or no
    /// state directory).
    pub history_file: Option<PathBuf>,
    /// `None`: switching region or profile is not possible (it says so).
    pub connector: Option<Connector<B>>,
    /// `None`: the metrics pane says there is no CloudWatch client.
    pub metrics: Option<MetricsSource>,
    /// `None`: the pane's Contributor Insights section says there is no client.
    pub insights: Option<InsightsSource>,
    /// Where the bulk dialog's journals go (`DIR/journals/…`, as `partiql`'s); `None`: no
    /// state directory, and a bulk run says so and writes nothing.
    pub journal_dir: Option<PathBuf>,
    /// The column choices file (`C`); `None` keeps choices in memory only (no state folder).
    pub columns_file: Option<PathBuf>,
}

impl<B> Default for Services<B> {
    fn default() -> Self {
        Services {
            history_file: None,
            connector: None,
            metrics: None,
            insights: None,
            journal_dir: None,
            columns_file: None,
        }
    }
}
