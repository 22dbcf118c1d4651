"""Paths, constants (the cases, the page size, the targets against the engine alone), the shop
model's write-shard count and say(), shared by every module of scripts/bench-compare.py."""
import os
import tomllib
from pathlib import Path


# This file is scripts/bench_compare/common.py: the checkout is three levels up.
ROOT = Path(__file__).resolve().parent.parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
# The shop's program: its serve holds both sides, and its load-sample fills the shop's table.
BIN = TARGET / "release" / "monotable-shop"
SEED_DIR = ROOT / "examples" / "seed-boto3"
DOCS_IMG = ROOT / "docs" / "img"
REQUIREMENTS = ROOT / "scripts" / "requirements-bench.txt"
SHOP_MODEL = ROOT / "examples" / "shop" / "shop.toml"

PAGE = 20
STATUSES = ["PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED"]
REGION = "us-east-1"

# (key, label). AP4 (an order's items) is answered by AP3's query on both sides.
CASES = [
    ("ap1", "AP1 user by id"),
    ("ap2", "AP2 a user's orders, page of 20"),
    ("ap3", "AP3+4 order with its items"),
    ("ap5", "AP5 orders by status, page of 20"),
    ("ap6", "AP6 orders of a day, page of 20"),
    ("ap7", "AP7 product by id"),
    ("ap8", "AP8 products by category, page of 20"),
    ("order", "order creation"),
]
LABELS = dict(CASES)
# The seed has no working AP6: nothing it writes carries GSI1PK = ORDERBYDATE, so its
# get_orders_by_date_range finds nothing (examples/seed-boto3/check_seed.py asserts this).
SEED_MISSING = {"ap6": "the seed's date-range query finds nothing (nothing writes ORDERBYDATE)"}
# Targets: the shop's req/s over the engine alone's on the same requests. A case the shop answers
# with one request to the engine must keep 85 % of the engine's rate; a listing the shop fans out
# over several write shards (and merges) must keep half. AP1 must reach 40 % of a bare 404.
TARGET_ONE_REQUEST = 0.85
TARGET_FAN_OUT = 0.5
TARGET_AP1_OVER_404 = 0.40
# The listings read across the orders' write shards.
SHARDED = ("ap5", "ap6")
# Order ids are ULIDs: 26 characters of Crockford's base32.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _sharded_entity(model):
    with open(model, "rb") as f:
        doc = tomllib.load(f)
    found = [e for e in doc.get("entities", {}).values()
             if isinstance(e, dict) and "shard" in e.get("attributes", {})]
    if not found:
        raise RuntimeError(f"{model.name}: no entity has a `shard` attribute")
    return found[0]


def order_shards(model=SHOP_MODEL):
    """The write shards of the shop's orders: the `cardinality` of the Order entity's `shard`
    attribute in the shop's model (1 when it declares none)."""
    shards = _sharded_entity(model)["attributes"]["shard"].get("cardinality", 1)
    if not isinstance(shards, int) or shards < 1:
        raise RuntimeError(f"{model.name}: the shard cardinality {shards!r} is not a positive integer")
    return shards


def order_listing_keys(model=SHOP_MODEL):
    """The partition keys of the orders by status (GSI2PK) and by day (GSI3PK) as the model
    renders them, with @K@ for the status or day and @S@ for the shard: so the engine alone
    queries the partitions the shop writes, whatever the shard count."""
    keys = _sharded_entity(model).get("keys", {})
    out = {}
    for index, name in (("GSI2PK", "status"), ("GSI3PK", "day")):
        if index not in keys or "{" + name + "}" not in keys[index]:
            raise RuntimeError(f"{model.name}: the orders' {index} does not render {{{name}}}")
        out[index] = keys[index].replace("{" + name + "}", "@K@").replace("{shard}", "@S@")
    return out


def target(case, shards):
    """The least shop / engine-alone ratio `case` must reach, with `shards` write shards."""
    return TARGET_FAN_OUT if case in SHARDED and shards > 1 else TARGET_ONE_REQUEST


def say(text=""):
    print(text, flush=True)
