"""The cases: per case the keys files, the shop's request and the engine-alone request (the
shop's order transaction as raw DynamoDB JSON), and the probes that check each by hand."""
import datetime
import json
import random
import re
from pathlib import Path

from .common import CROCKFORD, PAGE, STATUSES, order_listing_keys, order_shards
from .serve import engine_headers, http, jwt
from .wrk import lua_engine_order, lua_fan_out, lua_read, lua_shop_order


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
    shards = order_shards()
    # The shop reads every write shard of the status or day, each for its share of the page and
    # one more (crates/shop/src/orders/list.rs, read_shards): the engine alone sends the same
    # Queries, one per shard, and a page is all of them.
    share = -(-(PAGE + 1) // shards) + 1
    listing = order_listing_keys()

    def query(index, cond, names, pk, extra=None, forward=False, limit=PAGE):
        body = {"TableName": "Shop", "KeyConditionExpression": cond,
                "ExpressionAttributeValues": {":pk": {"S": pk}, **(extra or {})},
                "Limit": limit, "ScanIndexForward": forward}
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
                    shards=shards,
                    engine=("Query", query("GSI2", "GSI2PK = :pk", None, listing["GSI2PK"],
                                           limit=share))),
        "ap6": dict(keys=k_days, shop=("GET", f"/orders?from=@K@&to=@K@&limit={PAGE}", None),
                    shards=shards,
                    engine=("Query", query("GSI3", "GSI3PK = :pk", None, listing["GSI3PK"],
                                           limit=share))),
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
        if "shards" in c:
            engine_lua = lua_fan_out(c["keys"], body, c["shards"], engine_headers(target))
        else:
            engine_lua = lua_read(c["keys"], "POST", "/", body, engine_headers(target))
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
            "shards": shards, "days": days, "statuses": statuses, "by_status": by_status, "skipped": skipped}


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
        "unitPrice": "@PRICE@", "lineTotal": "@LTOTAL@", "day": "@DAY@",
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
        for _ in range(5):
            k = rng.choice(keys)
            # A sharded listing: every shard of the key, as a page reads them.
            bodies = [template.replace("@K@", k).replace("@S@", str(s))
                      for s in range(c.get("shards", 1))]
            found = 0
            for body in bodies:
                status, answer = http("POST", serve.dynamodb + "/", engine_headers(target), body)
                if status != 200:
                    problems.append(f"{name} engine {target} {k}: {status} {answer}")
                    break
                found += len(answer.get("Items", [])) if target == "Query" else "Item" in answer
            else:
                if not found:
                    problems.append(f"{name} engine {target} {k}: nothing found")
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
        fill(order_put, OID=oid, UID=user, SHARD=order_shards() - 1, NOW=now, DAY=now[:10], TOTAL=p["price"], COUNT=1),
        fill(line_put, OID=oid, LINE="001", N=1, PID=p["id"], PNAME=p["name"], QTY=1,
             PRICE=p["price"], LTOTAL=p["price"], DAY=now[:10]),
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
