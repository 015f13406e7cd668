#!/usr/bin/env python3
"""DynamoDB Local's CPU under the JVM's default settings against the integration harness's
(`TEST_JVM_FLAGS` in tests/integration/common/mod.rs, read from there so the two cannot drift,
and DynamoDB Local's `-disableTelemetry`), and the harness's flags with telemetry left on.

Each round starts one DynamoDB Local per setting, one after the other, and gives each the same
work a test module gives its instance: a table, N items batch-written, 10 full scans and 1,000
queries. It reads the JVM's own CPU (utime + stime of the process, all its threads) when it
first answers and when the work is done, so start-up and work are apart. Reports medians and the
ratio harness / default (below 1.0: the harness's settings cost less CPU).

usage: bench/jvm_flags.py [--items N] [--rounds R]
Needs: Java 17+, DynamoDB Local in .cache/dynamodb-local and boto3 (scripts/test.sh installs
both; run it with .cache/python-venv/bin/python).
"""
import argparse, os, re, socket, statistics, subprocess, time, urllib.request

import boto3

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DDB = os.environ.get("DYNAMODB_LOCAL_DIR", os.path.join(ROOT, ".cache", "dynamodb-local"))
HARNESS = os.path.join(ROOT, "tests", "integration", "common", "mod.rs")
TICKS = os.sysconf("SC_CLK_TCK")


def harness_flags():
    source = open(HARNESS, encoding="utf-8").read()
    block = re.search(r"const TEST_JVM_FLAGS: \[&str; \d+\] = \[(.*?)\];", source, re.S)
    if not block:
        raise SystemExit(f"jvm_flags.py: no TEST_JVM_FLAGS in {HARNESS}")
    return re.findall(r'"([^"]+)"', block.group(1))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    # Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start(flags, extra=()):
    port = free_port()
    jvm = subprocess.Popen(
        ["java", *flags, f"-Djava.library.path={DDB}/DynamoDBLocal_lib", "-jar",
         f"{DDB}/DynamoDBLocal.jar", "-inMemory", "-sharedDb", "-port", str(port), *extra],
        cwd=DDB, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}"
    began = time.perf_counter()
    while True:
        try:
            urllib.request.urlopen(endpoint, timeout=1)
        except urllib.error.HTTPError:
            break  # it answers (400 to a bare GET): up
        except OSError:
            if time.perf_counter() - began > 60:
                jvm.kill()
                raise SystemExit("jvm_flags.py: DynamoDB Local did not start in 60 s")
            time.sleep(0.05)
    return jvm, endpoint


def work(endpoint, items):
    client = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id="bench", aws_secret_access_key="bench")
    client.create_table(
        TableName="bench", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}])
    rows = [{"PutRequest": {"Item": {
        "pk": {"S": f"USER#{i % 500}"}, "sk": {"S": f"ORDER#{i:08}"},
        "total": {"N": str(i * 7 % 1000)}, "note": {"S": "x" * 200}}}} for i in range(items)]
    for at in range(0, items, 25):
        pending = {"bench": rows[at:at + 25]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending)["UnprocessedItems"]
    for _ in range(10):
        for _page in client.get_paginator("scan").paginate(TableName="bench"):
            pass
    for i in range(1000):
        client.query(TableName="bench", KeyConditionExpression="pk = :p AND begins_with(sk, :s)",
                     ExpressionAttributeValues={":p": {"S": f"USER#{i % 500}"},
                                                ":s": {"S": "ORDER#"}})


def one(flags, extra, items):
    began = time.perf_counter()
    jvm, endpoint = start(flags, extra)
    try:
        ready = cpu_seconds(jvm.pid)
        work(endpoint, items)
        done = cpu_seconds(jvm.pid)
    finally:
        jvm.kill()
        jvm.wait()
    return ready, done - ready, time.perf_counter() - began


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=6000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    flags = harness_flags()
    settings = [
        ("JVM defaults", [], []),
        ("harness flags, telemetry on", flags, []),
        ("harness", flags, ["-disableTelemetry"]),
    ]
    print(f"harness flags: {' '.join(flags)} -disableTelemetry; {args.items} items, {args.rounds} rounds")
    runs = {name: [] for name, _, _ in settings}
    for _ in range(args.rounds):
        for name, jvm_flags, extra in settings:
            runs[name].append(one(jvm_flags, extra, args.items))
    median = lambda name, k: statistics.median(r[k] for r in runs[name])
    print("| setting | start CPU s | work CPU s | wall s |")
    print("|---|---|---|---|")
    for name, _, _ in settings:
        print(f"| {name} | {median(name, 0):.1f} | {median(name, 1):.1f} | {median(name, 2):.1f} |")
    for base in ["JVM defaults", "harness flags, telemetry on"]:
        for k, what in [(0, "start CPU"), (1, "work CPU"), (2, "wall")]:
            print(f"harness / {base}, {what}: {median('harness', k) / median(base, k):.2f}")


if __name__ == "__main__":
    main()
