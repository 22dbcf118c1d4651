#!/usr/bin/env bash
# The project's test command (README.md): installs the Python test tools, then checks formatting,
# lints and runs every test. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r requirements-dev.txt
# Debian's Chromium for the browser tests (crates/cli/tests/it/ui_browser.rs), `patch` for the
# vendored engine's check (scripts/vendor-dynoxide.sh), and Node.js with npm for the MCP Inspector
# (below), when missing.
missing=""
command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
command -v patch >/dev/null 2>&1 || missing="$missing patch"
command -v npm >/dev/null 2>&1 || missing="$missing nodejs npm"
if [ -n "$missing" ]; then
  sudo_if_needed=""
  if [ "$(id -u)" != 0 ]; then sudo_if_needed="sudo"; fi
  $sudo_if_needed apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $sudo_if_needed apt-get install -y -qq $missing >/dev/null
fi
# The MCP Inspector's CLI mode, a second MCP client for the server's tests
# (crates/cli/tests/it/mcp_inspector.rs), at the version scripts/mcp-inspector/package-lock.json
# pins; installed again when the lock file changed since.
inspector=scripts/mcp-inspector
if ! cmp -s "$inspector/package-lock.json" "$inspector/node_modules/.installed-lock.json"; then
  (cd "$inspector" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$inspector/package-lock.json" "$inspector/node_modules/.installed-lock.json"
fi
cargo fmt --all -- --check
# Each crate's top-level modules depend one way (the cycles it lists are to be removed).
python3 scripts/module-cycles.py --self-test
python3 scripts/module-cycles.py
# The vendored engine is the pinned release plus vendor/patches, byte for byte (vendor/README.md).
bash scripts/vendor-dynoxide.sh --check
# ... and still passes dynoxide's own unit tests and item, query and index suites.
bash scripts/test-dynoxide.sh
# The plots in docs/benchmarks.md are drawn from its tables: a stale plot fails here.
python3 scripts/bench-plots.py --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# connect builds with no feature (an app on AWS), each feature alone and all together; the facade
# without its default `engine` (docs/architecture.md, "The connection layer's features").
cargo clippy -p monotable-connect --no-default-features --locked -- -D warnings
for feature in streams engine serve capacity bench faults; do
  cargo clippy -p monotable-connect --no-default-features --features "$feature" --locked -- -D warnings
done
cargo clippy -p monotable-connect --all-features --all-targets --locked -- -D warnings
cargo clippy -p monotable --no-default-features --locked -- -D warnings
# The stream runner without the engine (an app delivering from an endpoint).
cargo clippy -p monotable --no-default-features --features streams --locked -- -D warnings
cargo test --workspace --locked
# The shop's suite again with DynamoDB's throughput rules applied (docs/capacity.md): at real
# limits its tests must neither be throttled nor see a single answer change.
MONOTABLE_CAPACITY=1 cargo test -p monotable-shop --locked
