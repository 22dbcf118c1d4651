"""The seed's access patterns behind an API Gateway HTTP API (payload 2.0) Lambda handler, as a
user of the tutorial would deploy them: the seed's own functions (seed_app.py), one route each.
Used to compare cold starts with the shop's binary (docs/benchmarks.md); not a product.

    GET /users/{id}            AP1  get_user
    GET /users/{id}/orders     AP2  get_user_orders
    GET /orders/{id}           AP3+4 get_order_with_items
    GET /products?category=C   AP8  get_products_by_category
"""
import json
from decimal import Decimal

import seed_app as app


def _json(value):
    return json.dumps(value, default=lambda v: str(v) if isinstance(v, Decimal) else repr(v))


def _answer(status, body):
    return {"statusCode": status, "headers": {"content-type": "application/json"}, "body": _json(body)}


def handler(event, context):
    parts = [p for p in event.get("rawPath", "/").split("/") if p]
    query = event.get("queryStringParameters") or {}
    if event.get("requestContext", {}).get("http", {}).get("method") != "GET":
        return _answer(405, {"error": "method not allowed"})
    if parts[:1] == ["users"] and len(parts) == 2:
        user = app.get_user(parts[1])
        return _answer(200, user) if user else _answer(404, {"error": "no such user"})
    if parts[:1] == ["users"] and parts[2:] == ["orders"]:
        return _answer(200, {"items": app.get_user_orders(parts[1])})
    if parts[:1] == ["orders"] and len(parts) == 2:
        return _answer(200, app.get_order_with_items(parts[1]))
    if parts == ["products"] and "category" in query:
        return _answer(200, {"items": app.get_products_by_category(query["category"])})
    return _answer(404, {"error": "no such route"})
