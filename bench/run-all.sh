#!/usr/bin/env bash
# Every benchmark behind docs/benchmarks.md, one after another: scan throughput against the raw
# SDK loop (and the aws cli / boto3 when installed), explorer ingest, page-to-frame, render and
# memory at 1,000,000 items, and keypress latency in a pty while a scan streams. Run it on an
# otherwise idle machine: DynamoDB Local shares the cores with what it serves. About 20 minutes
# on 2 cores after the release build, plus about 10 minutes for the 2 GB export the first time.
# usage: bash bench/run-all.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-dynamodb-local.sh
# Never the instance-metadata address, never real credentials.
export AWS_EC2_METADATA_DISABLED=true
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_DYNAMODB
cargo build --locked --release --bin dynoscope --example raw_scan
echo "== scan throughput (199,084 items)"
python3 bench/scan_throughput.py --users 10500 --rounds 5 --segments 1,4,8
echo "== explorer: ingest, page to frame, render, memory (1,000,000 items)"
cargo bench --locked --bench render
echo "== keypress to frame in a pty while a scan streams"
cargo bench --locked --bench pty_latency
echo "== stream tail: records decoded and ranked per second on one core"
cargo bench --locked --bench tail
echo "== live pane: frame time with the window and the tail full, against the items pane"
cargo bench --locked --bench live_pane
echo "== the explorer's streaming export against scan --output jsonl > file (199,084 items)"
python3 bench/export_stream.py --users 10500 --rounds 3 --segments 1,4
echo "== reading an S3 export from disk: hotkeys --export against zcat and DuckDB (2 GB)"
[ -x .cache/bench-venv/bin/python ] || python3 -m venv .cache/bench-venv
.cache/bench-venv/bin/pip install -q duckdb==1.4.2
python3 bench/export_read.py --gb 2 --small-gb 0.2 --rounds 3 --cores 1,2
echo "== DynamoDB Local's CPU under the test harness's JVM flags against the JVM's defaults"
bash scripts/install-corpus-tools.sh >/dev/null
.cache/python-venv/bin/python bench/jvm_flags.py --items 6000 --rounds 3
echo "== the integration binary at four test threads: wall, CPU, tests at once, costliest modules"
integration="$(cargo test --locked --test integration --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys; print(next(m["executable"] for m in map(json.loads, sys.stdin) if m.get("target", {}).get("name") == "integration" and m.get("executable")))')"
python3 bench/test_profile.py "$integration" 4
