#!/usr/bin/env bash
# The project's test command (README.md): installs the Python test tools, then checks formatting,
# lints and runs every test. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r requirements-dev.txt
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
# The shop's suite again with DynamoDB's throughput rules applied (docs/capacity.md): at real
# limits its tests must neither be throttled nor see a single answer change.
MONOTABLE_CAPACITY=1 cargo test -p monotable-shop --locked
