"""Reads `cargo test --no-run --message-format=json` on stdin and prints each test executable
cargo built, one per line: its target name, its package's directory and its path, tab-separated.
scripts/test.sh runs them as `cargo test` would (from the package's directory)."""
import json
import os
import sys

for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if message.get("reason") != "compiler-artifact" or not message.get("executable"):
        continue
    if not message["profile"]["test"]:
        continue
    package_dir = os.path.dirname(message["manifest_path"])
    print(f'{message["target"]["name"]}\t{package_dir}\t{message["executable"]}')
