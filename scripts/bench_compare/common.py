"""Paths, constants (the cases, the page size, the 10× target) and say(), shared by every
module of scripts/bench-compare.py."""
import os
from pathlib import Path


# This file is scripts/bench_compare/common.py: the checkout is three levels up.
ROOT = Path(__file__).resolve().parent.parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
# The shop's program: its serve holds both sides, and its load-sample fills the shop's table.
BIN = TARGET / "release" / "monotable-shop"
SEED_DIR = ROOT / "examples" / "seed-boto3"
DOCS_IMG = ROOT / "docs" / "img"
REQUIREMENTS = ROOT / "scripts" / "requirements-bench.txt"

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
TARGET_RATIO = 10.0
# Order ids are ULIDs: 26 characters of Crockford's base32.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def say(text=""):
    print(text, flush=True)
