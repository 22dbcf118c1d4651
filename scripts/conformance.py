#!/usr/bin/env python3
"""The DynamoDB conformance suite that dynoxide's authors publish (nubo-db/dynamodb-conformance)
run through `monotable serve`: how many of its cases the embedded engine answers as DynamoDB
does (docs/serve.md, "Conformance").

Usage (a manual tool: CI has no copy of the suite, so scripts/test.sh does not run it):

    # SUITE: a checkout of nubo-db/dynamodb-conformance (GitHub), with `npm ci` run in it
    cargo build --release -p monotable-cli
    python3 scripts/conformance.py SUITE                      # in memory
    python3 scripts/conformance.py SUITE --data-dir           # on a fresh data directory
    python3 scripts/conformance.py SUITE --bin PATH --json before.json
    python3 scripts/conformance.py SUITE --baseline before.json   # exits 1 on a regression

Starts `monotable serve` on 127.0.0.1 on a port the OS picks (in memory, or on a data directory
of its own, deleted after), runs the whole suite against it (`vitest run` with its JSON
reporter, DYNAMODB_ENDPOINT set; the suite's own client picks it up), stops serve, and prints
passed / failed / total and every failure with the first line of its message, by file. With
--baseline (an earlier --json), it also lists every case that passed there and fails here, and
exits 1 when there is one. Exits 2 when the suite could not run (no node_modules, no binary,
serve did not start or died).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
BIN = TARGET / "release" / "monotable"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", type=Path, help="a checkout of the suite, with `npm ci` run in it")
    parser.add_argument("--bin", type=Path, default=BIN, help=f"the monotable binary (default {BIN})")
    parser.add_argument("--data-dir", action="store_true",
                        help="serve a fresh data directory instead of --in-memory")
    parser.add_argument("--json", type=Path, metavar="FILE", help="keep vitest's JSON report here")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="an earlier --json report: list the cases that passed there and fail here")
    args = parser.parse_args()
    suite = args.suite.resolve()
    if not (suite / "package.json").is_file() or not (suite / "node_modules" / "vitest").is_dir():
        die(f"{suite}: not a checkout of the suite with its packages installed (run npm ci there)")
    if not args.bin.is_file():
        die(f"no binary at {args.bin}; run cargo build --release -p monotable-cli")
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, _f: sys.exit(128 + s))

    with tempfile.TemporaryDirectory(prefix="monotable-conformance-") as tmp:
        tmp = Path(tmp)
        report = Path(args.json).resolve() if args.json else tmp / "report.json"
        serve, url = start_serve(args.bin, tmp, args.data_dir)
        try:
            print(f"serve: {args.bin} serve {'--data-dir' if args.data_dir else '--in-memory'} at {url}",
                  flush=True)
            started = time.monotonic()
            vitest(suite, url, report)
            seconds = time.monotonic() - started
            if serve.poll() is not None:
                sys.stderr.write((tmp / "serve.log").read_text())
                print(f"serve died during the run (exit {serve.returncode})", file=sys.stderr)
                return 2
        finally:
            stop(serve)
        if not report.is_file():
            print("vitest wrote no report: the suite did not run", file=sys.stderr)
            return 2
        cases = read_report(report)
    summarize(cases, seconds)
    if args.baseline:
        return regressions(read_report(args.baseline), cases)
    return 0


def die(message):
    """The suite could not run: say why, exit 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def start_serve(binary, tmp, data_dir):
    """`monotable serve` on 127.0.0.1 and a free port, its banner read for the endpoint's URL."""
    storage = ["--data-dir", str(tmp / "data")] if data_dir else ["--in-memory"]
    log = open(tmp / "serve.log", "w")
    proc = subprocess.Popen([str(binary), "serve", *storage, "--host", "127.0.0.1",
                             "--dynamodb-port", "0"],
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        text = (tmp / "serve.log").read_text()
        if "ready in" in text:
            return proc, re.search(r"^\s*dynamodb\s+(http://\S+)", text, re.M).group(1)
        if proc.poll() is not None:
            die(f"serve exited with {proc.returncode}:\n{text}")
        time.sleep(0.05)
    stop(proc)
    die(f"serve did not say 'ready' within 30 s:\n{(tmp / 'serve.log').read_text()}")


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def vitest(suite, url, report):
    """The whole suite against `url`; the suite's client reads DYNAMODB_ENDPOINT and these
    credentials (any are accepted: serve runs without --auth)."""
    env = dict(os.environ, DYNAMODB_ENDPOINT=url, AWS_REGION="us-east-1",
               AWS_ACCESS_KEY_ID="conformance", AWS_SECRET_ACCESS_KEY="conformance")
    env.pop("AWS_SESSION_TOKEN", None)
    subprocess.run(["npx", "vitest", "run", "--reporter=json", f"--outputFile={report}"],
                   cwd=suite, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_report(path):
    """{(file relative to tests/, full name): (status, first line of the failure)}."""
    data = json.loads(Path(path).read_text())
    cases = {}
    for file in data["testResults"]:
        name = file["name"]
        name = name[name.index("tests/") + len("tests/"):] if "tests/" in name else name
        for case in file["assertionResults"]:
            message = next(iter(case.get("failureMessages") or []), "")
            first = message.strip().splitlines()[0] if message.strip() else ""
            cases[(name, case["fullName"])] = (case["status"], first)
        if not file["assertionResults"] and file.get("status") == "failed":
            # A file that failed to load or whose beforeAll threw has no cases of its own.
            cases[(name, "(the file itself)")] = ("failed", (file.get("message") or "").strip()[:200])
    return cases


def summarize(cases, seconds):
    counts = defaultdict(int)
    for status, _ in cases.values():
        counts[status] += 1
    other = {k: v for k, v in counts.items() if k not in ("passed", "failed")}
    extra = "".join(f", {v} {k}" for k, v in sorted(other.items()))
    print(f"passed {counts['passed']}, failed {counts['failed']}{extra}, total {len(cases)} "
          f"({seconds:.0f} s)")
    failed = defaultdict(list)
    for (file, name), (status, first) in sorted(cases.items()):
        if status == "failed":
            failed[file].append((name, first))
    for file, rows in failed.items():
        print(f"\n{file}")
        for name, first in rows:
            print(f"  ✗ {name}\n      {first}")


def regressions(baseline, cases):
    lost = sorted(k for k, (status, _) in baseline.items()
                  if status == "passed" and cases.get(k, ("missing", ""))[0] != "passed")
    gained = sorted(k for k, (status, _) in cases.items()
                    if status == "passed" and baseline.get(k, ("missing", ""))[0] != "passed")
    print(f"\nagainst the baseline: {len(lost)} case(s) passed there and fail here, "
          f"{len(gained)} pass here and did not there")
    for file, name in lost:
        print(f"  regression: {file}: {name}\n      {cases.get((file, name), ('missing', ''))[1]}")
    for file, name in gained:
        print(f"  now passes: {file}: {name}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
