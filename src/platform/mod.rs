//! What dynoscope asks of the operating system beside the network: where its files live and
//! how its threads are scheduled. Only the command line and the terminal loop use it.

pub mod dirs;
pub mod priority;
