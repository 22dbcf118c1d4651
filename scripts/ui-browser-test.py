#!/usr/bin/env python3
"""Browser tests of `monotable ui` and of `serve`'s /ui, in Debian's Chromium through Playwright.

Run by crates/cli/tests/ui_browser.rs (so by the README's test command), which passes the
`monotable` binary:

    python3 scripts/ui-browser-test.py --bin target/debug/monotable [--screenshots DIR]

It starts the programs itself on free loopback ports and checks, in a real headless browser:
  1. the shop's model opens;
  2. the GSI2 view shows orders under STATUS#... and published products under PUBLISHED, and no
     unpublished product;
  3. choosing getOrderWithItems outlines exactly the order and its items;
  4. saving a model whose pattern breaks shows the diagnostic without a page reload, and fixing
     it brings the model back;
  5. listUserOrders runs against a `serve` loaded with `load-sample`, and pages twice;
  6. errors get a clear message on the page: an unknown route, a malformed parameter, a backend
     that is down.
Screenshots of the model view and the table view go to --screenshots (docs/img when the
screenshots in the docs are being refreshed).
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("MONOTABLE_CHROMIUM", "/usr/bin/chromium")
TIMEOUT_MS = 20_000


class Proc:
    """A monotable process whose first lines of output name its URLs."""

    def __init__(self, args, cwd, wait_for):
        self.p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        deadline = time.time() + 120
        while time.time() < deadline:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"{args[1]} stopped early:\n" + "".join(self.lines))
            self.lines.append(line)
            if wait_for in line:
                return
        raise SystemExit(f"{args[1]} did not get ready:\n" + "".join(self.lines))

    def url(self, label):
        for line in self.lines:
            m = re.search(label + r"\s+(http://[0-9.:]+)", line)
            if m:
                return m.group(1)
        raise SystemExit(f"no {label} URL in:\n" + "".join(self.lines))

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.p.kill()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok  ", message)


def model_view(page, base, model_file, shots):
    page.goto(base + "/")
    expect(page.locator("#title")).to_have_text("monotable ui: Shop", timeout=TIMEOUT_MS)
    expect(page.locator("#patterns li")).not_to_have_count(0)
    check(page.locator(".item").count() > 0, "the shop's model opens with its table's item collections")

    # Unpublished products exist in the table view, so the check below can fail.
    drafts = page.eval_on_selector_all(
        ".item[data-entity=Product]", "els => els.filter(e => e.textContent.includes('published=false')).map(e => e.dataset.id)")
    check(len(drafts) > 0, f"the sample data holds unpublished products ({len(drafts)})")

    page.select_option("#index", "GSI2")
    expect(page.locator(".group[data-pk=PUBLISHED]")).to_have_count(1, timeout=TIMEOUT_MS)
    groups = page.eval_on_selector_all(
        ".group", "gs => gs.map(g => ({pk: g.dataset.pk, items: [...g.querySelectorAll('.item')].map(i => ({id: i.dataset.id, entity: i.dataset.entity}))}))")
    status = [g for g in groups if g["pk"].startswith("STATUS#")]
    check(len(status) > 0 and all(i["entity"] == "Order" for g in status for i in g["items"]),
          f"GSI2 shows orders under STATUS#... ({len(status)} collections)")
    published = [g for g in groups if g["pk"] == "PUBLISHED"][0]["items"]
    check(len(published) > 0 and all(i["entity"] == "Product" for i in published),
          f"GSI2 shows published products under PUBLISHED ({len(published)})")
    shown = {i["id"] for g in groups for i in g["items"]}
    check(not shown & set(drafts), "GSI2 shows no unpublished product")
    check({g["pk"] for g in groups} <= {g["pk"] for g in status} | {"PUBLISHED"}, "GSI2 holds nothing else")

    page.click("#patterns li[data-name=getOrderWithItems]")
    expect(page.locator("#hit-count")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#index")).to_have_value("table")
    rendered = page.locator("#pattern code").nth(1).inner_text()
    pk = re.search(r'PK = "([^"]+)"', rendered).group(1)
    hits = page.eval_on_selector_all(".item.hit", "els => els.map(e => e.dataset.id)")
    collection = page.eval_on_selector_all(
        f'.group[data-pk="{pk}"] .item', "els => els.map(e => e.dataset.id)")
    entities = set(page.eval_on_selector_all(".item.hit", "els => els.map(e => e.dataset.entity)"))
    check(len(collection) > 1 and sorted(hits) == sorted(collection),
          f"getOrderWithItems outlines exactly {pk}'s {len(collection)} items")
    check(entities == {"Order", "OrderItem"}, "... which are the order and its items")
    if shots:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.locator(f'.group[data-pk="{pk}"]').evaluate("g => g.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(shots / "ui-model.png"))

    # Break a pattern in the file: the diagnostic shows up without a reload.
    page.evaluate("window.__notReloaded = true")
    text = model_file.read_text()
    broken = text.replace('key = { PK = "ORDER#{orderId}" }', 'key = { PK = "ORDER#{orderIdx}" }', 1)
    check(broken != text, "the edit changes the model")
    model_file.write_text(broken)
    expect(page.locator("#diagnostics")).to_contain_text("orderIdx", timeout=TIMEOUT_MS)
    expect(page.locator("#diagnostics")).to_contain_text("MT000")
    expect(page.locator("#banner")).to_contain_text("not a valid model")
    check(page.evaluate("window.__notReloaded === true"), "the broken pattern's diagnostic appears without a reload")
    model_file.write_text(text)
    expect(page.locator("#banner")).to_be_hidden(timeout=TIMEOUT_MS)
    expect(page.locator("#layout")).to_be_visible()
    check(page.evaluate("window.__notReloaded === true"), "fixing it brings the model back, still without a reload")

    page.goto(base + "/no/such/page")
    expect(page.locator("#error")).to_contain_text("no page /no/such/page")
    check(True, "an unknown route gets a page that says so")


def table_view(page, api, shots):
    # The user with the most orders, from the table view's own scan.
    counts, cursor = {}, None
    while True:
        doc = get_json(api + "/ui/api/live/scan?limit=1000" + (f"&cursor={cursor}" if cursor else ""))
        for it in doc["items"]:
            if it["entity"] == "Order":
                user = it["item"]["userId"]["S"]
                counts[user] = counts.get(user, 0) + 1
        cursor = doc["cursor"]
        if not cursor:
            break
    user, orders = max(counts.items(), key=lambda kv: kv[1])
    check(orders >= 11, f"load-sample gave user {user} {orders} orders (three pages of 5)")

    page.goto(api + "/ui/#table")
    expect(page.locator("#live-backend")).to_contain_text("Table Shop", timeout=TIMEOUT_MS)
    expect(page.locator("#live-pattern option[value=listUserOrders]")).to_have_count(1, timeout=TIMEOUT_MS)
    page.select_option("#live-pattern", "listUserOrders")
    page.fill("#live-params input[name=userId]", user)
    page.fill("#live-limit", "5")
    seen, pages = [], []
    page.click("#live-run")
    for n in (1, 2, 3):
        expect(page.locator("#live-status")).to_contain_text(f"page {n} ", timeout=TIMEOUT_MS)
        rows = page.eval_on_selector_all("#live-rows tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
        pages.append(rows)
        check(len(rows) == 5 and all(r[1] == "Order" and r[4] == "match" for r in rows),
              f"listUserOrders page {n}: 5 orders whose keys match the model")
        seen += [r[2] for r in rows]
        if n == 1 and shots:
            page.screenshot(path=str(shots / "ui-table.png"))
        if n < 3:
            page.click("#live-next")
    check(len(set(seen)) == 15, "paging twice with the cursor gives 15 different orders")
    check(json.loads(page.locator("#live-item").inner_text().split("\n\n", 1)[1])["userId"]["S"] == user,
          "an item opens as JSON, with its entity type")

    page.select_option("#live-pattern", "listOrdersByStatus")
    page.fill("#live-params input[name=status]", "PENDING")
    page.fill("#live-params input[name=shard]", "two")
    page.click("#live-run")
    expect(page.locator("#banner")).to_contain_text("`two` is not a valid integer", timeout=TIMEOUT_MS)
    check(True, "a malformed parameter gets a clear message")


def backend_down(page, bin, work):
    dead = free_port()
    ui = Proc([bin, "ui", "shop.toml", "--port", "0", "--endpoint", f"http://127.0.0.1:{dead}"], work, "monotable ui:")
    try:
        base = re.search(r"at (http://[0-9.:]+)/", ui.lines[-1]).group(1)
        page.goto(base + "/#table")
        expect(page.locator("#live-pattern option[value=getOrderWithItems]")).to_have_count(1, timeout=TIMEOUT_MS)
        page.select_option("#live-pattern", "getOrderWithItems")
        page.fill("#live-params input[name=orderId]", "o1")
        page.click("#live-run")
        expect(page.locator("#banner")).to_contain_text("cannot reach the backend", timeout=60_000)
        check(True, "a backend that is down gets a clear message")
    finally:
        ui.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--screenshots")
    args = ap.parse_args()
    bin = str(Path(args.bin).resolve())
    shots = Path(args.screenshots).resolve() if args.screenshots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="monotable-ui-"))
    model_file = work / "shop.toml"
    shutil.copy(ROOT / "examples" / "shop" / "shop.toml", model_file)
    procs = []
    try:
        ui = Proc([bin, "ui", "shop.toml", "--port", "0", "--in-memory"], work, "monotable ui:")
        procs.append(ui)
        base = re.search(r"at (http://[0-9.:]+)/", ui.lines[-1]).group(1)
        serve = Proc([bin, "serve", "--in-memory", "--dynamodb-port", "0", "--api-port", "0"], work, "ready in")
        procs.append(serve)
        dynamodb, api = serve.url("dynamodb"), serve.url("shop")
        subprocess.run([bin, "load-sample", "--endpoint", dynamodb, "--users", "20", "--products", "30",
                        "--orders", "300", "--quiet"], cwd=work, check=True, env={**os.environ,
                        "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_REGION": "us-east-1"})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            model_view(page, base, model_file, shots)
            table_view(page, api, shots)
            backend_down(page, bin, work)
            browser.close()
    finally:
        for proc in procs:
            proc.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("all browser checks passed")


if __name__ == "__main__":
    main()
