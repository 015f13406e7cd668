//! Starting a local server the tests talk to (DynamoDB Local, moto) on a port picked free.
//!
//! A port picked free is let go before the server binds it, and in the second or two a JVM
//! takes to start, another program may take it: a test's fault proxy, which forwards to the
//! shared DynamoDB Local. Anything answering on the port is then not the server, which exits on
//! its failed bind, so the wait is for the server's own listener (the socket's inode among its
//! fds, `dynoscope::platform::listener`), and a taken port is picked again.

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use dynoscope::platform::listener::{who_listens, PortHolder};

/// Times a server is started on a fresh port when another program took the one it was given.
const PORT_ATTEMPTS: u32 = 3;

/// Starts the server `command(port)` describes on a free port and waits until it listens there
/// itself; gives its port and pid. Spawned from a thread that never exits, with
/// PR_SET_PDEATHSIG, so the server dies with the test process instead of leaking.
pub fn start_server(
    what: &'static str,
    command: impl Fn(u16) -> Command + Send + Sync + 'static,
) -> (u16, u32) {
    let command = Arc::new(command);
    for _ in 0..PORT_ATTEMPTS {
        let port = super::free_port();
        let (pid_tx, pid_rx) = std::sync::mpsc::channel();
        let (exited_tx, exited) = std::sync::mpsc::channel();
        let command = command.clone();
        std::thread::spawn(move || {
            use std::os::unix::process::CommandExt;
            let mut cmd = command(port);
            // SAFETY: prctl is async-signal-safe and touches no memory of the parent's.
            unsafe {
                cmd.pre_exec(|| {
                    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                    Ok(())
                });
            }
            let mut child = cmd.spawn().unwrap_or_else(|e| panic!("start {what}: {e}"));
            pid_tx.send(child.id()).unwrap();
            // This thread is the child's parent thread: it must outlive every test, so it waits
            // on the server (reaping it), says how it ended, and then parks for good.
            let _ = exited_tx.send(child.wait().map(|s| s.to_string()).unwrap_or_default());
            loop {
                std::thread::park();
            }
        });
        let pid = pid_rx.recv().unwrap();
        if wait_own_listener(port, pid, &exited, what) {
            return (port, pid);
        }
    }
    panic!("{what}: another program took its port {PORT_ATTEMPTS} times in a row");
}

/// Waits until process `pid` listens on `port` (true), or it exited because another program
/// holds the port (false); fails when it exits otherwise. Not on a clock: a JVM starting beside
/// a full test run on 2 cores took over the 60 s this once allowed. Ten minutes is a backstop
/// for a server that neither listens nor exits.
fn wait_own_listener(
    port: u16,
    pid: u32,
    exited: &std::sync::mpsc::Receiver<String>,
    what: &str,
) -> bool {
    let started = Instant::now();
    loop {
        match who_listens(pid, port) {
            PortHolder::Process => return true,
            // Where the system cannot tell, a connection is the best sign there is.
            PortHolder::Unknown if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() => {
                return true
            }
            _ => {}
        }
        if let Ok(status) = exited.try_recv() {
            if who_listens(pid, port) == PortHolder::Another {
                return false;
            }
            panic!("{what} exited before it listened on port {port}: {status}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "{what} neither listened on port {port} nor exited in 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
