#!/usr/bin/env python3
"""What a user would run instead: the shop's REST API against the seed tutorial's own boto3
functions, on the same data, on one `monotable-shop serve` (issue 12, parts 3 and 4).

Usage (from a clean checkout; installs what it needs, builds the release binary when needed):

    python3 scripts/bench-compare.py                      # 5 s per case and side, 10,000 orders
    python3 scripts/bench-compare.py --seconds 2          # a quick run
    python3 scripts/bench-compare.py --write-docs         # also writes the throughput SVG into docs/img/

One `monotable-shop serve --in-memory` holds both data sets:

- the shop's table (`Shop`), filled by `monotable-shop load-sample` (users = orders / 20, 500
  products, orders over --days days, 1 to 5 lines each);
- the seed's table (`AppTable`), created by the seed's own seed_table.py and filled by the
  seed's own put_user/put_product/put_order/put_order_item with the very same users, products,
  orders and lines read back from `Shop` (boto3's batch_writer does the writing).

For every case it measures three things, one after the other:

- seed: the seed's own functions (examples/seed-boto3/seed_app.py) in a tight loop against the
  DynamoDB endpoint, in N worker processes (one boto3 resource each) for each N of --seed-procs
  (2, 3 and 4 by default; the best counts), keys drawn at random across the whole data set; total
  calls/s;
- shop: the shop's REST API driven by wrk (--connections connections, --threads threads), each
  request with a random key and a valid JWT; requests/s, every answer checked to be 2xx;
- engine alone: wrk sending the equivalent raw DynamoDB JSON request (GetItem, Query with
  Limit 20, TransactWriteItems) to the same endpoint, random keys: what the engine serves with
  no SDK and no shop code in between, the ceiling of any server over this engine.

The headline is shop / engine alone per case, against its target: at least 0.85× where the shop
sends one request per call (AP1, AP2, AP3+4, AP7, AP8, order creation, and AP5/AP6 when the
orders have one write shard), at least 0.5× on the listings it fans out over several write shards
(AP5/AP6 when sharded); and GET /users/{id} at 40 % or more of a bare 404 on the same server.

What keeps the sides comparable (docs/benchmarks.md has the full list): the seed's Queries get
Limit=20, as its pagination FAQ does, so every listing returns a page of 20 on every side; the
seed gives no function for AP7, so it gets one written like its get_user; for AP5 and AP6 the
engine alone sends the Queries the shop sends, one per write shard (the `cardinality` of the
orders' `shard` in examples/shop/shop.toml), each for the shop's share of the page, and counts a
page per that many requests; orders take published products that track no stock, so none is
refused as out of stock.

Writes results.md and results.json (and the two SVG plots) into target/bench-compare/; with
--write-docs the throughput plot also goes to docs/img/ (the ratio plot there is drawn from the
table in docs/benchmarks.md by scripts/bench-plots.py). Stops serve at the end, on errors too. Exits 1 when
any request failed or a check did not hold.

This file is only the entry point: the code lives in the package scripts/bench_compare/.
"""
import os
import sys

# The package sits beside this file; python3 puts this directory first on sys.path when the
# file is run as a script, but not when it is loaded some other way.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from bench_compare import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
