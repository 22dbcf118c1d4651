#!/usr/bin/env python3
"""The seed's design against the shop's at the same traffic, under capacity emulation
(issue 13): `monotable load` on both, for each capacity scale, then one table.

Usage (from a clean checkout; builds the release binary when needed):

    python3 scripts/load-compare.py                         # scales 1 4 6 8, 15 s each
    python3 scripts/load-compare.py --scales 1 6 --seconds 5
    python3 scripts/load-compare.py --write-docs            # also the plots in docs/img/

Both designs run the shop's traffic: the shop from its own [traffic], the seed
(examples/seed-original/model.toml) through --traffic examples/seed-original/shop-traffic.toml,
which gives the seed's pattern names the shop's rates. `--capacity-scale X` divides DynamoDB's
limits by X. A partition's limits are linear, so that is the shop's traffic times X against
DynamoDB's own limits, which two cores cannot drive.

The table has one row per design and scale: the streams short of their target (achieved share),
throttled requests after the SDK's retries, the emulator's throttled attempts, and where. It
prints markdown; docs/capacity.md holds a copy.
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "release" / "monotable"
DESIGNS = {
    "seed": ["examples/seed-original/model.toml", "--traffic",
             "examples/seed-original/shop-traffic.toml"],
    "shop": ["examples/shop/shop.toml"],
}


def run(design, scale, seconds, plot):
    command = [str(BINARY), "load", *DESIGNS[design], "--duration", f"{seconds}s",
               "--capacity-scale", str(scale), "--quiet", "--format", "json"]
    if plot:
        command += ["--plot", str(plot)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr}")
    return json.loads(done.stdout)


def where(stream):
    hot = stream["hot_partitions"]
    if not hot:
        return ""
    return f"{hot[0]['index'] or 'table'} `{hot[0]['key']}`"


def row(design, scale, report):
    short, throttled, attempts, places = [], 0, 0, []
    for s in report["streams"]:
        throttled += s["throttled"]
        attempts += s["emulator_throttled_attempts"]
        share = s["achieved_per_second"] / s["target_per_second"]
        if s["emulator_throttled_attempts"] or s["throttled"]:
            places.append(f"{s['name']}: {where(s)}")
        if s["shortfall"] > 0.001:
            note = " (fails: " + s["first_error"].split(":")[0] + ")" if s["first_error"] else ""
            short.append(f"{s['name']} {share:.0%}{note}")
    verdict = "carries it" if report["passed"] else "**short**"
    return (f"| {design} | {scale}× | {verdict} | {', '.join(short) or '—'} | {throttled} | "
            f"{attempts} | {'; '.join(sorted(set(places))) or '—'} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1, 4, 6, 8])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--plot-scale", type=float, default=6)
    args = parser.parse_args()
    if not BINARY.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "monotable-cli"], cwd=ROOT,
                       check=True)
    print("| design | traffic × | verdict | short of target | throttled after retries | "
          "throttled attempts | where |")
    print("|---|---:|---|---|---:|---:|---|")
    for scale in args.scales:
        label = f"{scale:g}"
        for design in DESIGNS:
            plot = None
            if args.write_docs and scale == args.plot_scale:
                plot = ROOT / "docs" / "img" / f"load-{design}-x{label}.svg"
            print(row(design, label, run(design, label, args.seconds, plot)), flush=True)


if __name__ == "__main__":
    main()
