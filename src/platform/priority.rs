//! The terminal thread before the engine's: while the explorer is open, the runtime's worker
//! threads (response parsing, conversion) run at a lower scheduling priority than the thread
//! that reads keys and draws.
//!
//! On a busy machine (a scan parsing pages on every core, DynamoDB Local beside it) a keypress
//! wakes the terminal thread, which then waits for a core like every other runnable thread: a
//! real pty measurement put keypress-to-frame p99 at 31 ms with equal priorities. A lower
//! priority for the workers lets the scheduler run the terminal thread first; throughput is
//! unchanged whenever a core is otherwise idle, since niceness only orders runnable threads.

/// How much lower the workers run (nice values: 0 is the default, 19 the lowest).
pub const WORKER_NICENESS: i32 = 10;

/// Lowers the calling thread's priority; meant for the runtime's `on_thread_start`. Linux sets
/// niceness per thread. Elsewhere, and where the call is refused, it does nothing: priority is
/// an optimisation, never a reason to fail.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid, getpriority and setpriority take no pointers; they only read and set this
    // thread's scheduling niceness. errno is reset first, as -1 is a valid niceness.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        *libc::__errno_location() = 0;
        let current = libc::getpriority(libc::PRIO_PROCESS, tid);
        // Relative to what the process was started with (`nice dynoscope` lowers both).
        let lower = current.saturating_add(WORKER_NICENESS).min(19);
        libc::setpriority(libc::PRIO_PROCESS, tid, lower);
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Only the calling thread changes: the terminal thread keeps its priority.
    #[test]
    fn lowers_only_the_calling_thread() {
        let niceness = || {
            // SAFETY: getpriority takes no pointers. errno is reset first, as -1 is a valid
            // result.
            unsafe {
                *libc::__errno_location() = 0;
                let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
                libc::getpriority(libc::PRIO_PROCESS, tid)
            }
        };
        let before = niceness();
        let worker = std::thread::spawn(move || {
            lower_this_thread();
            niceness()
        })
        .join()
        .unwrap();
        assert_eq!(worker, (before + WORKER_NICENESS).min(19));
        assert_eq!(niceness(), before);
    }
}
