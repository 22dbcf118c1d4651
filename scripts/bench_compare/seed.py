"""The seed side: the seed's own boto3 functions in a tight loop, in worker processes
(spawned, so this module is what each worker imports)."""
import json
import random
import sys
import time
import uuid
from pathlib import Path

from .common import PAGE, SEED_DIR


# ---------------------------------------------------------------------------------------------
# The seed side: its own functions in a loop, in worker processes.


class _PagedTable:
    """seed_app.table for the benchmark: every Query asks for Limit=20, as the seed's pagination
    FAQ (seed_variants.query_user_page) does; the seed's functions themselves are unchanged."""

    def __init__(self, table, limit):
        self._table = table
        self._limit = limit

    def query(self, **kwargs):
        return self._table.query(Limit=self._limit, **kwargs)

    def __getattr__(self, name):
        return getattr(self._table, name)


def _seed_op(case, app, rng, keys):
    """One call of the seed's function for `case`; True when it found what it should."""
    if case == "ap1":
        return app.get_user(rng.choice(keys["users"])) is not None
    if case == "ap2":
        return len(app.get_user_orders(rng.choice(keys["users"]))) > 0
    if case == "ap3":
        # The seed's defect: the order itself lives under USER#..., so only its items come back.
        return len(app.get_order_with_items(rng.choice(keys["orders"]))["items"]) > 0
    if case == "ap5":
        return len(app.get_orders_by_status(rng.choice(keys["statuses"]))) == PAGE
    if case == "ap7":
        # The seed lists AP7 but gives no function for it; this is its get_user for products.
        product_id = rng.choice(keys["products"])
        key = {"PK": f"PRODUCT#{product_id}", "SK": "DETAILS"}
        return app.table.get_item(Key=key).get("Item") is not None
    if case == "ap8":
        return len(app.get_products_by_category(rng.choice(keys["categories"]))) > 0
    if case == "order":
        from decimal import Decimal

        user = rng.choice(keys["users"])
        chosen = rng.sample(keys["order_products"], rng.randint(1, 5))
        items = [{"id": str(n), "product_id": p["id"], "quantity": rng.randint(1, 4),
                  "price": Decimal(p["price"])} for n, p in enumerate(chosen, 1)]
        total = sum(i["price"] * i["quantity"] for i in items)
        app.create_order_with_items(user, uuid.uuid4().hex, items, total)
        return True
    raise ValueError(case)


def seed_worker(case, keys_file, index, seconds, warmup, barrier, results):
    import warnings

    warnings.filterwarnings("ignore", category=DeprecationWarning)
    try:
        sys.path.insert(0, str(SEED_DIR))
        import seed_app as app

        app.table = _PagedTable(app.table, PAGE)
        keys = json.loads(Path(keys_file).read_text())
        rng = random.Random(1000 + index)
        warm_until = time.perf_counter() + warmup
        while time.perf_counter() < warm_until:
            _seed_op(case, app, rng, keys)
        barrier.wait(timeout=120)
        calls = misses = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            calls += 1
            misses += not _seed_op(case, app, rng, keys)
            if time.perf_counter() >= deadline:
                break
        results.put((index, calls, misses, time.perf_counter() - start, None))
    except BaseException as e:  # noqa: BLE001 - reported to the parent
        barrier.abort()
        results.put((index, 0, 0, 0.0, f"{type(e).__name__}: {e}"))


def run_seed(case, keys_file, args):
    """The best total calls/s over the process counts of --seed-procs."""
    runs = [run_seed_procs(case, keys_file, args, n) for n in args.seed_procs]
    best = max(runs, key=lambda r: r["ops_s"])
    best["tried"] = {r["processes"]: round(r["ops_s"], 1) for r in runs}
    return best


def run_seed_procs(case, keys_file, args, nprocs):
    import multiprocessing
    import queue as queue_module

    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(nprocs)
    results = ctx.Queue()
    procs = [ctx.Process(target=seed_worker, daemon=True,
                         args=(case, str(keys_file), i, args.seconds, args.warmup, barrier, results))
             for i in range(nprocs)]
    for p in procs:
        p.start()
    got = []
    try:
        deadline = time.monotonic() + args.seconds + args.warmup + 180
        while len(got) < len(procs):
            try:
                got.append(results.get(timeout=max(1.0, deadline - time.monotonic())))
            except queue_module.Empty:
                raise RuntimeError(f"seed workers for {case} did not finish in time")
    finally:
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
                p.join()
    errors = [g[4] for g in got if g[4]]
    if errors:
        raise RuntimeError(f"a seed worker failed on {case}: {errors[0]}")
    calls = sum(g[1] for g in got)
    return {
        "ops_s": sum(g[1] / g[3] for g in got),
        "calls": calls,
        "misses": sum(g[2] for g in got),
        "processes": nprocs,
    }
