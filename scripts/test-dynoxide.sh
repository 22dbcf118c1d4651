#!/usr/bin/env bash
# dynoxide's own unit tests and its item, query and index suites, run against the vendored engine
# with our patches (vendor/README.md), so that a patch that changes what the engine answers fails
# here as it would upstream. scripts/test.sh runs it; alone: `bash scripts/test-dynoxide.sh`.
#
# The crate is not a workspace member: it builds from its own lock file (crates from the registry
# only) into a target directory of its own under target/, deleted once the suites pass, because
# each test binary links about 100 MB and CI's disk is tight. Its dev-dependencies (the AWS SDK,
# reqwest) are built for it alone. Measured from nothing on 2 cores: 2 min 17 s to build and run
# its 17 test binaries (1,044 tests) with little else running, about 4 min 30 s beside other
# builds; 2.8 GB at its largest, nothing after.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="target/dynoxide-tests"
# The library suites for items, queries, scans and indexes, and for the stream and TTL the
# series also patches (none needs the HTTP server), and repeated_work_counts, which counts the
# work a read repeats (the `bench-counters` feature).
suites=(
  item_operations batch_operations transactions update_clauses_read_the_original_item
  query_scan query_start_key_and_key_conditions parallel_scan read_capacity_on_evaluated_bytes
  gsi lsi multi_attribute_keys index_consumed_capacity item_size_accounting repeated_work_counts
  streams ttl
)
args=()
for suite in "${suites[@]}"; do args+=(--test "$suite"); done
CARGO_TARGET_DIR="$dir" cargo test --manifest-path vendor/dynoxide-rs/Cargo.toml --locked \
  --no-default-features --features native-sqlite,bench-counters --lib "${args[@]}"
rm -rf "$dir"
