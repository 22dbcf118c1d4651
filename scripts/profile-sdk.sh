#!/usr/bin/env bash
# Flame graphs of one SDK call through the in-process connector: a GetItem and a 20-item Query,
# keys drawn across the data set (crates/connect/benches/sdk_call.rs), sampled by `perf`.
#
#   bash scripts/profile-sdk.sh    # docs/img/flame-sdk-get.svg and flame-sdk-query.svg, and a table
#                                  # of where the time goes, for the shipped client and the SDK's
#                                  # default per-call components (SDK_CALL_SECONDS per run, default 6)
#
# Installs what it needs: perf (Debian's linux-perf) and inferno (cargo install) to draw the SVGs.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_OP="${SDK_CALL_SECONDS:-6}"
OUT="${PROFILE_OUT:-docs/img}"
WORK="target/profile"

if ! command -v perf >/dev/null; then
    apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null
fi
if ! command -v inferno-flamegraph >/dev/null; then
    cargo install --locked --quiet inferno
fi

# Line tables for the call graph; the bench profile is release otherwise.
export CARGO_PROFILE_BENCH_DEBUG=line-tables-only
cargo bench -p monotable-connect --bench sdk_call --no-run --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "sdk_call" and m.get("executable"):
        print(m["executable"])' > "$WORK.bin" 2>/dev/null || true
mkdir -p "$WORK" "$OUT"
BIN="$(tail -1 "$WORK.bin")"
[ -x "$BIN" ] || { echo "profile-sdk: the sdk_call bench did not build" >&2; exit 1; }

# Both clients are profiled, so the breakdown shows what the trimming saved; the flame graphs
# are drawn for the in-process client as it ships (`tuned`).
for client in default tuned; do
    for op in get query; do
        data="$WORK/$op-$client.data"
        SDK_CALL_OP=$op SDK_CALL_SECONDS=$SECONDS_PER_OP SDK_CALL_CLIENT=$client \
            perf record -q -e cpu-clock -F 1000 --call-graph dwarf,65528 -o "$data" -- "$BIN" --bench
        # Only the loop of calls: the bench's main, without its data load.
        perf script -i "$data" 2>/dev/null | inferno-collapse-perf \
            | grep 'sdk_call::main' | grep -v 'sdk_call::data' > "$WORK/$op-$client.folded"
        rm -f "$data"
        if [ "$client" = tuned ]; then
            inferno-flamegraph --title "SDK $op through the in-process connector" --width 1400 \
                --countname "ns of CPU" \
                --minwidth 0.3 --hash < "$WORK/$op-$client.folded" > "$OUT/flame-sdk-$op.svg"
            echo "wrote $OUT/flame-sdk-$op.svg"
        fi
    done
done
python3 scripts/profile-breakdown.py "$WORK"/get-default.folded "$WORK"/get-tuned.folded \
    "$WORK"/query-default.folded "$WORK"/query-tuned.folded
