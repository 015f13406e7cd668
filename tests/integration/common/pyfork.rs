//! The suite's Python runs through one fork server (tests/pyfork.py): it imports boto3, the MCP
//! SDK and DuckDB once, and each run is a fork of it, so a run costs its own work, not 0.4-1.6 s
//! of imports (docs/benchmarks.md §17.14). A run is still `python ARGS` to its caller: the same
//! arguments, standard streams, environment, working folder and exit code.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::venv_python;

/// `python` for a test: add the arguments python takes (`SCRIPT ARGS`, `-c CODE ARGS`) and
/// run it as any `Command`. The fork server is started on first use and dies with the test
/// process.
pub fn python() -> Command {
    let mut cmd = Command::new(venv_python());
    // -S -E: the client imports only the standard library's sockets, in a few milliseconds.
    cmd.args(["-S", "-E"])
        .arg(script())
        .arg("run")
        .env("DYNOSCOPE_PYFORK", socket());
    cmd
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyfork.py")
}

/// The server's socket, once it accepts.
fn socket() -> &'static Path {
    static SOCKET: OnceLock<PathBuf> = OnceLock::new();
    SOCKET.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("pyfork-{}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let (exited_tx, exited) = std::sync::mpsc::channel();
        let served = path.clone();
        std::thread::spawn(move || {
            use std::os::unix::process::CommandExt;
            let mut cmd = Command::new(venv_python());
            cmd.arg(script())
                .arg("serve")
                .arg(&served)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null());
            // SAFETY: prctl is async-signal-safe and touches no memory of the parent's.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            let status = cmd.spawn().and_then(|mut child| child.wait());
            let _ = exited_tx.send(format!("{status:?}"));
            // The server's parent thread outlives every test (PR_SET_PDEATHSIG is per thread).
            loop {
                std::thread::park();
            }
        });
        // The server names its socket once it listens, after its imports: a few seconds, more
        // on a loaded machine. Ten minutes is a backstop for one that neither listens nor exits.
        let started = Instant::now();
        while !path.exists() {
            if let Ok(status) = exited.try_recv() {
                panic!("the Python fork server (tests/pyfork.py) exited: {status}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(600),
                "the Python fork server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = socket_cleanup(&path);
        path
    })
}

/// Removes the sockets that earlier test processes (each named by its pid) left in cargo's
/// temporary folder over an hour ago.
fn socket_cleanup(path: &Path) -> Option<()> {
    let dir = path.parent()?;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let stale = name.starts_with("pyfork-")
            && entry.path() != path
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().unwrap_or_default() > Duration::from_secs(3600));
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Some(())
}
