#!/usr/bin/env python3
"""Reading an S3 table export from disk: dynoscope's `hotkeys --export` against the
decompression ceiling (`zcat` of the same files) and a peer (DuckDB's `read_json` over the same
gzip files, running the same top-keys query), at 1, 2 and all cores, in one run.

The export is written by this script in AWS's documented layout (manifest-summary.json,
manifest-files.json with item counts and MD5s, gzip DYNAMODB_JSON data files) and cached under
.cache/bench-export/ by size, so a second run reuses it. Each tool is pinned to its cores with
taskset; throughput is MB/s of uncompressed DynamoDB JSON; peak RSS comes from wait4 for each
process alone. Rounds alternate the order of the tools, and each cell is the median.

usage: python3 bench/export_read.py --gb 2 --small-gb 0.2 --rounds 3 --cores 1,2
needs: bin (release dynoscope, default target/release/dynoscope), zcat, taskset, and the duckdb
module (bench/run-all.sh installs it into .cache/bench-venv).
"""

import argparse
import base64
import gzip
import hashlib
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPORT_ID = "01700000000000-bench000"


def item_line(rng, n, tenants):
    # A single-table design: tenants (Zipf-like skew) own users, users own orders.
    tenant = min(int(rng.paretovariate(1.2)), tenants)
    user = rng.randrange(1, 5000)
    kind = rng.random()
    if kind < 0.1:
        sk = f"#PROFILE#{user}"
        extra = {"email": {"S": f"user{user}@example.com"}, "plan": {"S": rng.choice(["free", "pro", "team"])}}
    else:
        day = 1 + n % 28
        sk = f"ORDER#2026-11-{day:02d}T{n % 24:02d}:{n % 60:02d}:00Z#{n:010d}"
        extra = {
            "total": {"N": f"{rng.randrange(1, 100000)}.{rng.randrange(0, 99):02d}"},
            "status": {"S": rng.choice(["PENDING", "SHIPPED", "DELIVERED"])},
            "lines": {"L": [{"M": {"sku": {"S": f"SKU-{rng.randrange(1000)}"}, "qty": {"N": str(rng.randrange(1, 9))}}} for _ in range(rng.randrange(1, 4))]},
            "tags": {"SS": sorted({rng.choice(["gift", "rush", "bulk", "fragile"]) for _ in range(2)})},
            "GSI1PK": {"S": f"STATUS#{rng.choice(['PENDING', 'SHIPPED'])}"},
            "GSI1SK": {"S": sk},
        }
    item = {"PK": {"S": f"TENANT#{tenant}#USER#{user}"}, "SK": {"S": sk}}
    item.update(extra)
    return json.dumps({"Item": item}, separators=(",", ":")) + "\n"


def write_file(args):
    folder, index, target_bytes, seed = args
    rng = random.Random(seed)
    name = f"data/{index:05d}-{seed:08x}.json.gz"
    path = os.path.join(folder, name)
    count = 0
    written = 0
    with open(path, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as out:
            batch = []
            while written < target_bytes:
                line = item_line(rng, seed * 1_000_000 + count, 2000)
                batch.append(line)
                written += len(line)
                count += 1
                if len(batch) == 4096:
                    out.write("".join(batch).encode())
                    batch = []
            out.write("".join(batch).encode())
    data = open(path, "rb").read()
    return {
        "itemCount": count,
        "md5Checksum": base64.b64encode(hashlib.md5(data).digest()).decode(),
        "etag": hashlib.md5(data).hexdigest(),
        "dataFileS3Key": f"bench/AWSDynamoDB/{EXPORT_ID}/{name}",
        "uncompressed": written,
    }


def make_export(gb, files):
    root = os.path.join(ROOT, ".cache", "bench-export", f"{gb:g}gb-{files}files")
    folder = os.path.join(root, "AWSDynamoDB", EXPORT_ID)
    done = os.path.join(root, "complete.json")
    if os.path.exists(done):
        return folder, json.load(open(done))
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(folder, "data"))
    per_file = int(gb * 1e9 / files)
    work = [(folder, i, per_file, 1000 + i) for i in range(files)]
    print(f"writing a {gb:g} GB export in {files} files to {root}", file=sys.stderr)
    with multiprocessing.Pool() as pool:
        entries = pool.map(write_file, work)
    manifest = "".join(json.dumps({k: v for k, v in e.items() if k != "uncompressed"}) + "\n" for e in entries)
    open(os.path.join(folder, "manifest-files.json"), "w").write(manifest)
    open(os.path.join(folder, "manifest-files.checksum"), "w").write(hashlib.md5(manifest.encode()).hexdigest())
    items = sum(e["itemCount"] for e in entries)
    summary = json.dumps({
        "version": "2023-08-01",
        "exportArn": f"arn:aws:dynamodb:us-east-1:123456789012:table/bench/export/{EXPORT_ID}",
        "startTime": "2026-12-01T11:00:00.000Z", "endTime": "2026-12-01T11:05:00.000Z",
        "tableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/bench",
        "exportTime": "2026-12-01T11:00:00.000Z", "s3Bucket": "bench", "s3Prefix": "bench",
        "manifestFilesS3Key": f"bench/AWSDynamoDB/{EXPORT_ID}/manifest-files.json",
        "billedSizeBytes": 0, "itemCount": items, "outputFormat": "DYNAMODB_JSON",
        "exportType": "FULL_EXPORT",
    })
    open(os.path.join(folder, "manifest-summary.json"), "w").write(summary)
    open(os.path.join(folder, "manifest-summary.checksum"), "w").write(hashlib.md5(summary.encode()).hexdigest())
    facts = {"items": items, "uncompressed": sum(e["uncompressed"] for e in entries),
             "compressed": sum(os.path.getsize(os.path.join(folder, "data", f)) for f in os.listdir(os.path.join(folder, "data")))}
    json.dump(facts, open(done, "w"))
    return folder, facts


def run(argv, cores, stdout=subprocess.DEVNULL, env=None):
    """Runs argv pinned to the first `cores` cores; returns (seconds, peak RSS in MB, stdout)."""
    pinned = ["taskset", "-c", f"0-{cores - 1}"] + argv
    start = time.perf_counter()
    proc = subprocess.Popen(pinned, stdout=stdout, stderr=subprocess.PIPE, env=env)
    out = proc.stdout.read() if stdout == subprocess.PIPE else b""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{' '.join(argv[:3])} failed: {err.decode(errors='replace')[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, out


def zcat(folder, files, cores):
    data = os.path.join(folder, "data")
    names = " ".join(sorted(os.listdir(data)))
    # One zcat per file, `cores` at a time: the decompression ceiling for these files.
    return run(["sh", "-c", f"cd {data} && printf '%s\\n' {names} | xargs -P {cores} -n 1 zcat > /dev/null"], cores)


def dynoscope(binary, folder, cores):
    return run([binary, "hotkeys", "--export", folder, "--key", "PK,SK", "--segments", str(cores), "--top", "10"], cores,
               stdout=subprocess.PIPE)


DUCKDB = """
import duckdb, sys, json
con = duckdb.connect()
con.execute(f"SET threads={int(sys.argv[2])}")
con.execute("SET enable_progress_bar=false")
rows = con.execute(
    "SELECT Item.PK.S AS pk, count(*) AS items FROM read_json(?, format='newline_delimited', "
    "compression='gzip', columns={'Item': 'STRUCT(PK STRUCT(S VARCHAR))'}) "
    "GROUP BY pk ORDER BY items DESC, pk LIMIT 10", [sys.argv[1] + '/data/*.json.gz']).fetchall()
print(json.dumps(rows))
"""


def duckdb(python, folder, cores):
    return run([python, "-c", DUCKDB, folder, str(cores)], cores, stdout=subprocess.PIPE)


def top_of_dynoscope(out):
    report = json.loads(out)
    return [(k["key"], k["items"]) for k in report["top"][:10]]


def same_top(ours, theirs):
    """The same counts in the same order, and the same keys above the last count (keys tied
    at the tenth place may differ in which of them made the cut)."""
    ours = sorted(ours, key=lambda e: (-e[1], e[0]))
    theirs = sorted(theirs, key=lambda e: (-e[1], e[0]))
    if [c for _, c in ours] != [c for _, c in theirs]:
        return False
    last = ours[-1][1] if ours else 0
    return {k for k, c in ours if c > last} == {k for k, c in theirs if c > last}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--gb", type=float, default=2.0)
    p.add_argument("--small-gb", type=float, default=0.2)
    p.add_argument("--files", type=int, default=32)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cores", default="1,2")
    p.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "dynoscope"))
    p.add_argument("--python", default=os.path.join(ROOT, ".cache", "bench-venv", "bin", "python"))
    a = p.parse_args()
    folder, facts = make_export(a.gb, a.files)
    mb = facts["uncompressed"] / 1e6
    print(f"export: {facts['items']:,} items, {mb:,.0f} MB uncompressed, {facts['compressed'] / 1e6:,.0f} MB gzip, {a.files} files")
    cores = [int(c) for c in a.cores.split(",")]
    print("| cores | zcat MB/s | dynoscope MB/s | DuckDB MB/s | dynoscope / zcat | dynoscope / DuckDB | RSS dynoscope MB | RSS DuckDB MB |")
    print("|---|---|---|---|---|---|---|---|")
    for n in cores:
        times = {"zcat": [], "dynoscope": [], "duckdb": []}
        rss = {"dynoscope": [], "duckdb": []}
        tools = ["zcat", "dynoscope", "duckdb"]
        for r in range(a.rounds):
            for tool in tools[r % 3:] + tools[:r % 3]:
                if tool == "zcat":
                    s, _, _ = zcat(folder, a.files, n)
                elif tool == "dynoscope":
                    s, m, out = dynoscope(a.bin, folder, n)
                    rss["dynoscope"].append(m)
                    ours = top_of_dynoscope(out)
                else:
                    s, m, out = duckdb(a.python, folder, n)
                    rss["duckdb"].append(m)
                    theirs = [tuple(row) for row in json.loads(out)]
                times[tool].append(s)
        # The same query, the same answer: the top keys and their counts agree.
        if not same_top(ours, theirs):
            sys.exit(f"top keys differ:\n dynoscope {ours}\n duckdb    {theirs}")
        rate = {t: mb / statistics.median(v) for t, v in times.items()}
        print(f"| {n} | {rate['zcat']:,.0f} | {rate['dynoscope']:,.0f} | {rate['duckdb']:,.0f} | "
              f"{rate['dynoscope'] / rate['zcat']:.2f} | {rate['dynoscope'] / rate['duckdb']:.2f} | "
              f"{max(rss['dynoscope']):,.0f} | {max(rss['duckdb']):,.0f} |", flush=True)
    # Memory does not grow with the export: the same read of a tenth of the size.
    small, small_facts = make_export(a.small_gb, a.files)
    _, small_rss, _ = dynoscope(a.bin, small, max(cores))
    _, big_rss, _ = dynoscope(a.bin, folder, max(cores))
    print(f"\npeak RSS of hotkeys --export at {max(cores)} cores: {small_rss:,.0f} MB at "
          f"{small_facts['uncompressed'] / 1e6:,.0f} MB, {big_rss:,.0f} MB at {mb:,.0f} MB "
          f"({big_rss / small_rss:.2f}x for {facts['uncompressed'] / small_facts['uncompressed']:.1f}x the data)")


if __name__ == "__main__":
    main()
