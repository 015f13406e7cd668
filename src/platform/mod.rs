//! What dynoscope asks of the operating system beside the network: where its files live, how
//! its threads are scheduled, and who listens on a local port. Only the command line and the
//! terminal loop use it.

pub mod dirs;
pub mod listener;
pub mod priority;
