"""Schemathesis hooks for the shop's API: the rules that span several parameters.

The OpenAPI document states every rule of a single parameter or property (patterns, lengths,
bounds, enums, required fields, no unknown fields). A few rules tie parameters together, and
OpenAPI has no way to state them; the operations' descriptions state them in words:

- a cursor is only ever a `nextCursor` the server issued (its content is opaque and sealed);
- `GET /products` takes exactly one of `category` and `published=true`;
- `GET /orders` takes `status` (with optional `from`/`to`), or both `from` and `to` spanning at
  most 93 days; `from` is not after `to`; dates are real calendar dates;
- `GET /products/{productId}/sales` takes `from` and `to` spanning at most 366 days, the same way;
- an order names each product in at most one line.

Schema-valid cases that break one of these are not "valid data", so they are left out of the
positive phase. Negative cases are all kept: the server must refuse every one of them.
"""

from datetime import date, datetime, timedelta, timezone

import schemathesis

MAX_RANGE_DAYS = 93
MAX_SALES_DAYS = 366


def _instant(text, end):
    """A `from`/`to` bound as a UTC datetime, or None when it is no real date."""
    try:
        if "T" not in text:
            day = date.fromisoformat(text)
            moment = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
            return moment + timedelta(days=1, milliseconds=-1) if end else moment
        return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
    except (ValueError, OverflowError):
        return None


def _dates_ok(query, need_both, max_days=MAX_RANGE_DAYS):
    start, stop = query.get("from"), query.get("to")
    if need_both and (start is None or stop is None):
        return False
    bounds = {}
    for name, text, end in (("from", start, False), ("to", stop, True)):
        if text is not None:
            bounds[name] = _instant(str(text), end)
            if bounds[name] is None:
                return False
    if "from" in bounds and "to" in bounds:
        if bounds["from"] > bounds["to"]:
            return False
        if need_both and (bounds["to"].date() - bounds["from"].date()).days + 1 > max_days:
            return False
    return True


def _query_ok(method, path, query):
    if "cursor" in query:
        return False
    if (method, path) == ("GET", "/products"):
        has_category = "category" in query
        published = query.get("published")
        return has_category != (published is not None) and published in (None, True, "true")
    if (method, path) == ("GET", "/orders"):
        return _dates_ok(query, need_both="status" not in query)
    if (method, path) == ("GET", "/products/{productId}/sales"):
        return _dates_ok(query, need_both=True, max_days=MAX_SALES_DAYS)
    return True


def _body_ok(method, path, body):
    if (method, path) == ("POST", "/users/{userId}/orders") and isinstance(body, dict):
        ids = [line.get("productId") for line in body.get("items", []) if isinstance(line, dict)]
        return len(ids) == len(set(ids))
    return True


@schemathesis.hook
def filter_case(context, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return True
    method, path = case.operation.method.upper(), case.operation.path
    return _query_ok(method, path, case.query or {}) and _body_ok(method, path, case.body)
