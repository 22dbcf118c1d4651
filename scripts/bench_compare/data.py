"""The data: the shop's sample loaded and read back, the same entities written into the
seed's table by the seed's own put_* functions."""
import subprocess
import sys
import time

from .common import SEED_DIR, say


# ---------------------------------------------------------------------------------------------
# Data: the shop's sample, read back; the same entities written in the seed's layout.


def scalar(av):
    (kind, value), = av.items()
    return value


def load_shop_sample(serve, args):
    cmd = [str(args.bin), "load-sample", "--endpoint", serve.dynamodb, "--orders", str(args.orders),
           "--users", str(args.users), "--products", str(args.products), "--days", str(args.days),
           "--seed", "1", "--quiet"]
    say(f"shop data: monotable-shop load-sample --orders {args.orders} --users {args.users} "
        f"--products {args.products} --days {args.days} --seed 1")
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    say("  " + done.stdout.strip().split(" on ")[0])


def read_shop(client):
    """Every entity of the shop's table, as plain values, plus one raw order and order line."""
    data = {"users": [], "products": [], "orders": [], "lines": [], "raw_order": None,
            "raw_line": None, "items": 0}
    for page in client.get_paginator("scan").paginate(TableName="Shop"):
        for item in page["Items"]:
            data["items"] += 1
            kind = scalar(item["entityType"])
            v = {k: scalar(a) for k, a in item.items()}
            if kind == "User":
                data["users"].append({"id": v["userId"], "name": v["name"], "email": v["email"]})
            elif kind == "Product":
                data["products"].append({
                    "id": v["productId"], "category": v["category"], "name": v["name"],
                    "price": v["price"], "published": v["published"], "tracked": "stock" in v})
            elif kind == "Order":
                data["orders"].append({
                    "id": v["orderId"], "user": v["userId"], "status": v["status"],
                    "total": v["total"], "day": v["day"], "shard": v["shard"]})
                data["raw_order"] = data["raw_order"] or item
            elif kind == "OrderItem":
                data["lines"].append({
                    "order": v["orderId"], "line": v["lineNo"], "product": v["productId"],
                    "quantity": v["quantity"], "price": v["unitPrice"]})
                data["raw_line"] = data["raw_line"] or item
    for key in ("users", "products", "orders", "lines"):
        data[key].sort(key=lambda e: (e.get("id") or e["order"], e.get("line", "")))
    return data


class _BatchTable:
    """Stands in for seed_app.table while loading: the seed's put_* functions call
    table.put_item(Item=...), which goes to boto3's batch_writer instead of one PutItem each."""

    def __init__(self, batch):
        self._batch = batch

    def put_item(self, Item):
        self._batch.put_item(Item=Item)


def load_seed(shop):
    """The seed's table, created by its own script, filled by its own put_* functions."""
    import runpy
    import warnings
    from decimal import Decimal

    warnings.filterwarnings("ignore", category=DeprecationWarning)  # the seed's utcnow()
    sys.path.insert(0, str(SEED_DIR))
    started = time.perf_counter()
    runpy.run_path(str(SEED_DIR / "seed_table.py"), run_name="__main__")
    import seed_app

    real = seed_app.table
    with real.batch_writer() as batch:
        seed_app.table = _BatchTable(batch)
        try:
            for u in shop["users"]:
                seed_app.put_user(u["id"], u["name"], u["email"])
            for p in shop["products"]:
                seed_app.put_product(p["id"], p["category"], p["name"], Decimal(p["price"]))
            for o in shop["orders"]:
                seed_app.put_order(o["id"], o["user"], o["status"], Decimal(o["total"]))
            for line in shop["lines"]:
                seed_app.put_order_item(line["order"], str(line["line"]), line["product"],
                                        int(line["quantity"]), Decimal(line["price"]))
        finally:
            seed_app.table = real
    count = 0
    client = real.meta.client
    for page in client.get_paginator("scan").paginate(TableName="AppTable", Select="COUNT"):
        count += page["Count"]
    secs = time.perf_counter() - started
    say(f"seed data: {count} items in {secs:.1f} s (seed_table.py, then the seed's put_* "
        "functions through boto3's batch_writer)")
    return count
