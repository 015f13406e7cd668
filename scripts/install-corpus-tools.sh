#!/usr/bin/env bash
# Installs the npm modelling libraries that write the test corpus (electrodb, dynamodb-toolbox,
# dynamodb-onetable and the AWS SDK v3 pieces they need, pinned in tests/corpus/package.json and
# package-lock.json) into .cache/corpus-node, which git ignores. Idempotent: a stamp file holds
# the lock's sha256, and a second run with the same lock does nothing.
# Also installs boto3, duckdb and moto's S3 server, pinned, into a Python venv in .cache/python-venv,
# for the test that runs the boto3 snippets `partiql --explain` prints (tests/integration/partiql_snippets.rs),
# the one that runs the Athena SQL in DuckDB (tests/integration/athena_duckdb.rs), the S3 export tests,
# whose local S3 server is moto_server (tests/integration/table_export_s3.rs), and the MCP server's,
# whose client is the official Python SDK (tests/integration/mcp.rs); idempotent too.
# Needs: npm and Node.js 20+, python3 with venv.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PYTHON_VENV_DIR:-$root/.cache/python-venv}"
# boto3 runs the PartiQL snippets; duckdb checks the Athena SQL (tests/integration/athena_duckdb.rs);
# moto_server is the S3 export tests' local S3 server (tests/integration/table_export_s3.rs);
# mcp is the independent client of `dynoscope mcp` (tests/mcp_client.py).
# moto[s3] and the two web packages moto_server runs on, rather than moto[server], which brings
# every service's dependencies (cfn-lint, sympy, networkx, docker, pydantic…): from an empty pip
# cache on 2 cores that install took 737 s and 373 MB, this one 169 s and 196 MB
# (docs/benchmarks.md §17). Only the four pins are version-checked below.
python_packages="boto3==1.43.11 duckdb==1.4.2 moto[s3]==5.2.5 mcp==2.3.0"
server_packages="flask flask-cors"
# The list is split on spaces below: no pin may be taken for a file pattern ("[s3]").
set -f
installed() {
  [ -x "$venv/bin/moto_server" ] || return 1
  "$venv/bin/python" - "$@" <<'PY' 2>/dev/null
import importlib.metadata, sys
# The installed distribution's version: not every package has a __version__ (mcp has none).
import flask, flask_cors  # moto_server's
for pin in sys.argv[1:]:
    name, version = pin.split("==")
    if importlib.metadata.version(name.split("[")[0]) != version:
        sys.exit(1)
PY
}
# shellcheck disable=SC2086
if installed $python_packages; then
  echo "$python_packages already installed in $venv"
else
  command -v python3 >/dev/null || { echo "error: python3 is needed for the boto3, duckdb and S3 export tests (install python3 and python3-venv)" >&2; exit 2; }
  # uv installs them: pip took 30 s of CPU for this list with every wheel cached, uv 10 s with
  # none, byte-code compiled by both (docs/benchmarks.md §17.16). uv itself, pinned, comes from
  # PyPI with pip into a venv of its own under .cache; it uses this machine's python3, never a
  # Python of its own download.
  uv_venv="${UV_VENV_DIR:-$root/.cache/uv-venv}"
  uv_version="0.13.10"
  # `uv --version` prints "uv 0.13.10 (x86_64-unknown-linux-gnu)": the second word is the version.
  if [ "$("$uv_venv/bin/uv" --version 2>/dev/null | cut -d ' ' -f 2)" != "$uv_version" ]; then
    { [ -x "$uv_venv/bin/pip" ] || python3 -m venv "$uv_venv"; } || { echo "error: cannot create a Python venv in $uv_venv (install python3-venv)" >&2; exit 2; }
    "$uv_venv/bin/pip" install --quiet --disable-pip-version-check "uv==$uv_version"
  fi
  export UV_PYTHON_DOWNLOADS=never
  [ -x "$venv/bin/python" ] || "$uv_venv/bin/uv" venv --quiet --python "$(command -v python3)" "$venv" \
    || { echo "error: cannot create a Python venv in $venv" >&2; exit 2; }
  # With its byte-code: where PYTHONDONTWRITEBYTECODE is set (as on this project's machines),
  # without it every interpreter the tests start, moto_server's among them, would compile all it
  # imports, every time.
  # shellcheck disable=SC2086
  "$uv_venv/bin/uv" pip install --quiet --python "$venv/bin/python" --compile-bytecode \
    $python_packages $server_packages
  echo "$python_packages installed in $venv"
fi
dest="${CORPUS_NODE_DIR:-$root/.cache/corpus-node}"
lock="$root/tests/corpus/package-lock.json"
want="$(sha256sum "$lock" | cut -d ' ' -f 1)"
stamp="$dest/.installed-lock-sha256"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$dest/node_modules" ]; then
  echo "corpus tools already installed in $dest"
  exit 0
fi
command -v npm >/dev/null || { echo "error: npm is needed to install the corpus tools (install Node.js 20+ and npm)" >&2; exit 2; }
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null ||
  { echo "error: the corpus tools need Node.js 20+ (found: $(node --version 2>/dev/null || echo none))" >&2; exit 2; }
mkdir -p "$dest"
rm -f "$stamp"
cp "$root/tests/corpus/package.json" "$lock" "$dest"/
( cd "$dest" && npm ci --no-audit --no-fund --silent )
echo "$want" >"$stamp"
echo "corpus tools installed in $dest"
