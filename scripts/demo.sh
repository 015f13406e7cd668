#!/usr/bin/env bash
# The demo: installs DynamoDB Local if needed, builds dynoscope, starts DynamoDB Local, loads the
# demo single-table data set and opens the explorer on it. Quitting stops DynamoDB Local.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/install-dynamodb-local.sh
export AWS_EC2_METADATA_DISABLED=true
exec cargo run --release --locked -- demo "$@"
