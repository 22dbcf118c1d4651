"""main(): the command line of scripts/bench-compare.py and the run itself (serve, data,
probes, every case on every side, results.md, results.json and the plots)."""
import argparse
import datetime
import json
import os
import platform
import secrets
import signal
import subprocess
import sys
from pathlib import Path

from .cases import build_cases, probe
from .common import (BIN, CASES, LABELS, REGION, SEED_MISSING, TARGET, TARGET_AP1_OVER_404,
                     say)
from .data import load_seed, load_shop_sample, read_shop
from .plots import plots
from .report import fmt, markdown, shown, summarize
from .seed import run_seed
from .serve import Serve, http
from .tools import ensure_binary, ensure_python_packages, ensure_wrk
from .wrk import lua_bare_404, run_wrk


# ---------------------------------------------------------------------------------------------


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    """Shows defaults, except for flags and options without one."""

    def _get_help_string(self, action):
        if action.default in (None, False):
            return action.help
        return super()._get_help_string(action)


def main():
    parser = argparse.ArgumentParser(
        description="The shop's REST API against the seed tutorial's own boto3 functions and "
                    "against the engine alone, on one `monotable-shop serve` (issue 12). The module's "
                    "docstring says what each side does.",
        formatter_class=_Help)
    parser.add_argument("--seconds", type=int, default=5, help="measured seconds per case and side")
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured seconds before each")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--seed-procs", default="2,3,4",
                        help="worker processes calling the seed's functions (one boto3 resource "
                             "each); several counts, comma-separated, are each measured and the best "
                             "is reported")
    parser.add_argument("--orders", type=int, default=10_000, help="orders in each data set")
    parser.add_argument("--users", type=int, help="users; orders / 20 when not given")
    parser.add_argument("--products", type=int, default=500, help="products")
    parser.add_argument("--days", type=int, default=90, help="days the orders are spread over")
    parser.add_argument("--cases", default=",".join(k for k, _ in CASES),
                        help="which cases, comma-separated")
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every case this many times, report the median")
    parser.add_argument("--out", type=Path,
                        help="where results.md, results.json, the plots and serve.log go; "
                             "target/bench-compare when not given")
    parser.add_argument("--write-docs", action="store_true", help="also write the throughput SVG to docs/img/")
    parser.add_argument("--no-build", action="store_true", help="use the binary as it is")
    parser.add_argument("--bin", type=Path, metavar="PATH",
                        help="the monotable-shop binary to run (another build, say of the published "
                             "engine, for a before and after); implies --no-build. "
                             f"{shown(BIN)} when not given")
    parser.add_argument("--no-consumers", action="store_true",
                        help="serve without the shop's stream consumer (`serve --no-consumers`), so "
                             "its polls of the stream do not share the engine with the load")
    parser.add_argument("--no-seed", action="store_true",
                        help="leave the seed out (its data and its side): shop against the engine "
                             "alone only, for quicker runs")
    parser.add_argument("--perf", type=Path, metavar="DIR",
                        help="record serve with `perf record -F 999 --call-graph dwarf` during each case's measured "
                             "shop run, into DIR/<case>.perf.data (read it with `perf report -i`)")
    args = parser.parse_args()
    args.users = args.users or max(1, args.orders // 20)
    args.out = (args.out or TARGET / "bench-compare").resolve()
    if args.bin:
        args.bin, args.no_build = args.bin.resolve(), True
    else:
        args.bin = BIN
    wanted = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in wanted if c not in LABELS]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; choose from {','.join(LABELS)}")
    try:
        args.seed_procs = sorted({int(n) for n in args.seed_procs.split(",") if n.strip()})
    except ValueError:
        parser.error("--seed-procs takes process counts, e.g. 2,4")
    if (args.seconds < 1 or args.warmup < 0 or not args.seed_procs or min(args.seed_procs) < 1
            or args.rounds < 1):
        parser.error("--seconds, --seed-procs and --rounds must be positive")

    # SIGTERM/SIGHUP end the run like Ctrl-C, so the finally below stops serve.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, _f: sys.exit(128 + s))

    ensure_binary(args)
    ensure_wrk()
    ensure_python_packages()
    import boto3

    args.out.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_hex(32)
    load_start = os.getloadavg()
    serve = Serve(args.bin, args.out, secret, args.no_consumers)
    failures = []
    try:
        say(f"serve: {shown(args.bin)} serve --in-memory"
            f"{' --no-consumers' if args.no_consumers else ''} (DynamoDB {serve.dynamodb}, shop {serve.api})")
        os.environ.update({"AWS_ENDPOINT_URL_DYNAMODB": serve.dynamodb, "AWS_ACCESS_KEY_ID": "bench",
                           "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": REGION})
        for var in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL"):
            os.environ.pop(var, None)
        load_shop_sample(serve, args)
        client = boto3.client("dynamodb", region_name=REGION)
        shop = read_shop(client)
        say(f"  read back: {len(shop['users'])} users, {len(shop['products'])} products, "
            f"{len(shop['orders'])} orders, {len(shop['lines'])} order lines ({shop['items']} items "
            "with the email guards)")
        seed_items = None if args.no_seed else load_seed(shop)
        built = build_cases(shop, secret, args.out, serve)
        for key, why in built["skipped"].items():
            if key in wanted:
                say(f"skipped {LABELS[key]}: {why}")
                wanted.remove(key)
        problems = probe(serve, built, shop)
        if problems:
            raise RuntimeError("a request does not answer what it should:\n  " + "\n  ".join(problems))
        say("probes: every case's shop and engine request answers 2xx with the data expected")
        work = built["work"]

        rounds = []
        for n in range(args.rounds):
            results = {}
            for key in wanted:
                serve.check_alive()
                result = {}
                if key not in SEED_MISSING and not args.no_seed:
                    result["seed"] = run_seed(key, built["keys"], args)
                    if result["seed"]["misses"]:
                        failures.append(f"{LABELS[key]}, seed: {result['seed']['misses']} of "
                                        f"{result['seed']['calls']} calls found nothing")
                for side, url in (("shop", serve.api), ("engine", serve.dynamodb)):
                    # The engine alone reads a sharded page as one Query per shard.
                    per = built["cases"].get(key, {}).get("shards", 1) if side == "engine" else 1
                    if args.warmup > 0:
                        run_wrk(url, work / f"{key}-{side}.lua", args, args.warmup, per)
                    recording = perf_record(args, serve, key) if side == "shop" else None
                    try:
                        r = run_wrk(url, work / f"{key}-{side}.lua", args, args.seconds, per, serve)
                    finally:
                        perf_stop(recording)
                    if r["non2xx"] or r["socket_errors"]:
                        failures.append(f"{LABELS[key]}, {side}: {r['non2xx']} non-2xx answers, "
                                        f"{r['socket_errors']} socket errors of {r['requests']}")
                    result[side] = r
                results[key] = result
                seed = result.get("seed")
                if seed:
                    tried = ", ".join(f"{k} procs {fmt(v)}" for k, v in seed["tried"].items())
                    seed_text = f"{fmt(seed['ops_s'])} ({tried}"
                    seed_text += f"; {seed['misses']} found nothing)" if seed["misses"] else ")"
                else:
                    seed_text = "n/a"
                say(f"[{n + 1}/{args.rounds}] {LABELS[key]}: shop {fmt(result['shop']['req_s'])}/s, "
                    f"engine alone {fmt(result['engine']['req_s'])}/s "
                    f"({result['shop']['req_s'] / result['engine']['req_s']:.2f}×; serve CPU "
                    f"{fmt(result['shop']['cpu_us'], 1)} / {fmt(result['engine']['cpu_us'], 1)} µs "
                    f"per request), seed {seed_text}")
            if "ap1" in wanted:
                results["bare404"] = bare_404(serve, work, args, failures)
                say(f"[{n + 1}/{args.rounds}] bare 404 (no route, no token, no engine): "
                    f"{fmt(results['bare404']['req_s'])}/s, serve CPU "
                    f"{fmt(results['bare404']['cpu_us'], 1)} µs per request")
            rounds.append(results)

        ceiling = ap1_against_404(rounds)
        shards = built["shards"]
        rows = summarize([{k: v for k, v in r.items() if k != "bare404"} for r in rounds], shards)
        meta = {
            "date": datetime.date.today().isoformat(),
            "command": "python3 scripts/bench-compare.py " + " ".join(sys.argv[1:]),
            "binary": shown(args.bin),
            "seconds": args.seconds, "warmup": args.warmup, "rounds": args.rounds,
            "connections": args.connections, "wrk_threads": args.threads,
            "seed_processes": args.seed_procs, "cpus": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_start],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(), "boto3": boto3.__version__,
            "data": {"users": len(shop["users"]), "products": len(shop["products"]),
                     "orders": len(shop["orders"]), "order_lines": len(shop["lines"]),
                     "shop_items": shop["items"], "seed_items": seed_items, "days": args.days},
            "serve_rss_mib": serve.rss_mib(),
            "order_shards": shards,
        }
        table = markdown(rows, meta)
        if ceiling:
            meta["ap1_over_bare_404"] = ceiling
            table += "\n\n" + ceiling["text"]
        d = meta["data"]
        header = (
            f"`{meta['command'].strip()}`, {meta['date']}, {meta['cpus']} CPUs, "
            f"{args.seconds} s per case and side after {args.warmup} s warm-up"
            f"{f', median of {args.rounds} rounds' if args.rounds > 1 else ''}; "
            f"{d['users']:,} users, {d['products']:,} products, {d['orders']:,} orders, "
            f"{d['order_lines']:,} lines in each table; {shards} write shard"
            f"{'' if shards == 1 else 's'} per order status and day; wrk {args.threads} threads, "
            f"{args.connections} connections; "
            f"load average {meta['load_average_before'][0]} before, "
            f"{meta['load_average_after'][0]} after.")
        (args.out / "results.md").write_text(header + "\n\n" + table + "\n")
        summary = json.dumps({"meta": meta, "cases": rows}, indent=2, default=str)
        (args.out / "results.json").write_text(summary + "\n")
        written = plots(rows, args.out, args.write_docs)
        say()
        say(header)
        say()
        say(table)
        say()
        say("written: " + ", ".join(shown(p) for p in
                                    [args.out / "results.md", args.out / "results.json"] + written))
        missed = [f"{r['label']} ({r['shop_over_engine']:.2f}× < {r['target']}×)"
                  for r in rows if r["met"] is False]
        if ceiling and not ceiling["met"]:
            missed.append(f"AP1 against the bare 404 ({100 * ceiling['share']:.0f} % < "
                          f"{100 * TARGET_AP1_OVER_404:.0f} %)")
        if missed:
            say(f"targets missed: {'; '.join(missed)}")
    finally:
        serve.stop()
    if failures:
        say("\nFAILED: requests that did not answer 2xx (the probes above show what these requests "
            "should answer):\n  " + "\n  ".join(failures))
        return 1
    return 0


def perf_record(args, serve, key):
    """`perf record` of serve into --perf DIR while a case's shop side is measured, or None."""
    if not args.perf:
        return None
    args.perf.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(["perf", "record", "-F", "999", "--call-graph", "dwarf,32768",
                             "-p", str(serve.proc.pid), "-o", str(args.perf / f"{key}.perf.data")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def perf_stop(recording):
    if recording is not None:
        recording.send_signal(signal.SIGINT)
        recording.wait(timeout=120)


def bare_404(serve, work, args, failures):
    """The shop API's throughput on a path that matches no route: every answer must be a 404."""
    status, answer = http("GET", serve.api + "/bench-compare-no-such-route")
    if status != 404:
        raise RuntimeError(f"a path that matches no route answered {status}, not 404: {answer}")
    script = work / "bare-404.lua"
    script.write_text(lua_bare_404())
    if args.warmup > 0:
        run_wrk(serve.api, script, args, args.warmup)
    r = run_wrk(serve.api, script, args, args.seconds, serve=serve)
    if r["non2xx"] != r["requests"] or r["socket_errors"]:
        failures.append(f"bare 404: {r['requests'] - r['non2xx']} answers that were not errors, "
                        f"{r['socket_errors']} socket errors of {r['requests']}")
    return r


def ap1_against_404(rounds):
    """AP1's rate as a share of the bare 404's, the median over rounds, against its target."""
    pairs = [(r["ap1"]["shop"], r["bare404"]) for r in rounds if "bare404" in r and "ap1" in r]
    if not pairs:
        return None
    ap1, bare = sorted(pairs, key=lambda p: p[0]["req_s"] / p[1]["req_s"])[len(pairs) // 2]
    share = ap1["req_s"] / bare["req_s"]
    met = "met" if share >= TARGET_AP1_OVER_404 else "**missed**"
    text = (f"GET /users/{{id}} (AP1) against the same server's bare 404 (a path that matches no "
            f"route: no token, no engine): {fmt(ap1['req_s'])} against {fmt(bare['req_s'])} req/s, "
            f"{100 * share:.0f} % (target ≥ {100 * TARGET_AP1_OVER_404:.0f} %: {met})")
    if ap1.get("cpu_us") and bare.get("cpu_us"):
        text += (f"; serve's CPU per request {fmt(ap1['cpu_us'])} µs against "
                 f"{fmt(bare['cpu_us'])} µs")
    return {"share": share, "ap1_req_s": ap1["req_s"], "bare_404_req_s": bare["req_s"],
            "ap1_cpu_us": ap1.get("cpu_us"), "bare_404_cpu_us": bare.get("cpu_us"),
            "target": TARGET_AP1_OVER_404, "met": share >= TARGET_AP1_OVER_404, "text": text + "."}
