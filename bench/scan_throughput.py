#!/usr/bin/env python3
"""Scan throughput: `dynoscope scan --segments N --output jsonl > /dev/null` against a bare
aws-sdk-rust pagination loop (examples/raw_scan.rs) over the same DynamoDB Local table, run
alternately in one process so both see the same machine state. Reports medians, the ratio of
medians (raw / dynoscope: 1.0 means as fast as the raw loop) and client CPU time per item.

usage: bench/scan_throughput.py [--users N] [--rounds R] [--segments 1,4,8]
Needs release builds: cargo build --release --bin dynoscope --example raw_scan
"""
import argparse, os, resource, shutil, socket, statistics, subprocess, sys, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DDB = os.environ.get("DYNAMODB_LOCAL_DIR", os.path.join(ROOT, ".cache", "dynamodb-local"))
DYNOSCOPE = os.path.join(ROOT, "target", "release", "dynoscope")
RAW = os.path.join(ROOT, "target", "release", "examples", "raw_scan")
ENV = dict(os.environ, AWS_EC2_METADATA_DISABLED="true", AWS_ACCESS_KEY_ID="bench",
           AWS_SECRET_ACCESS_KEY="bench", AWS_REGION="us-east-1",
           AWS_DEFAULT_REGION="us-east-1", DYNOSCOPE_LOG="off")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def timed(cmd):
    """Wall seconds and child CPU seconds (user+sys) of one run; stdout discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(cmd, env=ENV, stdout=subprocess.PIPE if "raw_scan" in cmd[0] else subprocess.DEVNULL,
                         stderr=subprocess.PIPE, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


BOTO3_SCAN = """
import sys, boto3
client = boto3.client("dynamodb", endpoint_url=sys.argv[1], region_name="us-east-1",
                      aws_access_key_id="bench", aws_secret_access_key="bench")
n = 0
for page in client.get_paginator("scan").paginate(TableName=sys.argv[2]):
    n += len(page["Items"])
print(n)
"""


def extra_clients(endpoint):
    """The aws cli and boto3, when installed, as extra columns."""
    out = []
    if shutil.which("aws"):
        probe = subprocess.run(["aws", "--version"], capture_output=True, env=ENV)
        if probe.returncode == 0:
            out.append(("aws cli", ["aws", "dynamodb", "scan", "--table-name", "bench",
                                    "--endpoint-url", endpoint, "--output", "json"]))
    probe = subprocess.run([sys.executable, "-c", "import boto3"], capture_output=True)
    if probe.returncode == 0:
        out.append(("boto3", [sys.executable, "-c", BOTO3_SCAN, endpoint, "bench"]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--segments", default="1,4,8")
    args = ap.parse_args()
    for path in (DYNOSCOPE, RAW):
        if not os.path.exists(path):
            sys.exit(f"missing {path}; run: cargo build --release --bin dynoscope --example raw_scan")
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
        items = None
        print(f"| segments | raw loop median s | dynoscope median s | ratio (raw/dynoscope) | raw CPU µs/item | dynoscope CPU µs/item |")
        print(f"|---|---|---|---|---|---|")
        for n in [int(x) for x in args.segments.split(",")]:
            raw, dyn = [], []
            for _ in range(args.rounds):
                w, c, out = timed([RAW, endpoint, "bench", str(n), "--capacity"])
                items = int(out.stdout.decode().strip())
                raw.append((w, c))
                w, c, _ = timed([DYNOSCOPE, "--endpoint-url", endpoint, "scan", "bench",
                                 "--segments", str(n), "--output", "jsonl"])
                dyn.append((w, c))
            rw = statistics.median(x[0] for x in raw)
            dw = statistics.median(x[0] for x in dyn)
            rc = statistics.median(x[1] for x in raw) / items * 1e6
            dc = statistics.median(x[1] for x in dyn) / items * 1e6
            print(f"| {n} | {rw:.3f} | {dw:.3f} | {rw / dw:.3f} | {rc:.2f} | {dc:.2f} |", flush=True)
        extras = extra_clients(endpoint)
        if extras:
            print(f"\nOther clients, full sequential scan (1 segment), one run each next to the raw loop, same table:")
            print("| client | median s | ratio (raw/client) |")
            print("|---|---|---|")
            for name, cmd in extras:
                raw1 = timed([RAW, endpoint, "bench", "1"])[0]
                try:
                    wall = timed(cmd)[0]
                except subprocess.CalledProcessError as e:
                    detail = e.stderr.decode(errors="replace").strip().splitlines()[-1:] if e.stderr else []
                    print(f"| {name} | failed (exit {e.returncode}: {' '.join(detail)}) | - |", flush=True)
                    continue
                print(f"| {name} | {wall:.3f} | {raw1 / wall:.3f} |", flush=True)
        print(f"\n{items} items, {args.rounds} alternating rounds per row, endpoint {endpoint}")
    finally:
        java.kill()
        java.wait()


if __name__ == "__main__":
    main()
