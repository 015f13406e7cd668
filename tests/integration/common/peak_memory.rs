//! A child's own peak resident memory, for the tests that bound it.
//!
//! `wait4`'s `ru_maxrss` cannot give it here. `Command::spawn` uses `posix_spawn`, a clone that
//! shares the parent's address space until the exec, and the kernel's exec folds the high-water
//! RSS of the address space it leaves (the test binary's) into the child's `maxrss`. With other
//! tests running beside it in this binary, a `hotkeys` that peaked at 60 MB was reported at
//! 211 MB. `VmHWM` in `/proc/PID/status` is the high-water mark of the child's own address
//! space since its exec (`spawn` returns after the exec), and it only grows, so it is read
//! every few milliseconds until the child exits: a reading can miss only growth in the child's
//! last few milliseconds, never report the parent's.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub struct Measured {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// The child's peak resident set in kB.
    pub peak_kb: u64,
}

/// The high-water resident set of `pid`'s address space in kB, while it runs.
fn high_water_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        pipe.read_to_end(&mut bytes).unwrap();
        bytes
    })
}

/// Runs `cmd` to its end (killed after `kill_after`), its output read on threads so it never
/// blocks on a full pipe, and its peak memory read as it runs.
pub fn run(cmd: &mut Command, kill_after: Duration) -> Measured {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stdout = drain(child.stdout.take().unwrap());
    let stderr = drain(child.stderr.take().unwrap());
    let started = Instant::now();
    let mut peak_kb = 0;
    let status = loop {
        // Read before the exit check: once reaped, the address space is gone.
        if let Some(kb) = high_water_kb(pid) {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > kill_after {
            child.kill().ok();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Measured {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        peak_kb,
    }
}

/// The reading is the child's, whatever the test binary holds: with 256 MB resident here, a
/// `sleep` still reads as a few MB (wait4 gave it the 256 MB).
#[test]
fn the_peak_is_the_childs_not_the_test_binarys() {
    let held = vec![1u8; 256 << 20];
    // Touch every page so it is resident, and keep the optimiser from dropping it.
    let touched: u64 = held.iter().step_by(4096).map(|&b| b as u64).sum();
    assert_eq!(touched, (256 << 20) / 4096);
    let run = run(Command::new("sleep").arg("0.2"), Duration::from_secs(60));
    assert!(run.status.success());
    assert!(
        run.peak_kb > 0 && run.peak_kb < 32 * 1024,
        "sleep's peak read as {} kB",
        run.peak_kb
    );
    drop(held);
}
