"""A black-box client of the shop's REST contract: it knows only the routes, bodies and status
codes of the contract, and exercises every route against a running `monotable serve`.

Env: SHOP_URL, and bearer tokens ADMIN_TOKEN, ALICE_TOKEN (user alice), BOB_TOKEN (user bob).
Prints one line per check and ends with 'N passed, N failed'; exit 1 on a failure.
"""
import json
import os
import sys
import urllib.error
import urllib.request

URL = os.environ["SHOP_URL"].rstrip("/")
ADMIN, ALICE, BOB = os.environ["ADMIN_TOKEN"], os.environ["ALICE_TOKEN"], os.environ["BOB_TOKEN"]
passed = failed = 0


def call(method, path, token=None, body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(URL + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null"), dict(r.headers)
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, json.loads(raw) if raw else None, dict(e.headers)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"FAILED - {name} {detail}")


def error_shaped(body):
    return isinstance(body, dict) and set(body) == {"error"} and {"code", "message"} <= set(body["error"])


s, doc, _ = call("GET", "/openapi.json")
check("GET /openapi.json serves the contract", s == 200 and "/orders/{orderId}" in doc["paths"])

# Users
s, b, _ = call("PUT", "/users/alice", ALICE, {"name": "Alice", "email": "Alice@Example.com"})
check("PUT /users/alice creates (201)", s == 201 and b["userId"] == "alice", str(b))
s, b, _ = call("PUT", "/users/alice", ALICE, {"name": "Alice A", "email": "alice@example.com"})
check("PUT /users/alice again updates (200)", s == 200 and b["name"] == "Alice A")
s, b, _ = call("PUT", "/users/bob", BOB, {"name": "Bob", "email": "ALICE@example.com"})
check("another user's email is a 409", s == 409 and error_shaped(b))
s, b, _ = call("PUT", "/users/bob", BOB, {"name": "Bob", "email": "bob@example.com"})
check("PUT /users/bob creates", s == 201)
s, b, _ = call("GET", "/users/alice", ALICE)
check("GET /users/alice as alice", s == 200 and b["email"] == "alice@example.com")
s, b, _ = call("GET", "/users/alice", BOB)
check("GET /users/alice as bob is 403", s == 403 and error_shaped(b))
s, b, _ = call("GET", "/users/alice")
check("GET /users/alice without a token is 401", s == 401 and error_shaped(b))
s, b, _ = call("GET", "/users?email=ALICE@EXAMPLE.COM", ADMIN)
check("GET /users?email= as admin, any case", s == 200 and b["userId"] == "alice")
s, b, _ = call("GET", "/users?email=alice@example.com", ALICE)
check("GET /users?email= as a customer is 403", s == 403)

# Products
s, cable, _ = call("POST", "/products", ADMIN, {"name": "Cable", "category": "electronics", "price": "9.99", "published": True, "stock": 3})
check("POST /products (admin) is 201 with a decimal-string price", s == 201 and cable["price"] == "9.99", str(cable))
s, plug, _ = call("POST", "/products", ADMIN, {"name": "Plug", "category": "electronics", "price": "0.10", "published": True})
s, draft, _ = call("POST", "/products", ADMIN, {"name": "Draft", "category": "electronics", "price": "1", "published": False})
s, b, _ = call("POST", "/products", ALICE, {"name": "X", "category": "c", "price": "1", "published": True})
check("POST /products as a customer is 403", s == 403)
s, b, _ = call("POST", "/products", ADMIN, {"name": "X", "category": "c", "price": 9.99, "published": True})
check("a float price is a 400", s == 400 and error_shaped(b))
s, b, _ = call("GET", f"/products/{cable['productId']}")
check("GET /products/{id} is public", s == 200 and b["name"] == "Cable")
s, b, _ = call("GET", f"/products/{draft['productId']}")
check("a draft is not public (404)", s == 404)
s, b, _ = call("PATCH", f"/products/{draft['productId']}", ADMIN, {"published": True, "price": "2.00"})
check("PATCH /products/{id} publishes and reprices", s == 200 and b["published"] and b["price"] == "2.00")
s, b, _ = call("GET", "/products?category=electronics&limit=2")
check("GET /products?category= pages", s == 200 and len(b["items"]) == 2 and b["nextCursor"])
s2, b2, _ = call("GET", f"/products?category=electronics&limit=2&cursor={b['nextCursor']}")
check("the next page finishes the category", s2 == 200 and len(b2["items"]) == 1 and b2["nextCursor"] is None)
s, b, _ = call("GET", "/products?published=true&limit=100")
check("GET /products?published=true", s == 200 and len(b["items"]) == 3)
s, b, _ = call("GET", "/products?category=electronics&cursor=forged.cursor")
check("a forged cursor is a 400", s == 400 and b["error"]["code"] == "invalid_cursor")

# Orders
body = {"items": [{"productId": cable["productId"], "quantity": 2}, {"productId": plug["productId"], "quantity": 3}]}
s, order, h = call("POST", "/users/alice/orders", ALICE, body, {"Idempotency-Key": "k-1"})
check("POST /users/alice/orders is 201, priced by the server", s == 201 and order["total"] == "20.28" and len(order["items"]) == 2, str(order))
s, again, h = call("POST", "/users/alice/orders", ALICE, body, {"Idempotency-Key": "k-1"})
check("the same Idempotency-Key and body replays the order", s == 201 and again["orderId"] == order["orderId"])
s, b, _ = call("POST", "/users/alice/orders", ALICE, {"items": [{"productId": plug["productId"], "quantity": 1}]}, {"Idempotency-Key": "k-1"})
check("the same key with another body is a 409", s == 409)
s, b, _ = call("POST", "/users/alice/orders", ALICE, {"items": [{"productId": cable["productId"], "quantity": 2}]})
check("ordering more than the stock is a 409", s == 409 and b["error"]["code"] == "out_of_stock")
s, b, _ = call("POST", "/users/alice/orders", BOB, body)
check("ordering for someone else is a 403", s == 403)
too_many = {"items": [{"productId": plug["productId"], "quantity": 1}] * 50}
s, b, _ = call("POST", "/users/alice/orders", ALICE, too_many)
check("more than 49 lines is a 400 that names the limit", s == 400 and "49" in b["error"]["message"])
s, b, _ = call("GET", "/users/alice/orders", ALICE)
check("GET /users/alice/orders lists the one order", s == 200 and [o["orderId"] for o in b["items"]] == [order["orderId"]])
s, b, _ = call("GET", f"/orders/{order['orderId']}", ALICE)
check("GET /orders/{id} as the owner, with items", s == 200 and len(b["items"]) == 2)
s, b, _ = call("GET", f"/orders/{order['orderId']}", BOB)
check("GET /orders/{id} as another user is 404", s == 404)
s, b, _ = call("PATCH", f"/orders/{order['orderId']}", ALICE, {"status": "PAID"})
check("the owner may not mark it PAID (403)", s == 403)
s, b, _ = call("PATCH", f"/orders/{order['orderId']}", ADMIN, {"status": "PAID", "expectedVersion": 1})
check("admin PENDING -> PAID", s == 200 and b["status"] == "PAID" and b["version"] == 2)
s, b, _ = call("PATCH", f"/orders/{order['orderId']}", ADMIN, {"status": "DELIVERED"})
check("PAID -> DELIVERED is a 409 naming PAID", s == 409 and "PAID" in b["error"]["message"])
s, b, _ = call("GET", "/orders?status=PAID", ADMIN)
check("GET /orders?status=PAID", s == 200 and [o["orderId"] for o in b["items"]] == [order["orderId"]])
day = order["createdAt"][:10]
s, b, _ = call("GET", f"/orders?status=PAID&from={day}&to={day}", ADMIN)
check("GET /orders?status=&from=&to=", s == 200 and len(b["items"]) == 1)
s, b, _ = call("GET", f"/orders?from={day}&to={day}", ADMIN)
check("GET /orders?from=&to= across statuses", s == 200 and len(b["items"]) == 1)
s, b, _ = call("GET", "/orders?from=2026-02-01&to=2026-01-01", ADMIN)
check("a reversed range is a 400", s == 400)
s, b, _ = call("PATCH", f"/orders/{order['orderId']}", ALICE, {"status": "CANCELLED"})
check("the owner cancels a PAID order", s == 200 and b["status"] == "CANCELLED")
s, b, _ = call("GET", f"/products/{cable['productId']}")
check("cancelling returned the stock", b["stock"] == 3)

print(f"{passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
