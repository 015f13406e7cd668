//! dynoscope's engine: the only code that talks to AWS (`aws`: the read engine, the writer, the
//! stream, CloudWatch, S3 exports) and the log file (`logging`). It sits on the domain crate,
//! re-exported here as `model` so the engine names it as the binary crate does; nothing of
//! the explorer, the terminal or the command line is in reach (a compile error, not a test).

pub use dynoscope_model as model;

pub mod aws;
pub mod local_files;
pub mod logging;
