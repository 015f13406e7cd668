#!/usr/bin/env python3
"""Streaming export from the explorer against the headless scan: the time the explorer takes
to stream a scan to a file (from Enter in its export dialog until the finished file has its
final name) against `dynoscope scan --output jsonl > file` on the same DynamoDB Local table,
run alternately so both see the same machine state. The explorer runs in a real pty, driven by
keystrokes; its screen output is drained (and discarded) as a terminal would.

ratio = headless seconds / explorer seconds (1.0: as fast; the target is >= 0.9).

usage: bench/export_stream.py [--users N] [--rounds R] [--segments 1,4]
Needs a release build: cargo build --release --bin dynoscope
"""
import argparse, os, pty, select, signal, socket, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DDB = os.environ.get("DYNAMODB_LOCAL_DIR", os.path.join(ROOT, ".cache", "dynamodb-local"))
DYNOSCOPE = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                         "release", "dynoscope")
ENV = dict(os.environ, AWS_EC2_METADATA_DISABLED="true", AWS_ACCESS_KEY_ID="bench",
           AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1",
           AWS_DEFAULT_REGION="us-east-1", DYNOSCOPE_LOG="off", TERM="xterm-256color")
RIGHT, DOWN, CTRL_U = "\x1b[C", "\x1b[B", "\x15"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def headless(endpoint, segments, path):
    start = time.perf_counter()
    with open(path, "wb") as out:
        subprocess.run([DYNOSCOPE, "--endpoint-url", endpoint, "scan", "bench", "--segments",
                        str(segments), "--output", "jsonl"], env=ENV, stdout=out, check=True)
    return time.perf_counter() - start


class Explorer:
    """The explorer in a 40x140 pty; `wait` drains its output until a marker shows up."""

    def __init__(self, endpoint):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(DYNOSCOPE, [DYNOSCOPE, "--endpoint-url", endpoint, "bench"], ENV)
        import fcntl, struct, termios
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        self.seen = b""

    def drain(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            try:
                data = os.read(self.fd, 1 << 16)
            except OSError:
                return
            self.seen = (self.seen + data)[-65536:]

    def wait(self, marker, limit=120):
        end = time.time() + limit
        while marker.encode() not in self.seen:
            if time.time() > end:
                sys.exit(f"the explorer never showed {marker!r}")
            self.drain(0.05)
        self.seen = b""

    def keys(self, text, pause=0.15):
        os.write(self.fd, text.encode())
        end = time.time() + pause
        while time.time() < end:
            self.drain(0.02)

    def close(self):
        try:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def explorer(endpoint, segments, path):
    ex = Explorer(endpoint)
    try:
        ex.wait("Collections by")
        if segments > 1:
            # The scan launcher: segments, Enter; the export then takes its read over.
            ex.keys("S")
            ex.wait("Parallel scan")
            ex.keys("\x7f" + str(segments) + "\r", pause=0.3)
        ex.keys("x")
        # Scope: the collection → everything loaded → the stream; then the path.
        ex.keys(RIGHT + RIGHT + DOWN + DOWN + CTRL_U + path)
        start = time.perf_counter()
        os.write(ex.fd, b"\r")
        while not os.path.exists(path):
            ex.drain(0.005)
        elapsed = time.perf_counter() - start
        ex.keys("q", pause=0.5)
        return elapsed
    finally:
        ex.close()


def count_lines(path):
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=10500)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--segments", default="1,4")
    args = ap.parse_args()
    if not os.path.exists(DYNOSCOPE):
        sys.exit(f"missing {DYNOSCOPE}; run: cargo build --release --bin dynoscope")
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    java = subprocess.Popen(["java", f"-Djava.library.path={DDB}/DynamoDBLocal_lib", "-jar",
                             f"{DDB}/DynamoDBLocal.jar", "-inMemory", "-sharedDb", "-port", str(port)],
                            cwd=DDB, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        subprocess.run([DYNOSCOPE, "--endpoint-url", endpoint, "seed", "--table", "bench",
                        "--users", str(args.users)], env=ENV, check=True)
        with tempfile.TemporaryDirectory() as tmp:
            print("| segments | headless median s | explorer median s | ratio (headless/explorer) | items |")
            print("|---|---|---|---|---|")
            for n in [int(x) for x in args.segments.split(",")]:
                hs, es, items = [], [], None
                for r in range(args.rounds):
                    hp = os.path.join(tmp, f"headless-{n}-{r}.jsonl")
                    ep = os.path.join(tmp, f"explorer-{n}-{r}.jsonl")
                    # Which goes first alternates, so warm-up and drift hit both alike.
                    if r % 2 == 0:
                        hs.append(headless(endpoint, n, hp))
                        es.append(explorer(endpoint, n, ep))
                    else:
                        es.append(explorer(endpoint, n, ep))
                        hs.append(headless(endpoint, n, hp))
                    items = count_lines(hp)
                    got = count_lines(ep)
                    if got != items:
                        sys.exit(f"the explorer's file holds {got} items, the headless one {items}")
                    os.remove(hp)
                    os.remove(ep)
                h, e = statistics.median(hs), statistics.median(es)
                print(f"| {n} | {h:.3f} | {e:.3f} | {h / e:.3f} | {items} |", flush=True)
        print(f"\n{args.rounds} alternating rounds per row, endpoint {endpoint}")
    finally:
        java.kill()
        java.wait()


if __name__ == "__main__":
    main()
