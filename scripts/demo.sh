#!/usr/bin/env bash
# The demo: installs DynamoDB Local if needed, builds dynoscope, starts DynamoDB Local, loads the
# demo single-table data set and opens the explorer on it. Quitting stops DynamoDB Local.
#
# It builds the debug profile, not the release one: on two cores the release build (fat LTO)
# takes about seven minutes (docs/benchmarks.md §17.11) and the debug one about
# three, the demo's few thousand items need no more, and `scripts/test.sh` then reuses the same
# build (docs/benchmarks.md §17.3). The download of DynamoDB Local runs beside the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
bash scripts/install-dynamodb-local.sh >"$log" 2>&1 &
install=$!
if ! cargo build --locked --bin dynoscope; then
  wait "$install" || true
  exit 1
fi
wait "$install" || { echo "demo.sh: installing DynamoDB Local failed:" >&2; cat "$log" >&2; exit 1; }
cat "$log"
rm -f "$log"
export AWS_EC2_METADATA_DISABLED=true
# The build above is done, so this only runs it, wherever cargo's target directory is.
exec cargo run --quiet --locked --bin dynoscope -- demo "$@"
