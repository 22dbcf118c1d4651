#!/usr/bin/env python3
"""Measure `monotable-shop serve` start-up (the shop beside the DynamoDB endpoint): time from
exec to the 'ready' line, and idle RSS.

Usage: cargo build --release -p monotable-shop-server && python3 scripts/bench-serve.py [--runs N]
Starts the release binary N times (default 20) on a fresh data directory and a free port,
prints min/median/max start-up time and the resident set size after one second idle.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

BIN = os.path.join(os.path.dirname(__file__), "..", "target", "release", "monotable-shop")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def one_run(data_dir):
    start = time.perf_counter()
    proc = subprocess.Popen([BIN, "serve", "--data-dir", data_dir, "--dynamodb-port", "0",
                             "--api-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for line in proc.stdout:
        if line.startswith("ready in"):
            break
    ready = time.perf_counter() - start
    time.sleep(1.0)
    rss = rss_kib(proc.pid)
    proc.terminate()
    proc.wait(timeout=10)
    return ready, rss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    readies, rsses = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            ready, rss = one_run(os.path.join(tmp, "data"))
        readies.append(ready * 1000)
        rsses.append(rss / 1024)
    print(f"runs: {args.runs} (fresh data directory each)")
    print(f"exec to 'ready': min {min(readies):.1f} ms, median {statistics.median(readies):.1f} ms, "
          f"max {max(readies):.1f} ms")
    print(f"idle RSS after 1 s: min {min(rsses):.1f} MiB, median {statistics.median(rsses):.1f} MiB, "
          f"max {max(rsses):.1f} MiB")


if __name__ == "__main__":
    main()
