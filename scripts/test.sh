#!/usr/bin/env bash
# Runs the whole test suite: unit, snapshot, integration (against DynamoDB Local) and
# end-to-end pty tests. Installs DynamoDB Local and the corpus's npm modelling libraries first if
# needed (and boto3, moto and the MCP SDK in a venv). Needs Rust, Java 17+, Node.js 20+, npm and
# python3 with venv.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# The installs are downloads and the build is CPU, so on a fresh machine they run side by side
# (about five minutes of downloads beside a four-minute build: docs/benchmarks.md §17.3). Each
# install writes a log; a failed one prints it and stops the run before any test.
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
bash scripts/install-dynamodb-local.sh >"$logs/dynamodb-local.log" 2>&1 &
local_pid=$!
bash scripts/install-corpus-tools.sh >"$logs/corpus-tools.log" 2>&1 &
corpus_pid=$!
installs_ok() {
  local ok=0
  wait "$local_pid" || { echo "test.sh: installing DynamoDB Local failed:" >&2; cat "$logs/dynamodb-local.log" >&2; ok=1; }
  wait "$corpus_pid" || { echo "test.sh: installing the corpus tools failed:" >&2; cat "$logs/corpus-tools.log" >&2; ok=1; }
  cat "$logs/dynamodb-local.log" "$logs/corpus-tools.log"
  return "$ok"
}

# Tests must never reach for the EC2 instance-metadata address, and never use real credentials.
export AWS_EC2_METADATA_DISABLED=true
export AWS_ACCESS_KEY_ID=dummy AWS_SECRET_ACCESS_KEY=dummy AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_ENDPOINT_URL_DYNAMODB
# Four tests at a time: the integration binary's tests wait on DynamoDB Local, streams, moto and
# pty sessions, and at two threads it left 42 % of two cores idle (docs/benchmarks.md §17.7).
# Tests that cannot share the machine's timing take a lock or a DynamoDB Local of their own
# (tests/integration/common/mod.rs), and the screen waits end on the screen or the program's
# exit, not on a short clock (§17.3).
export RUST_TEST_THREADS="${RUST_TEST_THREADS:-4}"

build_failed() { installs_ok || true; exit 1; }
# With arguments (a filter, a package) it is cargo's own build and run.
if [ "$#" -gt 0 ]; then
  cargo test --workspace --locked --no-run "$@" || build_failed
  installs_ok
  exec cargo test --workspace --locked "$@"
fi

# The whole suite. The integration binary is built first and starts as soon as it and the
# installs are ready. It waits on DynamoDB Local, moto and the pty sessions for much of its
# run and leaves part of the two cores idle (1.47 of two used at four threads), so the rest of
# the build (each crate's unit-test binary, about a minute on two cores at the end of a clean
# build) and then those binaries and the doc tests run beside it, at a lower priority
# (docs/benchmarks.md §17.6, §17.7). The first build selects the same packages, so it resolves
# the same features and the second finds the integration binary and `dynoscope` fresh. Each
# binary runs from its package's directory, as under `cargo test`.
cargo test --workspace --locked --no-run --test integration || build_failed
installs_ok
list_binaries() { # cargo test arguments…; prints name, package directory, executable per line
  cargo test --workspace --locked --no-run --message-format=json "$@" 2>/dev/null \
    | python3 scripts/test_binaries.py
}
IFS=$'\t' read -r _ integration_dir integration_exe < <(list_binaries --test integration | grep "^integration	") \
  || { echo "test.sh: cargo built no integration test binary" >&2; exit 1; }
run_binary() { # name dir exe [test arguments…]
  echo "== $1 ($3 ${*:4})"
  (cd "$2" && CARGO_MANIFEST_DIR="$2" "${@:3}")
}
(
  nice -n 10 cargo test --workspace --locked --no-run 2>&1 \
    || { echo "test.sh: FAILED: the build of the other test binaries"; exit 1; }
  list_binaries >"$logs/binaries.tsv" \
    || { echo "test.sh: FAILED: cannot list the test binaries cargo built"; exit 1; }
  status=0
  while IFS=$'\t' read -r name dir exe; do
    [ "$name" = integration ] && continue
    run_binary "$name" "$dir" "$exe" || { echo "test.sh: FAILED: $name" ; status=1; }
  done <"$logs/binaries.tsv"
  # The doc tests too: rustdoc builds each, and the other build is done by now.
  echo "== doc tests"
  nice -n 10 cargo test --workspace --locked --doc || { echo "test.sh: FAILED: doc tests"; status=1; }
  exit "$status"
) >"$logs/others.log" 2>&1 &
others_pid=$!
# The stream tests (`tail`, `tail_faults`) come last in libtest's name order, and most of their
# time is waiting: stream pages, fixed read windows, and the SDK's pacing after throttles. At
# the end of the run they were its tail, so they run from the start in a process of their own,
# one at a time, and the rest at four threads (docs/benchmarks.md §17.7). The other long
# modules late in that order join them (each filter names one module: no other module's name
# contains it): the last 90 s of the run had left a third of the two cores idle while they
# ended (§17.16).
stream_tests=(partiql_oracle:: session_guard:: table_export:: table_export_s3:: tail:: tail_faults::
  throttle_reasons:: triage::)
RUST_TEST_THREADS=1 run_binary "integration, stream and late tests" "$integration_dir" "$integration_exe" \
  "${stream_tests[@]}" >"$logs/streams.log" 2>&1 &
streams_pid=$!
status=0
run_binary integration "$integration_dir" "$integration_exe" "${stream_tests[@]/#/--skip=}" \
  || { echo "test.sh: FAILED: integration" >&2; status=1; }
wait "$streams_pid" || { echo "test.sh: FAILED: integration, stream and late tests" >&2; status=1; }
cat "$logs/streams.log"
wait "$others_pid" || status=1
cat "$logs/others.log"
grep "^test.sh: FAILED" "$logs/others.log" >&2 || true
[ "$status" -eq 0 ] || { echo "test.sh: some tests failed (see above)" >&2; exit 1; }
echo "test.sh: every test binary passed"
