#!/usr/bin/env python3
"""Where the integration binary's time and CPU go (docs/benchmarks.md §17.7).

Runs a built integration test binary once at a given number of test threads and prints its wall
time, the CPU of every process it started (the test binary, its DynamoDB Locals, the
`dynoscope`, Python and Node processes, read from /proc every half second), how many tests ran
at once over the run, and the CPU and time of each module and of the costliest tests.

A test's time is libtest's `--report-time`: from its start to its end, so it includes any wait
for a lock another test holds. Its CPU is each half second's CPU shared out among the tests
running in it, so a test beside busy ones is charged part of theirs; the module totals are the
firmer numbers.

Usage (from the repository root, after `cargo test --test integration --no-run`):
    python3 bench/test_profile.py target/debug/deps/integration-HASH [THREADS [FILTER]]
"""

import collections
import os
import re
import subprocess
import sys
import threading
import time

SAMPLE_EVERY = 0.5


def session_cpu(sid, hz, programs=None):
    """CPU seconds of every process in session `sid`, with the children each has reaped.

    With `programs`, also keeps each process's own CPU (without its reaped children) by pid,
    under its command name, for the run's CPU by program."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[3]) == sid:
            total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            if programs is not None:
                comm = stat[stat.find("(") + 1 : stat.rfind(")")]
                programs[pid] = (comm, (int(fields[11]) + int(fields[12])) / hz)
    return total / hz


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    threads = sys.argv[2] if len(sys.argv) > 2 else "4"
    filters = sys.argv[3:]  # libtest's name filters, for a part of the suite
    env = dict(
        os.environ,
        AWS_EC2_METADATA_DISABLED="true",
        AWS_ACCESS_KEY_ID="dummy",
        AWS_SECRET_ACCESS_KEY="dummy",
        AWS_REGION="us-east-1",
        RUST_TEST_THREADS=threads,
        RUSTC_BOOTSTRAP="1",  # for libtest's --report-time
    )
    # A session of its own, so that every process the tests start is counted and nothing else
    # (already one when started by `setsid`).
    if os.getsid(0) != os.getpid():
        os.setsid()
    sid, hz = os.getsid(0), os.sysconf("SC_CLK_TCK")
    samples, finished, programs = [], threading.Event(), {}

    def sample():
        while not finished.is_set():
            samples.append((time.time(), session_cpu(sid, hz, programs)))
            time.sleep(SAMPLE_EVERY)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.time()
    run = subprocess.Popen(
        [binary, "-Z", "unstable-options", "--report-time", *filters],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    tests, failed = [], []
    for line in run.stdout:
        now = time.time() - start
        m = re.match(r"test (\S+) \.\.\. (?:.*)?(ok|FAILED) <([0-9.]+)s>", line)
        if m:
            name, result, took = m.group(1), m.group(2), float(m.group(3))
            tests.append((name, now - took, now))
            if result == "FAILED":
                failed.append(name)
    run.wait()
    wall = time.time() - start
    finished.set()
    sampler.join()
    samples = [(t - start, cpu) for t, cpu in samples]

    cpu = collections.Counter()
    for (t0, c0), (t1, c1) in zip(samples, samples[1:]):
        running = [n for n, s, e in tests if s < t1 and e > t0]
        for n in running or ["(between tests)"]:
            cpu[n] += (c1 - c0) / max(len(running), 1)
    spent = samples[-1][1] - samples[0][1]
    at_once = collections.Counter(
        sum(1 for _, s, e in tests if s <= second < e) for second in range(int(wall))
    )
    took = {n: e - s for n, s, e in tests}

    print(f"exit {run.returncode}, {len(tests)} tests, {len(failed)} failed {failed}")
    print(f"wall {wall:.0f} s at {threads} threads; CPU {spent:.0f} s ({spent / wall:.2f} cores)")
    print("seconds with N tests running:", dict(sorted(at_once.items())))
    modules_cpu, modules_time = collections.Counter(), collections.Counter()
    for name, seconds in cpu.items():
        modules_cpu[name.split("::")[0]] += seconds
    for name, seconds in took.items():
        modules_time[name.split("::")[0]] += seconds
    print("\nCPU s  time s  module")
    for module, seconds in modules_cpu.most_common(20):
        print(f"{seconds:5.0f}  {modules_time[module]:6.0f}  {module}")
    # A process seen in at least one sample, by its command name; one that lived less than a
    # sample, and the last half second of each, count only in `spent` (its parent reaped it).
    by_program = collections.Counter()
    for comm, seconds in programs.values():
        by_program[comm] += seconds
    print("\nCPU s  program (a process's own CPU as last sampled)")
    for comm, seconds in by_program.most_common(8):
        print(f"{seconds:5.0f}  {comm}")
    print(f"{spent - sum(by_program.values()):5.0f}  (not sampled: short-lived processes, last half seconds)")
    print("\nCPU s  pid  the costliest processes")
    for pid, (comm, seconds) in sorted(programs.items(), key=lambda p: -p[1][1])[:6]:
        print(f"{seconds:5.0f}  {pid:>6}  {comm}")
    print("\nCPU s  time s  start    end  test")
    for name, seconds in cpu.most_common(25):
        if name in took:
            _, s, e = next(t for t in tests if t[0] == name)
            print(f"{seconds:5.0f}  {took[name]:6.1f}  {s:5.0f}  {e:5.0f}  {name}")
    sys.exit(run.returncode)


if __name__ == "__main__":
    main()
