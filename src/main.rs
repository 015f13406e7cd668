use std::process::ExitCode;

use clap::Parser;
use dynoscope::cli::say::say;
use dynoscope::cli::{self, args::Cli};

// Reading an export or a scan allocates a handful of strings per item on reader threads and
// frees them on the consumer's; glibc's malloc spent a third of `hotkeys --export` on that
// (docs/benchmarks.md §15), mimalloc a fraction of it. Built with `no_thp`: mimalloc otherwise
// asks for transparent huge pages, and on a long-running machine the kernel then compacts memory
// on the faults: up to 2.2 times a scan's CPU time, and an export read 13 % slower (§17.11).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // One line, not clap's usage block: its first paragraph names the bad value.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            say(&format!("{} (see 'dynoscope --help')", first.join(" ")));
            return ExitCode::from(2);
        }
    };
    // To a file only: nothing from the log ever reaches the terminal.
    dynoscope::logging::init(dynoscope::platform::dirs::state_dir());
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if cli.opens_explorer() {
        // Keys and frames before page parsing: see src/platform/priority.rs.
        builder.on_thread_start(dynoscope::platform::priority::lower_this_thread);
    }
    let runtime = match builder.build() {
        Ok(rt) => rt,
        Err(e) => {
            say(&format!("error: cannot start the async runtime: {e}"));
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(cli::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            tracing::warn!(code = e.code, error = %e.message, "exit");
            say(&format!("error: {}", e.message));
            if let Some(trailer) = e.trailer {
                say(&trailer);
            }
            ExitCode::from(e.code)
        }
    }
}
