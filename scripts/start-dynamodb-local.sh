#!/usr/bin/env bash
# Starts DynamoDB Local (installed by scripts/install-dynamodb-local.sh) in the foreground,
# in memory and with -sharedDb: without it DynamoDB Local keeps a separate database per access
# key and region, and tables seeded with one set of credentials are invisible to another. Without
# telemetry: nothing is sent to AWS.
# usage: scripts/start-dynamodb-local.sh [PORT]     (default 8000; Java 17+ required)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${DYNAMODB_LOCAL_DIR:-$root/.cache/dynamodb-local}"
port="${1:-8000}"
if [ ! -f "$dir/DynamoDBLocal.jar" ]; then
  echo "error: DynamoDB Local not found in '$dir'; install it with: bash scripts/install-dynamodb-local.sh" >&2
  exit 2
fi
command -v java >/dev/null || { echo "error: java not found; DynamoDB Local needs Java 17 or newer" >&2; exit 2; }
echo "DynamoDB Local on http://localhost:$port (Ctrl-C stops it)" >&2
cd "$dir"
exec java -Djava.library.path="$dir/DynamoDBLocal_lib" -jar "$dir/DynamoDBLocal.jar" -inMemory -sharedDb -port "$port" -disableTelemetry
