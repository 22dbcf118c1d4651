#!/usr/bin/env python3
"""What a user would run instead: the shop's REST API against the seed tutorial's own boto3
functions, on the same data, on one `monotable serve` (issue 12, parts 3 and 4).

Usage (from a clean checkout; installs what it needs, builds the release binary when needed):

    python3 scripts/bench-compare.py                      # 5 s per case and side, 10,000 orders
    python3 scripts/bench-compare.py --seconds 2          # a quick run
    python3 scripts/bench-compare.py --write-docs         # also writes the SVGs into docs/img/

One `monotable serve --in-memory` holds both data sets:

- the shop's table (`Shop`), filled by `monotable load-sample` (users = orders / 20, 500
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
  no SDK and no shop code in between.

What keeps the sides comparable (docs/benchmarks.md has the full list): the seed's Queries get
Limit=20, as its pagination FAQ does, so every listing returns a page of 20 on every side; the
seed gives no function for AP7, so it gets one written like its get_user; the engine alone reads
one write shard for AP5 and AP6, where the shop reads and merges all 8; orders take published
products that track no stock, so none is refused as out of stock.

Writes results.md and results.json (and the two SVG plots) into target/bench-compare/; with
--write-docs the plots also go to docs/img/. Stops serve at the end, on errors too. Exits 1 when
any request failed or a check did not hold.
"""
import argparse
import base64
import datetime
import hashlib
import hmac
import importlib
import json
import os
import platform
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
BIN = TARGET / "release" / "monotable"
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


# ---------------------------------------------------------------------------------------------
# Tools: the binary, wrk, boto3 and matplotlib.


def ensure_binary(args):
    if not args.no_build:
        say("building: cargo build --release -p monotable-cli")
        subprocess.run(["cargo", "build", "--release", "-p", "monotable-cli"], cwd=ROOT, check=True)
    if not BIN.exists():
        sys.exit(f"no binary at {BIN.relative_to(ROOT) if BIN.is_relative_to(ROOT) else BIN}; "
                 "run cargo build --release -p monotable-cli")


def ensure_wrk():
    if shutil.which("wrk"):
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit("wrk is missing: install it (Debian/Ubuntu: apt-get install -y wrk)")
    say("installing wrk: apt-get install -y wrk")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, **quiet).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, check=True, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, check=True, **quiet)
    if not shutil.which("wrk"):
        sys.exit("apt-get install wrk did not give a wrk command")


def ensure_python_packages():
    try:
        import boto3  # noqa: F401
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    say(f"installing Python packages: pip install -r {REQUIREMENTS.relative_to(ROOT)}")
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "-r", str(REQUIREMENTS)]
    if os.geteuid() == 0:
        cmd.append("--root-user-action=ignore")
    subprocess.run(cmd, check=True)
    importlib.invalidate_caches()


# ---------------------------------------------------------------------------------------------
# serve


class Serve:
    """One `monotable serve --in-memory` on ports the OS picks; stopped by stop() or at exit."""

    def __init__(self, out, secret):
        self.log_path = out / "serve.log"
        self.log = open(self.log_path, "w")
        env = dict(os.environ, MONOTABLE_JWT_SECRET=secret)
        self.proc = subprocess.Popen(
            [str(BIN), "serve", "--in-memory", "--dynamodb-port", "0", "--api-port", "0"],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True)
        deadline = time.monotonic() + 30
        text = ""
        while time.monotonic() < deadline:
            text = self.log_path.read_text()
            if "ready in" in text:
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited with {self.proc.returncode}:\n{text}")
            time.sleep(0.02)
        else:
            raise RuntimeError(f"serve did not say 'ready' within 30 s:\n{text}")
        self.dynamodb = re.search(r"^\s*dynamodb\s+(http://\S+)", text, re.M).group(1)
        self.api = re.search(r"^\s*shop\s+(http://\S+)", text, re.M).group(1)
        self.banner = text.strip()

    def check_alive(self):
        if self.proc.poll() is not None:
            raise RuntimeError(f"serve died (exit {self.proc.returncode}); see {rel(self.log_path)}")

    def rss_mib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ---------------------------------------------------------------------------------------------
# Tokens: HS256 JWTs signed with the secret serve was given (docs/serve.md, "Tokens").


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(secret, sub, admin=False, ttl=6 * 3600):
    now = int(time.time())
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": sub, "iat": now, "exp": now + ttl}
    if admin:
        claims["groups"] = ["admin"]
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    signing_input = f"{header}.{payload}".encode()
    signature = b64url(hmac.new(secret.encode(), signing_input, hashlib.sha256).digest())
    return f"{header}.{payload}.{signature}"


# ---------------------------------------------------------------------------------------------
# Raw DynamoDB JSON requests with SigV4 *material* (serve checks it is complete, not that the
# signature is right, unless started with --auth: docs/serve.md).


def engine_headers(target):
    amz_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": f"DynamoDB_20120810.{target}",
        "X-Amz-Date": amz_date,
        "Authorization": (
            f"AWS4-HMAC-SHA256 Credential=bench/{amz_date[:8]}/{REGION}/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0" * 64),
    }


def http(method, url, headers=None, body=None):
    """(status, parsed JSON or text) of one request."""
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


# ---------------------------------------------------------------------------------------------
# Data: the shop's sample, read back; the same entities written in the seed's layout.


def scalar(av):
    (kind, value), = av.items()
    return value


def load_shop_sample(serve, args):
    cmd = [str(BIN), "load-sample", "--endpoint", serve.dynamodb, "--orders", str(args.orders),
           "--users", str(args.users), "--products", str(args.products), "--days", str(args.days),
           "--seed", "1", "--quiet"]
    say(f"shop data: monotable load-sample --orders {args.orders} --users {args.users} "
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


# ---------------------------------------------------------------------------------------------
# wrk: one Lua script per case and side.

LUA_COMMON = r"""
local nthreads = 0
function setup(thread)
  thread:set("tid", nthreads)
  nthreads = nthreads + 1
end

local function lines(path)
  local t = {}
  for line in io.lines(path) do t[#t + 1] = line end
  return t
end

local function split(line)
  local t = {}
  for field in string.gmatch(line, "[^\t]+") do t[#t + 1] = field end
  return t
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,' ..
    '"timeout":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""


def rel(path):
    """`path` relative to the checkout, where wrk runs."""
    return os.path.relpath(path, ROOT)


def lua_str(text):
    return "[==[" + text + "]==]"


def lua_headers(headers):
    return "\n".join(f"wrk.headers[ {lua_str(k)} ] = {lua_str(v)}" for k, v in headers.items())


def lua_list(parts):
    return "{" + ", ".join(lua_str(x) for x in parts) + "}"


def lua_read(keys_path, method, path, body, headers):
    """A request per call: `path` and `body` with every @K@ replaced by a random line of keys_path."""
    body_parts = lua_list(body.split("@K@")) if body else "nil"
    return LUA_COMMON + f"""
{lua_headers(headers)}
local keys, n
local path_parts, body_parts = {lua_list(path.split("@K@"))}, {body_parts}
function init(args)
  math.randomseed(4242 + 7919 * (tid or 0))
  keys = lines({lua_str(rel(keys_path))})
  n = #keys
end
function request()
  local k = keys[math.random(n)]
  local body = nil
  if body_parts then body = table.concat(body_parts, k) end
  return wrk.format({lua_str(method)}, table.concat(path_parts, k), nil, body)
end
"""


def lua_shop_order(users_path, products_path):
    """POST /users/{id}/orders as that user, 1 to 5 distinct products, quantity 1 to 4."""
    return LUA_COMMON + f"""
local users, products, nu, np
local hdr = {{["Content-Type"] = "application/json"}}
function init(args)
  math.randomseed(4243 + 7919 * (tid or 0))
  users, products = {{}}, lines({lua_str(rel(products_path))})
  for _, line in ipairs(lines({lua_str(rel(users_path))})) do users[#users + 1] = split(line) end
  nu, np = #users, #products
end
function request()
  local u = users[math.random(nu)]
  local want, chosen, parts = math.random(5), {{}}, {{}}
  while #parts < want do
    local p = products[math.random(np)]
    if not chosen[p] then
      chosen[p] = true
      parts[#parts + 1] = '{{"productId":"' .. p .. '","quantity":' .. math.random(4) .. '}}'
    end
  end
  hdr["Authorization"] = "Bearer " .. u[2]
  return wrk.format("POST", "/users/" .. u[1] .. "/orders", hdr,
                    '{{"items":[' .. table.concat(parts, ",") .. ']}}')
end
"""


def lua_engine_order(users_path, products_path, headers, order_put, line_put, check, nonce):
    """TransactWriteItems shaped as the shop's order transaction: the order (attribute_not_exists),
    its lines, and a condition check per product (exists, published, price unchanged)."""
    return LUA_COMMON + f"""
{lua_headers(headers)}
local users, products, nu, np
local order_put, line_put, check = {lua_str(order_put)}, {lua_str(line_put)}, {lua_str(check)}
local counter, started = 0, 0
function init(args)
  math.randomseed(4244 + 7919 * (tid or 0))
  started = os.time()
  users, products = lines({lua_str(rel(users_path))}), {{}}
  for _, line in ipairs(lines({lua_str(rel(products_path))})) do
    products[#products + 1] = split(line)
  end
  nu, np = #users, #products
end
function request()
  counter = counter + 1
  -- A fresh id each request, also across wrk runs (the warm-up's ids are taken): ULID-shaped.
  local oid = string.format("01%s%09d%02d%010d", {lua_str(nonce)}, started % 1000000000,
                            tid or 0, counter)
  local now = os.date("!%Y-%m-%dT%H:%M:%S.000Z")
  local want, chosen, puts, checks, total = math.random(5), {{}}, {{}}, {{}}, 0
  while #puts < want do
    local p = products[math.random(np)]
    if not chosen[p[1]] then
      chosen[p[1]] = true
      local q = math.random(4)
      local line_total = tonumber(p[2]) * q
      total = total + line_total
      local n = #puts + 1
      puts[n] = string.gsub(line_put, "@(%u+)@", {{OID = oid, LINE = string.format("%03d", n),
        N = tostring(n), PID = p[1], PNAME = p[3], QTY = tostring(q), PRICE = p[2],
        LTOTAL = string.format("%.2f", line_total)}})
      checks[n] = string.gsub(check, "@(%u+)@", {{PID = p[1], PRICE = p[2]}})
    end
  end
  local order = string.gsub(order_put, "@(%u+)@", {{OID = oid, UID = users[math.random(nu)],
    SHARD = tostring(math.random(0, 7)), NOW = now, DAY = string.sub(now, 1, 10),
    TOTAL = string.format("%.2f", total), COUNT = tostring(want)}})
  local body = '{{"TransactItems":[' .. order .. "," .. table.concat(puts, ",") .. "," ..
               table.concat(checks, ",") .. "]}}"
  return wrk.format("POST", "/", nil, body)
end
"""


def run_wrk(url, script_path, args, seconds):
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout", "10s",
           "-s", rel(script_path), url]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120, cwd=ROOT)
    match = re.search(r"^BENCH_JSON (\{.*\})$", done.stdout, re.M)
    if done.returncode != 0 or not match:
        raise RuntimeError(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    r = json.loads(match.group(1))
    r["req_s"] = r["requests"] / (r["duration_us"] / 1e6)
    r["socket_errors"] = r["connect"] + r["read"] + r["write"] + r["timeout"]
    return r


# ---------------------------------------------------------------------------------------------
# The cases.


def write_lines(path, rows):
    path.write_text("".join("\t".join(map(str, r)) + "\n" if isinstance(r, (list, tuple))
                            else f"{r}\n" for r in rows))
    return path


def build_cases(shop, secret, out, serve):
    """Per case: the keys, the shop's request, the engine's request; and the seed's keys file."""
    work = out / "work"
    work.mkdir(exist_ok=True)
    users = [u["id"] for u in shop["users"]]
    orders = [o["id"] for o in shop["orders"]]
    products = [p["id"] for p in shop["products"]]
    by_status = {s: sum(1 for o in shop["orders"] if o["status"] == s) for s in STATUSES}
    statuses = [s for s in STATUSES if by_status[s] >= PAGE]
    days_count = {}
    for o in shop["orders"]:
        days_count[o["day"]] = days_count.get(o["day"], 0) + 1
    # Whole days with a full page (the first and last day of the range are partial).
    days = sorted(d for d, n in days_count.items() if n >= PAGE + 1)
    categories = sorted({p["category"] for p in shop["products"]})
    # Orders take published products that track no stock, so no order is refused as out of stock.
    order_products = [p for p in shop["products"] if p["published"] and not p["tracked"]]
    if len(order_products) < 5:
        raise RuntimeError("fewer than 5 published untracked products: raise --products")

    keys = {"users": users, "orders": orders, "products": products, "statuses": statuses,
            "categories": categories,
            "order_products": [{"id": p["id"], "price": p["price"]} for p in order_products]}
    seed_keys = work / "seed-keys.json"
    seed_keys.write_text(json.dumps(keys))

    admin = {"Authorization": "Bearer " + jwt(secret, "bench-admin", admin=True)}
    f = lambda name, rows: write_lines(work / f"keys-{name}.txt", rows)  # noqa: E731
    k_users, k_orders, k_products = f("users", users), f("orders", orders), f("products", products)
    k_status, k_days, k_cats = f("statuses", statuses), f("days", days), f("categories", categories)
    # The engine reads one write shard per request: only shards that hold orders.
    k_status_shards = f("status-shards", sorted({f"{o['status']}#{o['shard']}" for o in shop["orders"]
                                                 if o["status"] in statuses}))
    k_day_shards = f("day-shards", sorted({f"{o['day']}#{o['shard']}" for o in shop["orders"]
                                           if o["day"] in days}))

    def query(index, cond, names, pk, extra=None, forward=False):
        body = {"TableName": "Shop", "KeyConditionExpression": cond,
                "ExpressionAttributeValues": {":pk": {"S": pk}, **(extra or {})},
                "Limit": PAGE, "ScanIndexForward": forward}
        if index:
            body["IndexName"] = index
        if names:
            body["ExpressionAttributeNames"] = names
        return json.dumps(body, separators=(",", ":"))

    def get(pk, sk):
        return json.dumps({"TableName": "Shop", "Key": {"PK": {"S": pk}, "SK": {"S": sk}}},
                          separators=(",", ":"))

    cases = {
        "ap1": dict(keys=k_users, shop=("GET", "/users/@K@", None),
                    engine=("GetItem", get("USER#@K@", "PROFILE"))),
        "ap2": dict(keys=k_users, shop=("GET", f"/users/@K@/orders?limit={PAGE}", None),
                    engine=("Query", query("GSI1", "GSI1PK = :pk AND begins_with(GSI1SK, :sk)", None,
                                           "USER#@K@", {":sk": {"S": "ORDER#"}}))),
        "ap3": dict(keys=k_orders, shop=("GET", "/orders/@K@", None),
                    engine=("Query", json.dumps({
                        "TableName": "Shop", "KeyConditionExpression": "PK = :pk",
                        "ExpressionAttributeValues": {":pk": {"S": "ORDER#@K@"}},
                        "ConsistentRead": True}, separators=(",", ":")))),
        "ap5": dict(keys=k_status, shop=("GET", f"/orders?status=@K@&limit={PAGE}", None),
                    engine_keys=k_status_shards,
                    engine=("Query", query("GSI2", "GSI2PK = :pk", None, "STATUS#@K@"))),
        "ap6": dict(keys=k_days, shop=("GET", f"/orders?from=@K@&to=@K@&limit={PAGE}", None),
                    engine_keys=k_day_shards,
                    engine=("Query", query("GSI3", "GSI3PK = :pk", None, "ORDERDAY#@K@"))),
        "ap7": dict(keys=k_products, shop=("GET", "/products/@K@", None),
                    engine=("GetItem", get("PRODUCT#@K@", "PRODUCT"))),
        "ap8": dict(keys=k_cats, shop=("GET", f"/products?category=@K@&limit={PAGE}", None),
                    engine=("Query", query("GSI1", "GSI1PK = :pk AND begins_with(GSI1SK, :sk)", None,
                                           "CATEGORY#@K@", {":sk": {"S": "PRODUCT#"}}, True))),
    }
    # A listing needs partitions that hold a full page; at small sizes a day may not.
    skipped = {}
    if not statuses:
        skipped["ap5"] = f"no status holds {PAGE} orders: raise --orders"
    if not days:
        skipped["ap6"] = f"no day holds {PAGE + 1} orders: raise --orders or lower --days"
    for name in skipped:
        del cases[name]
    scripts = {}
    for name, c in cases.items():
        method, path, _ = c["shop"]
        shop_lua = lua_read(c["keys"], method, path, None, admin)
        target, body = c["engine"]
        engine_lua = lua_read(c.get("engine_keys", c["keys"]), "POST", "/", body,
                              engine_headers(target))
        scripts[name] = {"shop": shop_lua, "engine": engine_lua}

    # Order creation: the shop as the ordering user; the engine with the shop's transaction.
    tokens = write_lines(work / "keys-user-tokens.txt", [(u, jwt(secret, u)) for u in users])
    order_pids = write_lines(work / "keys-order-products.txt", [p["id"] for p in order_products])
    order_prods = write_lines(work / "keys-order-products-full.txt",
                              [(p["id"], p["price"], p["name"]) for p in order_products])
    order_put, line_put, check = shop_transaction_templates(shop)
    nonce = "".join(random.choice(CROCKFORD) for _ in range(3))
    scripts["order"] = {
        "shop": lua_shop_order(tokens, order_pids),
        "engine": lua_engine_order(k_users, order_prods, engine_headers("TransactWriteItems"),
                                   order_put, line_put, check, nonce),
    }
    for name, pair in scripts.items():
        for side, text in pair.items():
            (work / f"{name}-{side}.lua").write_text(text)
    return {"keys": seed_keys, "admin": admin, "cases": cases, "order_products": order_products,
            "tokens": dict((u, jwt(secret, u)) for u in users[:20]), "work": work,
            "engine_keys": {n: c.get("engine_keys", c["keys"]) for n, c in cases.items()},
            "days": days, "statuses": statuses, "by_status": by_status, "skipped": skipped}


def shop_transaction_templates(shop):
    """The shop's order transaction as DynamoDB JSON with @NAME@ placeholders, from an order and a
    line the sample wrote (so every attribute the shop stores is there, in its stored type)."""
    order = json.loads(json.dumps(shop["raw_order"]))
    line = json.loads(json.dumps(shop["raw_line"]))

    def put(item, key, value):
        kind = next(iter(item[key])) if key in item else "S"
        item[key] = {kind: value}

    for key, value in {
        "PK": "ORDER#@OID@", "SK": "ORDER", "orderId": "@OID@", "userId": "@UID@",
        "status": "PENDING", "total": "@TOTAL@", "itemCount": "@COUNT@", "shard": "@SHARD@",
        "createdAt": "@NOW@", "updatedAt": "@NOW@", "day": "@DAY@", "version": "1",
        "GSI1PK": "USER#@UID@", "GSI1SK": "ORDER#@OID@", "GSI2PK": "STATUS#PENDING#@SHARD@",
        "GSI2SK": "@NOW@#@OID@", "GSI3PK": "ORDERDAY#@DAY@#@SHARD@", "GSI3SK": "@NOW@#@OID@",
    }.items():
        put(order, key, value)
    for key, value in {
        "PK": "ORDER#@OID@", "SK": "ITEM#@LINE@", "orderId": "@OID@", "lineNo": "@N@",
        "productId": "@PID@", "productName": "@PNAME@", "quantity": "@QTY@",
        "unitPrice": "@PRICE@", "lineTotal": "@LTOTAL@",
    }.items():
        put(line, key, value)
    line["stockTracked"] = {"BOOL": False}
    price_kind = next(iter(shop["raw_line"]["unitPrice"]))
    compact = lambda v: json.dumps(v, separators=(",", ":"))  # noqa: E731
    order_put = compact({"Put": {"TableName": "Shop", "Item": order,
                                 "ConditionExpression": "attribute_not_exists(PK)"}})
    line_put = compact({"Put": {"TableName": "Shop", "Item": line}})
    check = compact({"ConditionCheck": {
        "TableName": "Shop", "Key": {"PK": {"S": "PRODUCT#@PID@"}, "SK": {"S": "PRODUCT"}},
        "ConditionExpression": "attribute_exists(PK) AND #p = :t AND #c = :c",
        "ExpressionAttributeNames": {"#p": "published", "#c": "price"},
        "ExpressionAttributeValues": {":t": {"BOOL": True}, ":c": {price_kind: "@PRICE@"}}}})
    return order_put, line_put, check


# ---------------------------------------------------------------------------------------------
# Probes: before any load, check by hand that each request answers what it should.


def probe(serve, built, shop):
    """Each case's shop and engine request, a few times with random keys, checked by content."""
    rng = random.Random(7)
    problems = []
    admin = built["admin"]

    def keys_of(path):
        return Path(path).read_text().split("\n")[:-1]

    for name, c in built["cases"].items():
        keys = keys_of(c["keys"])
        method, path, _ = c["shop"]
        for _ in range(5):
            k = rng.choice(keys)
            status, body = http(method, serve.api + path.replace("@K@", k), admin)
            if status != 200:
                problems.append(f"{name} shop {path.replace('@K@', k)}: {status} {body}")
                continue
            if "items" in (body if isinstance(body, dict) else {}):
                wanted = PAGE if name in ("ap5", "ap6") else 1
                if len(body["items"]) < wanted:
                    problems.append(f"{name} shop {path.replace('@K@', k)}: {len(body['items'])} items")
            if name == "ap3" and not body.get("items"):
                problems.append(f"{name} shop: an order without items")
        target, template = c["engine"]
        ekeys = keys_of(built["engine_keys"][name])
        for _ in range(5):
            k = rng.choice(ekeys)
            status, body = http("POST", serve.dynamodb + "/", engine_headers(target),
                                template.replace("@K@", k))
            if status != 200:
                problems.append(f"{name} engine {target} {k}: {status} {body}")
            elif target == "GetItem" and "Item" not in body:
                problems.append(f"{name} engine GetItem {k}: no item")
            elif target == "Query" and not body.get("Items"):
                problems.append(f"{name} engine Query {k}: no items")
    # Order creation, once each way.
    user, token = next(iter(built["tokens"].items()))
    p = built["order_products"][0]
    status, body = http("POST", f"{serve.api}/users/{user}/orders",
                        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                        json.dumps({"items": [{"productId": p["id"], "quantity": 1}]}))
    if status != 201:
        problems.append(f"order shop: {status} {body}")
    order_put, line_put, check = shop_transaction_templates(shop)
    oid = "01BENCH" + "".join(random.choice(CROCKFORD) for _ in range(19))
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    fill = lambda t, **v: re.sub(r"@([A-Z]+)@", lambda m: str(v[m.group(1)]), t)  # noqa: E731
    body = '{"TransactItems":[%s,%s,%s]}' % (
        fill(order_put, OID=oid, UID=user, SHARD=3, NOW=now, DAY=now[:10], TOTAL=p["price"], COUNT=1),
        fill(line_put, OID=oid, LINE="001", N=1, PID=p["id"], PNAME=p["name"], QTY=1,
             PRICE=p["price"], LTOTAL=p["price"]),
        fill(check, PID=p["id"], PRICE=p["price"]))
    status, answer = http("POST", serve.dynamodb + "/", engine_headers("TransactWriteItems"), body)
    if status != 200:
        problems.append(f"order engine TransactWriteItems: {status} {answer}")
    else:
        status, answer = http("GET", f"{serve.api}/orders/{oid}", built["admin"])
        if status != 200 or len(answer.get("items", [])) != 1:
            problems.append(f"order engine: the shop cannot read the order the raw request wrote: "
                            f"{status} {answer}")
    return problems


# ---------------------------------------------------------------------------------------------
# Report.


def fmt(x, digits=0):
    return "—" if x is None else f"{x:,.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


def summarize(rounds):
    """Median over rounds of each side's throughput, per case."""
    rows = []
    for key, label in CASES:
        per = [r[key] for r in rounds if key in r]
        if not per:
            continue
        med = lambda side, field: (statistics.median(p[side][field] for p in per)  # noqa: E731
                                   if per[0].get(side) else None)
        row = {
            "case": key, "label": label,
            "seed_ops_s": med("seed", "ops_s"), "shop_req_s": med("shop", "req_s"),
            "engine_req_s": med("engine", "req_s"),
            "shop_p50_ms": med("shop", "p50_us") / 1000, "shop_p99_ms": med("shop", "p99_us") / 1000,
            "engine_p50_ms": med("engine", "p50_us") / 1000,
            "seed_processes": "/".join(sorted({str(p["seed"]["processes"])
                                               for p in per if p.get("seed")})),
            "seed_note": SEED_MISSING.get(key),
            "rounds": [{s: p.get(s) for s in ("seed", "shop", "engine")} for p in per],
        }
        row["shop_over_seed"] = ratio(row["shop_req_s"], row["seed_ops_s"])
        row["shop_over_engine"] = ratio(row["shop_req_s"], row["engine_req_s"])
        # What any server over this engine could reach against the seed here: the ceiling.
        row["engine_over_seed"] = ratio(row["engine_req_s"], row["seed_ops_s"])
        row["met"] = None if row["shop_over_seed"] is None else row["shop_over_seed"] >= TARGET_RATIO
        rows.append(row)
    return rows


def markdown(rows, meta):
    counts = [str(n) for n in meta["seed_processes"]]
    procs = (f"{counts[0]} processes" if len(counts) == 1
             else "best of " + ", ".join(counts[:-1]) + " or " + counts[-1] + " processes")
    lines = [
        f"| case | seed calls/s ({procs}) | shop req/s ({meta['connections']} conns) | "
        "shop / seed | engine alone req/s | shop / engine | engine / seed | shop p50 / p99 ms | "
        "shop ≥ 10× seed |",
        "|---|---:|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for r in rows:
        met = "n/a" if r["met"] is None else ("yes" if r["met"] else "**no**")
        seed = (f"{fmt(r['seed_ops_s'])} ({r['seed_processes']})" if r["seed_note"] is None
                else "n/a¹")
        so = "—" if r["shop_over_seed"] is None else f"{r['shop_over_seed']:.1f}×"
        se = "—" if r["shop_over_engine"] is None else f"{r['shop_over_engine']:.2f}×"
        es = "—" if r["engine_over_seed"] is None else f"{r['engine_over_seed']:.1f}×"
        lines.append(f"| {r['label']} | {seed} | {fmt(r['shop_req_s'])} | {so} | "
                     f"{fmt(r['engine_req_s'])} | {se} | {es} | {r['shop_p50_ms']:.2f} / "
                     f"{r['shop_p99_ms']:.2f} | {met} |")
    if any(r["seed_note"] for r in rows):
        lines.append("")
        lines.append("¹ " + "; ".join(f"{LABELS[r['case']]}: {r['seed_note']}"
                                      for r in rows if r["seed_note"]) + ".")
    return "\n".join(lines)


def plots(rows, out, write_docs):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "bench-compare",
                         "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans", "Arial"],
                         "font.size": 9, "axes.spines.top": False, "axes.spines.right": False})
    short = {"ap1": "AP1 user", "ap2": "AP2 user's\norders", "ap3": "AP3+4 order\n+ items",
             "ap5": "AP5 orders\nby status", "ap6": "AP6 orders\nof a day", "ap7": "AP7 product",
             "ap8": "AP8 products\nby category", "order": "create\norder"}
    names = [short[r["case"]] for r in rows]
    x = list(range(len(rows)))
    saved = []

    fig, ax = plt.subplots(figsize=(8.5, 3.6))
    width = 0.27
    series = [("seed (boto3 functions)", "seed_ops_s", "#9e9e9e"),
              ("shop (REST API)", "shop_req_s", "#1f77b4"),
              ("engine alone (raw DynamoDB JSON)", "engine_req_s", "#ff7f0e")]
    for i, (label, field, color) in enumerate(series):
        xs = [p + (i - 1) * width for p, r in zip(x, rows) if r[field]]
        ys = [r[field] for r in rows if r[field]]
        ax.bar(xs, ys, width, label=label, color=color)
    ax.set_yscale("log")
    ax.set_ylabel("requests per second (log)")
    ax.set_xticks(x, names)
    ax.legend(frameon=False, fontsize=8, loc="upper right", ncols=3, bbox_to_anchor=(1, 1.12))
    ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
    fig.tight_layout()
    saved.append(("bench-compare-throughput.svg", fig))

    fig2, ax2 = plt.subplots(figsize=(8.5, 3.2))
    rr = [(p, r["shop_over_seed"]) for p, r in zip(x, rows) if r["shop_over_seed"]]
    ax2.bar([p for p, _ in rr], [v for _, v in rr], 0.55,
            color=["#2ca02c" if v >= TARGET_RATIO else "#d62728" for _, v in rr])
    for p, v in rr:
        ax2.text(p, v * 1.04, f"{v:.1f}×", ha="center", va="bottom", fontsize=8)
    for p, r in zip(x, rows):
        if r["seed_note"]:
            ax2.text(p, 0.3, "no seed\nequivalent", ha="center", va="bottom", fontsize=8,
                     color="#555555")
    ax2.axhline(TARGET_RATIO, color="black", linestyle="--", linewidth=1)
    ax2.text(len(rows) - 0.5, TARGET_RATIO * 1.04, "target 10×", ha="right", va="bottom", fontsize=8)
    ceiling = [(p, r["engine_over_seed"]) for p, r in zip(x, rows) if r["engine_over_seed"]]
    # Beside each bar, clear of its label.
    ax2.hlines([v for _, v in ceiling], [p + 0.3 for p, _ in ceiling],
               [p + 0.5 for p, _ in ceiling], color="#ff7f0e", linewidth=2.5,
               label="engine alone ÷ seed: roughly the ceiling for any server over this engine")
    ax2.legend(frameon=False, fontsize=8, loc="upper left")
    ax2.set_ylabel("shop req/s ÷ seed calls/s")
    ax2.set_xticks(x, names)
    ax2.set_ylim(0, max([TARGET_RATIO] + [v for _, v in rr] + [v for _, v in ceiling]) * 1.25)
    fig2.tight_layout()
    saved.append(("bench-compare-ratio.svg", fig2))

    written = []
    for name, figure in saved:
        dirs = [out] + ([DOCS_IMG] if write_docs else [])
        for d in dirs:
            d.mkdir(parents=True, exist_ok=True)
            figure.savefig(d / name, format="svg", metadata={"Date": None, "Creator": None})
            written.append(d / name)
        plt.close(figure)
    return written


def shown(path):
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


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
                    "against the engine alone, on one `monotable serve` (issue 12). The module's "
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
    parser.add_argument("--write-docs", action="store_true", help="also write the SVGs to docs/img/")
    parser.add_argument("--no-build", action="store_true", help="use the binary as it is")
    args = parser.parse_args()
    args.users = args.users or max(1, args.orders // 20)
    args.out = (args.out or TARGET / "bench-compare").resolve()
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
    serve = Serve(args.out, secret)
    failures = []
    try:
        say(f"serve: {shown(BIN)} serve --in-memory (DynamoDB {serve.dynamodb}, shop {serve.api})")
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
        seed_items = load_seed(shop)
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
                if key not in SEED_MISSING:
                    result["seed"] = run_seed(key, built["keys"], args)
                    if result["seed"]["misses"]:
                        failures.append(f"{LABELS[key]}, seed: {result['seed']['misses']} of "
                                        f"{result['seed']['calls']} calls found nothing")
                for side, url in (("shop", serve.api), ("engine", serve.dynamodb)):
                    if args.warmup > 0:
                        run_wrk(url, work / f"{key}-{side}.lua", args, args.warmup)
                    r = run_wrk(url, work / f"{key}-{side}.lua", args, args.seconds)
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
                    f"engine alone {fmt(result['engine']['req_s'])}/s, seed {seed_text}")
            rounds.append(results)

        rows = summarize(rounds)
        meta = {
            "date": datetime.date.today().isoformat(),
            "command": "python3 scripts/bench-compare.py " + " ".join(sys.argv[1:]),
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
        }
        table = markdown(rows, meta)
        d = meta["data"]
        header = (
            f"`{meta['command'].strip()}`, {meta['date']}, {meta['cpus']} CPUs, "
            f"{args.seconds} s per case and side after {args.warmup} s warm-up"
            f"{f', median of {args.rounds} rounds' if args.rounds > 1 else ''}; "
            f"{d['users']:,} users, {d['products']:,} products, {d['orders']:,} orders, "
            f"{d['order_lines']:,} lines in each table; wrk {args.threads} threads; "
            f"load average {meta['load_average_before'][0]} before, "
            f"{meta['load_average_after'][0]} after.")
        (args.out / "results.md").write_text(header + "\n\n" + table + "\n")
        summary = json.dumps({"meta": meta, "cases": rows}, indent=2)
        (args.out / "results.json").write_text(summary + "\n")
        written = plots(rows, args.out, args.write_docs)
        say()
        say(header)
        say()
        say(table)
        say()
        say("written: " + ", ".join(shown(p) for p in
                                    [args.out / "results.md", args.out / "results.json"] + written))
        missed = [r["label"] for r in rows if r["met"] is False]
        if missed:
            say(f"target shop ≥ 10× seed missed by: {', '.join(missed)}")
    finally:
        serve.stop()
    if failures:
        say("\nFAILED: requests that did not answer 2xx (the probes above show what these requests "
            "should answer):\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
