"""The report: the median over rounds per case, each case's shop / engine-alone ratio against its
target, the markdown table, number formatting and paths shown relative to the checkout."""
import statistics

from .common import CASES, LABELS, ROOT, SEED_MISSING, SHARDED, target


# ---------------------------------------------------------------------------------------------
# Report.


def fmt(x, digits=0):
    return "—" if x is None else f"{x:,.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def summarize(rounds, shards):
    """Median over rounds of each side's throughput, per case, and its shop / engine-alone ratio
    against the case's target (`shards`: the orders' write shards)."""
    rows = []
    for key, label in CASES:
        per = [r[key] for r in rounds if key in r]
        if not per:
            continue
        def med(side, field, per=per):
            values = [p[side][field] for p in per if p.get(side) and p[side].get(field) is not None]
            return statistics.median(values) if values else None

        row = {
            "case": key, "label": label,
            "seed_ops_s": med("seed", "ops_s"), "shop_req_s": med("shop", "req_s"),
            "engine_req_s": med("engine", "req_s"),
            "shop_p50_ms": med("shop", "p50_us") / 1000, "shop_p99_ms": med("shop", "p99_us") / 1000,
            "engine_p50_ms": med("engine", "p50_us") / 1000,
            # serve's CPU time per request (per page for a fanned-out engine side).
            "shop_cpu_us": med("shop", "cpu_us"), "engine_cpu_us": med("engine", "cpu_us"),
            "seed_processes": "/".join(sorted({str(p["seed"]["processes"])
                                               for p in per if p.get("seed")})),
            "seed_note": SEED_MISSING.get(key),
            "rounds": [{s: p.get(s) for s in ("seed", "shop", "engine")} for p in per],
        }
        row["shop_over_seed"] = ratio(row["shop_req_s"], row["seed_ops_s"])
        # The headline: the shop's share of what the engine alone serves on the same requests.
        row["shop_over_engine"] = ratio(row["shop_req_s"], row["engine_req_s"])
        # What any server over this engine could reach against the seed here: the ceiling.
        row["engine_over_seed"] = ratio(row["engine_req_s"], row["seed_ops_s"])
        row["fan_out"] = key in SHARDED and shards > 1
        row["engine_queries_per_page"] = shards if key in SHARDED else 1
        row["target"] = target(key, shards)
        row["met"] = None if row["shop_over_engine"] is None else row["shop_over_engine"] >= row["target"]
        rows.append(row)
    return rows


def markdown(rows, meta):
    counts = [str(n) for n in meta["seed_processes"]]
    procs = (f"{counts[0]} processes" if len(counts) == 1
             else "best of " + ", ".join(counts[:-1]) + " or " + counts[-1] + " processes")
    lines = [
        f"| case | shop req/s ({meta['connections']} conns) | engine alone req/s | "
        "shop / engine alone | target | met | serve CPU µs per request, shop / engine alone | "
        "shop p50 / p99 ms | "
        f"seed calls/s ({procs}) | shop / seed | engine / seed |",
        "|---|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        met = "n/a" if r["met"] is None else ("yes" if r["met"] else "**no**")
        seed = ("n/a¹" if r["seed_note"] else "—" if r["seed_ops_s"] is None
                else f"{fmt(r['seed_ops_s'])} ({r['seed_processes']})")
        so = "—" if r["shop_over_seed"] is None else f"{r['shop_over_seed']:.1f}×"
        se = "—" if r["shop_over_engine"] is None else f"{r['shop_over_engine']:.2f}×"
        es = "—" if r["engine_over_seed"] is None else f"{r['engine_over_seed']:.1f}×"
        engine = fmt(r["engine_req_s"])
        if r["engine_queries_per_page"] > 1:
            engine += f" (pages of {r['engine_queries_per_page']} Queries)"
        lines.append(f"| {r['label']} | {fmt(r['shop_req_s'])} | {engine} | {se} | "
                     f"≥ {r['target']}× | {met} | {fmt(r['shop_cpu_us'])} / {fmt(r['engine_cpu_us'])} | "
                     f"{r['shop_p50_ms']:.2f} / {r['shop_p99_ms']:.2f} | "
                     f"{seed} | {so} | {es} |")
    if any(r["seed_note"] for r in rows):
        lines.append("")
        lines.append("¹ " + "; ".join(f"{LABELS[r['case']]}: {r['seed_note']}"
                                      for r in rows if r["seed_note"]) + ".")
    return "\n".join(lines)


def shown(path):
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)
